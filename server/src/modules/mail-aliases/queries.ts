import { sql } from 'kysely';
import type { Db } from '../../db/connection.ts';

const COLUMNS = ['id', 'tenant_id', 'domain_id', 'local_part', 'destination', 'created_at'] as const;

export const listMailAliases = (db: Db, domainId: number) =>
  db.selectFrom('mail_aliases').select(COLUMNS).where('domain_id', '=', domainId).orderBy('local_part').orderBy('destination').execute();

export const countMailAliases = async (db: Db, domainId: number): Promise<number> =>
  Number(
    (
      await db
        .selectFrom('mail_aliases')
        .select(sql<string>`count(*)`.as('count'))
        .where('domain_id', '=', domainId)
        .executeTakeFirstOrThrow()
    ).count,
  );

export const findMailAlias = (db: Db, domainId: number, id: number) =>
  db.selectFrom('mail_aliases').select(COLUMNS).where('domain_id', '=', domainId).where('id', '=', id).executeTakeFirst();

export const insertMailAlias = (
  db: Db,
  values: { tenant_id: number; domain_id: number; local_part: string; destination: string; created_at: Date },
) => db.insertInto('mail_aliases').values(values).returning(COLUMNS).executeTakeFirstOrThrow();

export const deleteMailAlias = (db: Db, domainId: number, id: number) =>
  db.deleteFrom('mail_aliases').where('domain_id', '=', domainId).where('id', '=', id).executeTakeFirst();

/** Whether an enabled or disabled mailbox has this whole address (it would shadow the mailbox). */
export const mailboxExists = async (db: Db, address: string): Promise<boolean> =>
  (await db
    .selectFrom('domain_users')
    .select('id')
    .where(sql<string>`lower(uid)`, '=', address)
    .executeTakeFirst()) !== undefined;

/** Serialises the forwarder changes of one domain (its limit holds under concurrent requests). */
export const lockDomainForAliases = (db: Db, domainId: number) =>
  db.selectFrom('domains').select('id').where('id', '=', domainId).forUpdate().executeTakeFirst();

/**
 * Whether mail for `from` is forwarded, through Berth's forwarders (20 steps at most, as far as
 * Postfix would follow them), to `to`: a new forwarder `to` -> `from` would close a loop.
 */
export const forwardsReach = async (db: Db, from: string, to: string): Promise<boolean> => {
  const { rows } = await sql<{ found: boolean }>`
    with recursive reach (addr, depth) as (
      select ${from.toLowerCase()}::text, 0
      union
      select lower(a.destination), r.depth + 1
      from reach r
        join public.mail_aliases a on lower(a.local_part) || '@' || (select d.name from public.domains d where d.id = a.domain_id) = r.addr
      where r.depth < 20
    )
    select exists (select 1 from reach where addr = ${to.toLowerCase()}) as found`.execute(db);
  return rows[0]?.found === true;
};
