import type { AuditEntryView } from '@berth/contracts';
import { z } from 'zod';
import type { Db } from '../../db/connection.ts';
import { decodeCursor, encodeCursor, pageOfRows } from '../../db/keyset.ts';
import { assertAdministeredUser, assertAdmin, displayNameOf, iso, listTenantScope } from '../tenants/scope.ts';
import type { UserRow } from '../users/queries.ts';
import { listAuditEntries } from './queries.ts';

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
        target: row.target_type && row.target_id ? { type: row.target_type, id: row.target_id } : null,
        data: row.data,
      })),
      next_cursor: page.nextCursor,
    };
  }
}
