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
