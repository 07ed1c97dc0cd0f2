import { sql, type Kysely } from 'kysely';
import { ALIASES, MAILBOXES } from './0022_mail_owner_safety.ts';
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
 * - `domains.lapsed_at`: an expired domain not renewed within the grace period stops being served
 *   (DNS through the rows' `served` flag of 0028, mail and web through their views) until renewed.
 */
const PROVEN = 'd.verification_token is null';
const SERVED = 'd.verification_token is null and d.lapsed_at is null';
const served = (view: string, on: boolean) => (on ? view.replaceAll(PROVEN, SERVED) : view);
const SUSPENDED = '(u.locked_at is not null or u.suspended_at is not null)';
const sites = (suspended: string, lapse: boolean) =>
  served(sitesView(true).replace('u.locked_at is not null as suspended', `${suspended} as suspended`), lapse);
const mailDomains = (lapse: boolean) =>
  `create or replace view mail.domains as select d.name::text as domain from public.domains d where ${lapse ? SERVED : PROVEN}`;
const mailboxes = (withSuspended: boolean) =>
  withSuspended
    ? served(MAILBOXES, true)
        .replace(
          'join public.domains d on d.id = u.domain_id',
          'join public.domains d on d.id = u.domain_id join public.users o on o.id = d.owner_id',
        )
        .replace('u.id as home_id', 'u.id as home_id, (o.locked_at is not null or o.suspended_at is not null) as suspended')
    : MAILBOXES;

/** web.sites as of this migration (0035 adds the certificate in use). */
export const SITES_VIEW_0033 = sites(SUSPENDED, true);

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
  'alter table public.domains add column lapsed_at timestamptz',
  SITES_VIEW_0033,
  mailboxes(true),
  mailDomains(true),
  served(ALIASES, true),
  `create or replace function public.dns_row_served() returns trigger language plpgsql as $$
    begin
      new.served := exists (select 1 from public.domains d where d.id = new.domain_id and ${SERVED});
      return new;
    end $$`,
  `create or replace function public.domains_proof_changed() returns trigger language plpgsql as $$
    begin
      update public.dns_zones set served = (new.verification_token is null and new.lapsed_at is null) where domain_id = new.id;
      update public.dns_records set served = (new.verification_token is null and new.lapsed_at is null) where domain_id = new.id;
      update public.dns_empty_nonterminals set served = (new.verification_token is null and new.lapsed_at is null) where domain_id = new.id;
      return null;
    end $$`,
  `create trigger domains_lapse_changed after update of lapsed_at on public.domains
    for each row when ((old.lapsed_at is null) <> (new.lapsed_at is null))
    execute function public.domains_proof_changed()`,
  'drop trigger domains_web_revision on public.domains',
  `create trigger domains_web_revision before update on public.domains
    for each row when ((old.name, old.owner_id, old.settings, old.web_server_id, old.verification_token is null, old.lapsed_at is null)
      is distinct from (new.name, new.owner_id, new.settings, new.web_server_id, new.verification_token is null, new.lapsed_at is null))
    execute function public.domains_web_revision()`,
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
  await sql.raw('drop trigger domains_web_revision on public.domains').execute(db);
  await sql
    .raw(
      `create trigger domains_web_revision before update on public.domains
    for each row when ((old.name, old.owner_id, old.settings, old.web_server_id, old.verification_token is null)
      is distinct from (new.name, new.owner_id, new.settings, new.web_server_id, new.verification_token is null))
    execute function public.domains_web_revision()`,
    )
    .execute(db);
  await sql.raw('drop trigger domains_lapse_changed on public.domains').execute(db);
  await sql
    .raw(
      `create or replace function public.dns_row_served() returns trigger language plpgsql as $$
    begin
      new.served := exists (select 1 from public.domains d where d.id = new.domain_id and ${PROVEN});
      return new;
    end $$`,
    )
    .execute(db);
  await sql
    .raw(
      `create or replace function public.domains_proof_changed() returns trigger language plpgsql as $$
    begin
      update public.dns_zones set served = (new.verification_token is null) where domain_id = new.id;
      update public.dns_records set served = (new.verification_token is null) where domain_id = new.id;
      update public.dns_empty_nonterminals set served = (new.verification_token is null) where domain_id = new.id;
      return null;
    end $$`,
    )
    .execute(db);
  await sql.raw(ALIASES).execute(db);
  await sql.raw(mailDomains(false)).execute(db);
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
  await sql.raw(sites('u.locked_at is not null', false)).execute(db);
  await sql.raw('alter table public.domains drop column lapsed_at').execute(db);
  await sql.raw('drop table public.dunning_notices').execute(db);
  await sql.raw('drop index public.invoices_due').execute(db);
  await sql.raw('alter table public.invoices drop column due_at').execute(db);
  await sql.raw('alter table public.shop_settings drop column renew_days_before, drop column grace_days').execute(db);
  await sql.raw('alter table public.users drop column suspended_at').execute(db);
  await sql.raw('alter table public.hosting_subscriptions drop column auto_renew').execute(db);
  await sql.raw('alter table public.domains drop column auto_renew').execute(db);
}
