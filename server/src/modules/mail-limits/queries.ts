import type { Db } from '../../db/connection.ts';

/** Mailboxes that went over their hourly limit and whose owner was not told in this window yet. */
export const listUntoldOverLimits = (db: Db) =>
  db
    .selectFrom('mail_send_windows as w')
    .innerJoin('domain_users as u', 'u.id', 'w.domain_user_id')
    .innerJoin('domains as d', 'd.id', 'u.domain_id')
    .select(['w.domain_user_id', 'w.over_at', 'w.over_limit', 'u.uid', 'd.owner_id', 'd.tenant_id'])
    .where('w.over_at', 'is not', null)
    .where((eb) => eb.or([eb('w.told_at', 'is', null), eb('w.told_at', '<', eb.ref('w.over_at'))]))
    .orderBy('w.over_at')
    .limit(500)
    .execute();

/**
 * Marks the window's going over told (told_at takes over_at: both are the database's time, which
 * counted it); false when another instance did meanwhile.
 */
export const claimTold = async (db: Db, domainUserId: number): Promise<boolean> => {
  const row = await db
    .updateTable('mail_send_windows')
    .set((eb) => ({ told_at: eb.ref('over_at') }))
    .where('domain_user_id', '=', domainUserId)
    .where('over_at', 'is not', null)
    .where((eb) => eb.or([eb('told_at', 'is', null), eb('told_at', '<', eb.ref('over_at'))]))
    .returning('domain_user_id')
    .executeTakeFirst();
  return row !== undefined;
};

/** Who hears of it: the mailbox's owner and the tenant's admins. */
export const usersToTell = (db: Db, ownerId: number, tenantId: number) =>
  db
    .selectFrom('users')
    .select(['id', 'tenant_id', 'language'])
    .where((eb) => eb.or([eb('id', '=', ownerId), eb.and([eb('tenant_id', '=', tenantId), eb('role', '=', 'host_admin')])]))
    .execute();

/** Domains that went over their hourly limit (mailboxes and forwarders together), not told yet in this window. */
export const listUntoldOverDomainLimits = (db: Db) =>
  db
    .selectFrom('mail_domain_send_windows as w')
    .innerJoin('domains as d', 'd.id', 'w.domain_id')
    .select(['w.domain_id', 'w.over_at', 'w.over_limit', 'd.name', 'd.owner_id', 'd.tenant_id'])
    .where('w.over_at', 'is not', null)
    .where((eb) => eb.or([eb('w.told_at', 'is', null), eb('w.told_at', '<', eb.ref('w.over_at'))]))
    .orderBy('w.over_at')
    .limit(500)
    .execute();

/** As claimTold, for a domain's window. */
export const claimDomainTold = async (db: Db, domainId: number): Promise<boolean> => {
  const row = await db
    .updateTable('mail_domain_send_windows')
    .set((eb) => ({ told_at: eb.ref('over_at') }))
    .where('domain_id', '=', domainId)
    .where('over_at', 'is not', null)
    .where((eb) => eb.or([eb('told_at', 'is', null), eb('told_at', '<', eb.ref('over_at'))]))
    .returning('domain_id')
    .executeTakeFirst();
  return row !== undefined;
};
