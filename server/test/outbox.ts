import type { Db } from '../src/db/connection.ts';
import { JobQueue } from '../src/modules/jobs/queue.ts';

/** The newest mail the outbox holds for a recipient (the embedded mode's delivery). */
export async function lastMailTo(db: Db, to: string) {
  // Mails are jobs, sent after the answer.
  await JobQueue.idleAll();
  return db.selectFrom('outbox').selectAll().where('recipient', '=', to).orderBy('id', 'desc').limit(1).executeTakeFirst();
}

export async function mailsTo(db: Db, to: string) {
  await JobQueue.idleAll();
  return db.selectFrom('outbox').selectAll().where('recipient', '=', to).orderBy('id').execute();
}

/** The first link in a mail's text that contains `path`. */
export function linkIn(text: string, path: string): string {
  const link = text.match(/https?:\/\/[^\s<>"')]+/g)?.find((l) => l.includes(path));
  if (!link) throw new Error(`no link with ${path} in:\n${text}`);
  return link;
}
