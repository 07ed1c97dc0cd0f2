import type { Insertable } from 'kysely';
import type { Db } from '../../db/connection.ts';
import type { OutboxTable } from '../../db/schema.ts';

export const insertOutboxMail = (db: Db, values: Insertable<OutboxTable>) =>
  db.insertInto('outbox').values(values).returning('id').executeTakeFirstOrThrow();

/** The newest mails first; all tenants unless one is given. */
export const listOutboxMails = (db: Db, options: { limit: number; tenantId?: number | undefined }) => {
  let query = db
    .selectFrom('outbox')
    .select(['id', 'tenant_id', 'recipient', 'subject', 'text_body', 'html_body', 'created_at'])
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(options.limit);
  if (options.tenantId !== undefined) query = query.where('tenant_id', '=', options.tenantId);
  return query.execute();
};

export const deleteOutboxBefore = (db: Db, before: Date) => db.deleteFrom('outbox').where('created_at', '<', before).execute();
