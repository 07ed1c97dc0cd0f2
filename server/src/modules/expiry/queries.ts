import { sql } from 'kysely';
import type { Db } from '../../db/connection.ts';
import { domainExpiryKey } from '../domains/queries.ts';
import { renewableInShop, renewDaysOfDomain } from '../billing/queries.ts';

/** Domains expiring in (after, until] that have not had this reminder for this expiry yet, by id. */
export const dueForReminder = (db: Db, q: { after: Date; until: Date; daysBefore: number; afterId: number; limit: number }) =>
  db
    .selectFrom('domains')
    .innerJoin('users as owner', 'owner.id', 'domains.owner_id')
    .select([
      'domains.id',
      'domains.tenant_id',
      'domains.name',
      'domains.expire_at',
      'owner.id as owner_id',
      'owner.email as owner_email',
      'owner.given_name as owner_given_name',
      'owner.sn as owner_sn',
      'owner.language as owner_language',
    ])
    .where(domainExpiryKey, '>', q.after)
    .where(domainExpiryKey, '<=', q.until)
    .where('domains.id', '>', q.afterId)
    // An auto-renewed domain is charged `renew_days_before` days ahead (modules/billing): it is
    // reminded only from then on, when its renewal did not go through.
    .where((eb) =>
      eb.or([
        eb('domains.auto_renew', '=', false),
        eb.not(renewableInShop),
        eb(sql<number>`${q.daysBefore}::integer`, '<', renewDaysOfDomain),
      ]),
    )
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('domain_expiry_reminders as r')
            .select('r.domain_id')
            .whereRef('r.domain_id', '=', 'domains.id')
            .where('r.days_before', '=', q.daysBefore)
            .whereRef('r.expire_at', '=', 'domains.expire_at'),
        ),
      ),
    )
    .orderBy('domains.id')
    .limit(q.limit)
    .execute();

export type DueDomain = Awaited<ReturnType<typeof dueForReminder>>[number];

/** True for the one caller that records this reminder; a second run (or instance) gets false. */
export const claimReminder = async (
  db: Db,
  values: { domain_id: number; days_before: number; expire_at: Date; sent_at: Date },
): Promise<boolean> => {
  const rows = await db
    .insertInto('domain_expiry_reminders')
    .values(values)
    .onConflict((oc) => oc.doNothing())
    .returning('domain_id')
    .execute();
  return rows.length === 1;
};
