import { sql } from 'kysely';
import type { SpamFilter } from '@berth/contracts';
import type { Db } from '../../db/connection.ts';

export const findDomainUserByUid = (db: Db, uid: string) =>
  db
    .selectFrom('domain_users')
    .selectAll()
    .where(sql<string>`lower(uid)`, '=', uid.toLowerCase())
    .executeTakeFirst();

export const updateDomainUserPassword = (db: Db, id: number, passwordHash: string, now: Date) =>
  db.updateTable('domain_users').set({ password_hash: passwordHash, updated_at: now }).where('id', '=', id).execute();

export const insertDomainUser = (db: Db, values: { tenant_id: number; domain_id: number; uid: string; password_hash: string }) =>
  db.insertInto('domain_users').values(values).returningAll().executeTakeFirstOrThrow();

/* ---- /host/domain/{id}/users ---- */

export const listDomainUsers = (db: Db, domainId: number, options: { after?: readonly [string, number] | undefined; limit: number }) => {
  let query = db
    .selectFrom('domain_users')
    .select(['id', 'domain_id', 'uid', 'quota_mb', 'enabled', 'spam_filter', 'created_at', 'updated_at'])
    .where('domain_id', '=', domainId)
    .orderBy('uid')
    .orderBy('id')
    .limit(options.limit);
  if (options.after) query = query.where(sql<boolean>`(uid, id) > (${options.after[0]}, ${options.after[1]})`);
  return query.execute();
};

export const findDomainUser = (db: Db, domainId: number, id: number) =>
  db
    .selectFrom('domain_users')
    .select(['id', 'tenant_id', 'domain_id', 'uid', 'quota_mb', 'enabled', 'spam_filter', 'created_at', 'updated_at'])
    .where('domain_id', '=', domainId)
    .where('id', '=', id)
    .executeTakeFirst();

export const createDomainUser = (
  db: Db,
  values: {
    tenant_id: number;
    domain_id: number;
    uid: string;
    password_hash: string;
    quota_mb: number;
    enabled: boolean;
    spam_filter: SpamFilter;
    created_at: Date;
    updated_at: Date;
  },
) =>
  db
    .insertInto('domain_users')
    .values(values)
    .returning(['id', 'tenant_id', 'domain_id', 'uid', 'quota_mb', 'enabled', 'spam_filter', 'created_at', 'updated_at'])
    .executeTakeFirstOrThrow();

export const updateDomainUser = (
  db: Db,
  domainId: number,
  id: number,
  values: { quota_mb?: number; enabled?: boolean; spam_filter?: SpamFilter; password_hash?: string; updated_at: Date },
) =>
  db
    .updateTable('domain_users')
    .set(values)
    .where('domain_id', '=', domainId)
    .where('id', '=', id)
    .returning(['id', 'tenant_id', 'domain_id', 'uid', 'quota_mb', 'enabled', 'spam_filter', 'created_at', 'updated_at'])
    .executeTakeFirst();

export const deleteDomainUser = async (db: Db, domainId: number, id: number): Promise<number> => {
  const result = await db.deleteFrom('domain_users').where('domain_id', '=', domainId).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows);
};

/* ---- /host/domain/{id}/users/{userId}/autoreply ---- */

export const findAutoreply = (db: Db, domainUserId: number) =>
  db
    .selectFrom('mail_autoreplies')
    .select([
      'enabled',
      'subject',
      'body',
      'interval_days',
      sql<string | null>`to_char(starts_on, 'YYYY-MM-DD')`.as('starts_on'),
      sql<string | null>`to_char(ends_on, 'YYYY-MM-DD')`.as('ends_on'),
      'updated_at',
    ])
    .where('domain_user_id', '=', domainUserId)
    .executeTakeFirst();

/** Saves the autoresponder; each save moves `revision`, the data id by which Dovecot sees the new script. */
export const saveAutoreply = (
  db: Db,
  values: {
    domain_user_id: number;
    enabled: boolean;
    subject: string;
    body: string;
    interval_days: number;
    starts_on: string | null;
    ends_on: string | null;
    script: string;
    updated_at: Date;
  },
) =>
  db
    .insertInto('mail_autoreplies')
    .values(values)
    .onConflict((oc) =>
      oc.column('domain_user_id').doUpdateSet((eb) => ({
        enabled: eb.ref('excluded.enabled'),
        subject: eb.ref('excluded.subject'),
        body: eb.ref('excluded.body'),
        interval_days: eb.ref('excluded.interval_days'),
        starts_on: eb.ref('excluded.starts_on'),
        ends_on: eb.ref('excluded.ends_on'),
        script: eb.ref('excluded.script'),
        updated_at: eb.ref('excluded.updated_at'),
        revision: sql<number>`mail_autoreplies.revision + 1`,
      })),
    )
    .execute();

/** Which of these accounts have an autoresponder switched on (the list's badge). */
export const enabledAutoreplies = async (db: Db, domainUserIds: number[]): Promise<Set<number>> => {
  if (domainUserIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('mail_autoreplies')
    .select('domain_user_id')
    .where('domain_user_id', 'in', domainUserIds)
    .where('enabled', '=', true)
    .execute();
  return new Set(rows.map((row) => row.domain_user_id));
};

/* ---- /host/domain/{id}/users/{userId}/mail-log ---- */

export const listMailLog = (db: Db, domainUserId: number, since: Date, limit: number) =>
  db
    .selectFrom('mail_log')
    .select(['at', 'direction', 'peer', 'status', 'detail'])
    .where('domain_user_id', '=', domainUserId)
    .where('at', '>=', since)
    .orderBy('at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
