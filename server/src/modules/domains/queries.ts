import type { Db } from '../../db/connection.ts';
import type { UserRow } from '../users/queries.ts';

/** Every domain query starts here: a customer sees their own, a host admin their tenant's, a super admin all. */
export const visibleDomains = (db: Db, viewer: UserRow) => {
  let query = db.selectFrom('domains');
  if (viewer.role === 'customer') query = query.where('domains.owner_id', '=', viewer.id);
  else if (viewer.role === 'host_admin') query = query.where('domains.tenant_id', '=', viewer.tenant_id);
  return query;
};

/** Live domains (no expiry, or expiring in the future) for the selector, by name. */
export const listLiveDomains = (db: Db, viewer: UserRow, now: Date, limit: number) =>
  visibleDomains(db, viewer)
    .select(['domains.id', 'domains.name', 'domains.expire_at'])
    .where((eb) => eb.or([eb('domains.expire_at', 'is', null), eb('domains.expire_at', '>', now)]))
    .orderBy('domains.name')
    .limit(limit)
    .execute();

export const findVisibleDomain = (db: Db, viewer: UserRow, id: number) =>
  visibleDomains(db, viewer).selectAll('domains').where('domains.id', '=', id).executeTakeFirst();
