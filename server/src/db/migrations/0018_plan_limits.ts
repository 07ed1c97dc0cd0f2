import { sql, type Kysely } from 'kysely';

/**
 * What a hosting plan includes: domains, mailboxes and disk (the mailbox quotas together). Null is
 * unlimited. A customer who holds active plans creates no more than they include together
 * (modules/shop/plan-limits.ts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(
      `alter table public.hosting_plans
        add column max_domains integer check (max_domains is null or max_domains > 0),
        add column max_mailboxes integer check (max_mailboxes is null or max_mailboxes > 0),
        add column disk_gb integer check (disk_gb is null or disk_gb > 0)`,
    )
    .execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('alter table public.hosting_plans drop column max_domains, drop column max_mailboxes, drop column disk_gb').execute(db);
}
