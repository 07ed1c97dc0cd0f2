import { sql } from 'kysely';
import { preparedStatement, type Db } from '../../db/connection.ts';
import { escapeLike } from '../../db/keyset.ts';

/** An audit row as written: every column named, so that the statement's text is always one; `data` as JSON text. */
export interface AuditRowValues {
  tenant_id: number | null;
  user_id: number | null;
  action: string;
  ip: string | null;
  data: string;
  created_at: Date;
  target_type: string | null;
  target_id: string | null;
  impersonator_id: number | null;
}

/** An audit row's insert (also one part of the sign-in's single write, modules/auth/queries.ts). */
export const auditEntryInsert = (db: Db, row: AuditRowValues) =>
  db.insertInto('audit_log').values({
    tenant_id: row.tenant_id,
    user_id: row.user_id,
    action: row.action,
    ip: row.ip,
    data: sql`${row.data}::jsonb`,
    created_at: row.created_at,
    target_type: row.target_type,
    target_id: row.target_id,
    impersonator_id: row.impersonator_id,
  } as never);

/** Most requests that change something write one. */
export const insertAuditEntry = preparedStatement('berth_audit_entry', auditEntryInsert);

export interface AuditFilter {
  /** Null: every tenant (super admins). */
  tenantId: number | null;
  action?: string | undefined;
  userId?: number | undefined;
  targetType?: string | undefined;
  targetId?: string | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
  /** Entries older than this id (the keyset cursor: newest first). */
  beforeId?: number | undefined;
  limit: number;
}

/** Newest first, by id (ids grow with time), with the names of the user and of an impersonating admin. */
export const listAuditEntries = (db: Db, filter: AuditFilter) => {
  let query = db
    .selectFrom('audit_log as a')
    .leftJoin('users as u', 'u.id', 'a.user_id')
    .leftJoin('users as i', 'i.id', 'a.impersonator_id')
    .select([
      'a.id',
      'a.created_at',
      'a.action',
      'a.ip',
      'a.tenant_id',
      'a.data',
      'a.target_type',
      'a.target_id',
      'a.user_id',
      'u.email as user_email',
      'u.given_name as user_given_name',
      'u.sn as user_sn',
      'a.impersonator_id',
      'i.email as impersonator_email',
      'i.given_name as impersonator_given_name',
      'i.sn as impersonator_sn',
    ])
    .orderBy('a.id', 'desc')
    .limit(filter.limit);
  if (filter.tenantId !== null) query = query.where('a.tenant_id', '=', filter.tenantId);
  if (filter.action) {
    query = filter.action.endsWith('.')
      ? query.where('a.action', 'like', `${escapeLike(filter.action)}%`)
      : query.where('a.action', '=', filter.action);
  }
  if (filter.userId !== undefined) query = query.where('a.user_id', '=', filter.userId);
  if (filter.targetType) query = query.where('a.target_type', '=', filter.targetType);
  if (filter.targetId) query = query.where('a.target_id', '=', filter.targetId);
  if (filter.from) query = query.where('a.created_at', '>=', filter.from);
  if (filter.to) query = query.where('a.created_at', '<', filter.to);
  if (filter.beforeId !== undefined) query = query.where('a.id', '<', String(filter.beforeId));
  return query.execute();
};

/**
 * The current names of the objects a page of entries points at, by type and id: people by their
 * name, domains by name, tenants by title, invoices by number (four small queries per page).
 */
export async function targetLabelRows(
  db: Db,
  ids: Record<'user' | 'domain' | 'tenant' | 'invoice' | 'promo' | 'hosting_plan' | 'tld_price' | 'api_token' | 'domain_user', number[]>,
) {
  const none = Promise.resolve([]);
  const [users, domains, tenants, invoices, promos, plans, tlds, tokens, domainUsers] = await Promise.all([
    ids.user.length ? db.selectFrom('users').select(['id', 'email', 'given_name', 'sn']).where('id', 'in', ids.user).execute() : none,
    ids.domain.length ? db.selectFrom('domains').select(['id', 'name']).where('id', 'in', ids.domain).execute() : none,
    ids.tenant.length ? db.selectFrom('tenants').select(['id', 'title']).where('id', 'in', ids.tenant).execute() : none,
    ids.invoice.length ? db.selectFrom('invoices').select(['id', 'number']).where('id', 'in', ids.invoice).execute() : none,
    ids.promo.length ? db.selectFrom('promo_codes').select(['id', 'code as label']).where('id', 'in', ids.promo).execute() : none,
    ids.hosting_plan.length
      ? db.selectFrom('hosting_plans').select(['id', 'title as label']).where('id', 'in', ids.hosting_plan).execute()
      : none,
    ids.tld_price.length ? db.selectFrom('tld_prices').select(['id', 'tld as label']).where('id', 'in', ids.tld_price).execute() : none,
    ids.api_token.length ? db.selectFrom('api_tokens').select(['id', 'name as label']).where('id', 'in', ids.api_token).execute() : none,
    ids.domain_user.length
      ? db.selectFrom('domain_users').select(['id', 'uid as label']).where('id', 'in', ids.domain_user).execute()
      : none,
  ]);
  return {
    users,
    domains,
    tenants,
    invoices,
    labelled: { promo: promos, hosting_plan: plans, tld_price: tlds, api_token: tokens, domain_user: domainUsers },
  };
}
