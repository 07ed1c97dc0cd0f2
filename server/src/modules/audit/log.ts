import type { AuditEntryView } from '@berth/contracts';
import { z } from 'zod';
import type { Db } from '../../db/connection.ts';
import { decodeCursor, encodeCursor, pageOfRows } from '../../db/keyset.ts';
import { assertAdministeredUser, assertAdmin, displayNameOf, iso, listTenantScope } from '../tenants/scope.ts';
import type { UserRow } from '../users/queries.ts';
import { displayDomainName } from '../domains/names.ts';
import { listAuditEntries, targetLabelRows } from './queries.ts';

export interface AuditQuery {
  cursor?: string | undefined;
  limit: number;
  action?: string | undefined;
  user_id?: number | undefined;
  target_type?: string | undefined;
  target_id?: string | undefined;
  tenant_id?: number | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

const SORT = 'audit';

/** The audit log as admins read it: host admins their tenant's entries, super admins everyone's. */
export class AuditLogReader {
  private readonly db: Db;

  constructor(db: Db) {
    this.db = db;
  }

  async list(viewer: UserRow, query: AuditQuery): Promise<{ data: AuditEntryView[]; next_cursor: string | null }> {
    assertAdmin(viewer);
    const tenantId = await listTenantScope(this.db, viewer, query.tenant_id);
    if (query.user_id !== undefined) await assertAdministeredUser(this.db, viewer, query.user_id);
    const beforeId = query.cursor ? decodeCursor(query.cursor, SORT, z.tuple([z.number().int()]))[0] : undefined;
    const rows = await listAuditEntries(this.db, {
      tenantId,
      action: query.action,
      userId: query.user_id,
      targetType: query.target_type,
      targetId: query.target_id,
      from: query.from ? new Date(query.from) : undefined,
      to: query.to ? new Date(query.to) : undefined,
      beforeId,
      limit: query.limit + 1,
    });
    const page = pageOfRows(rows, query.limit, (row) => encodeCursor(SORT, [Number(row.id)]));
    const labels = await this.targetLabels(page.rows);
    return {
      data: page.rows.map((row) => ({
        id: String(row.id),
        created_at: iso(row.created_at),
        action: row.action,
        ip: row.ip,
        tenant_id: row.tenant_id,
        user:
          row.user_id === null
            ? null
            : {
                id: row.user_id,
                email: row.user_email ?? '',
                display_name: displayNameOf({ email: row.user_email, given_name: row.user_given_name, sn: row.user_sn }),
              },
        impersonator:
          row.impersonator_id === null
            ? null
            : {
                id: row.impersonator_id,
                email: row.impersonator_email ?? '',
                display_name: displayNameOf({
                  email: row.impersonator_email,
                  given_name: row.impersonator_given_name,
                  sn: row.impersonator_sn,
                }),
              },
        target:
          row.target_type && row.target_id
            ? { type: row.target_type, id: row.target_id, label: labels.get(`${row.target_type}:${row.target_id}`) ?? null }
            : null,
        data: row.data,
      })),
      next_cursor: page.nextCursor,
    };
  }

  /** The objects' current names ("Hana Nováková", "example.com"), so the log reads in words. */
  private async targetLabels(rows: { target_type: string | null; target_id: string | null }[]): Promise<Map<string, string>> {
    const ids = {
      user: [] as number[],
      domain: [] as number[],
      tenant: [] as number[],
      invoice: [] as number[],
      promo: [] as number[],
      hosting_plan: [] as number[],
      tld_price: [] as number[],
      api_token: [] as number[],
      domain_user: [] as number[],
    };
    for (const row of rows) {
      const id = Number(row.target_id);
      if (row.target_type && row.target_type in ids && Number.isSafeInteger(id) && id > 0)
        ids[row.target_type as keyof typeof ids].push(id);
    }
    const found = await targetLabelRows(this.db, ids);
    const labels = new Map<string, string>();
    for (const user of found.users) labels.set(`user:${user.id}`, displayNameOf(user));
    for (const domain of found.domains) labels.set(`domain:${domain.id}`, displayDomainName(domain.name));
    for (const tenant of found.tenants) labels.set(`tenant:${tenant.id}`, tenant.title);
    for (const invoice of found.invoices) labels.set(`invoice:${invoice.id}`, invoice.number);
    for (const [type, rows] of Object.entries(found.labelled)) {
      for (const row of rows) labels.set(`${type}:${row.id}`, type === 'tld_price' ? `.${row.label}` : row.label);
    }
    return labels;
  }
}
