import { sql, type Kysely } from 'kysely';
import { MAILBOXES } from './0022_mail_owner_safety.ts';
import { sitesView } from './0031_web_plans.ts';

/**
 * The business that runs itself (modules/billing/): auto-renewal, dunning and suspension.
 *
 * - Each domain and hosting plan renews on its own unless its owner switched it off; the tenant
 *   says how many days before the end (`renew_days_before`) and how long an unpaid renewal is
 *   tolerated past its due date before the owner's services stop (`grace_days`).
 * - An invoice with a `due_at` is dunned (a renewal's); `dunning_notices` claims each step once.
 * - `users.suspended_at`: a customer suspended for not paying. The panel still lets them in (they
 *   must be able to pay); their sites answer 503 like a locked owner's, FTP logins are refused by
 *   ftp.users (built on web.sites), and Dovecot refuses IMAP, POP3 and SMTP AUTH for their mailboxes
 *   (`mail.mailboxes.suspended`, daemons/mail.ts) while delivery into them goes on.
 */
const SUSPENDED = '(u.locked_at is not null or u.suspended_at is not null)';
const sites = (suspended: string) => sitesView(true).replace('u.locked_at is not null as suspended', `${suspended} as suspended`);
const mailboxes = (withSuspended: boolean) =>
  withSuspended
    ? MAILBOXES.replace(
        'join public.domains d on d.id = u.domain_id',
        'join public.domains d on d.id = u.domain_id join public.users o on o.id = d.owner_id',
      ).replace('u.id as home_id', 'u.id as home_id, (o.locked_at is not null or o.suspended_at is not null) as suspended')
    : MAILBOXES;

const statements = [
  'alter table public.domains add column auto_renew boolean not null default true',
  'alter table public.hosting_subscriptions add column auto_renew boolean not null default true',
  'alter table public.users add column suspended_at timestamptz',
  `alter table public.shop_settings
    add column renew_days_before integer not null default 14 check (renew_days_before between 1 and 60),
    add column grace_days integer not null default 14 check (grace_days between 0 and 90)`,
  'alter table public.invoices add column due_at timestamptz',
  `create index invoices_due on public.invoices (due_at) where status = 'unpaid' and due_at is not null`,
  `create table public.dunning_notices (
    invoice_id integer not null references public.invoices(id) on delete cascade,
    step smallint not null check (step between 1 and 10),
    sent_at timestamptz not null,
    primary key (invoice_id, step)
  )`,
  sites(SUSPENDED),
  mailboxes(true),
  'drop trigger users_web_revision on public.users',
  `create trigger users_web_revision after update on public.users
    for each row when ((old.locked_at is null) is distinct from (new.locked_at is null)
      or (old.suspended_at is null) is distinct from (new.suspended_at is null)
      or old.language is distinct from new.language)
    execute function public.users_web_revision()`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('drop trigger users_web_revision on public.users').execute(db);
  await sql
    .raw(
      `create trigger users_web_revision after update on public.users
    for each row when ((old.locked_at is null) is distinct from (new.locked_at is null) or old.language is distinct from new.language)
    execute function public.users_web_revision()`,
    )
    .execute(db);
  // A view cannot lose a column in place.
  await sql.raw('drop view mail.mailboxes cascade').execute(db);
  await sql.raw(mailboxes(false).replace('create or replace view', 'create view')).execute(db);
  await sql.raw(sites('u.locked_at is not null')).execute(db);
  await sql.raw('drop table public.dunning_notices').execute(db);
  await sql.raw('drop index public.invoices_due').execute(db);
  await sql.raw('alter table public.invoices drop column due_at').execute(db);
  await sql.raw('alter table public.shop_settings drop column renew_days_before, drop column grace_days').execute(db);
  await sql.raw('alter table public.users drop column suspended_at').execute(db);
  await sql.raw('alter table public.hosting_subscriptions drop column auto_renew').execute(db);
  await sql.raw('alter table public.domains drop column auto_renew').execute(db);
}
