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

/**
 * The link with `path` in the newest mail to `to` that holds one. A step often queues two mails to
 * one address (the link, and a notice of what just changed); each is a job of its own and either may
 * be written last, so the newest mail alone need not be the one with the link.
 */
export async function newestLinkTo(db: Db, to: string, path: string): Promise<string> {
  const mail = (await mailsTo(db, to)).findLast((m) => m.text_body.includes(path));
  return linkIn(mail?.text_body ?? '', path);
}
