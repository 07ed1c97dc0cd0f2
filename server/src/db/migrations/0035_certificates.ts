import { sql, type Kysely } from 'kysely';
import { RECORDS_VIEW_0029 } from './0029_dns_auth_flag.ts';
import { ftpView } from './0031_web_plans.ts';
import { SITES_VIEW_0033 } from './0033_billing.ts';

/**
 * Certificates by ACME (modules/certificates, docs/decisions/0017-certificates.md):
 *
 * - `acme_accounts`: the platform's one account per CA directory; its key sealed like TOTP seeds.
 * - `certificates`: one per domain, covering the domain and its wildcard. The key is sealed; the
 *   state, the CA's last problem, when to try next and when to renew are what the certificate pass
 *   (and the domain page) reads.
 * - `acme_orders`: every order started, to keep under the CA's rate limits (certificates/limits.ts).
 * - `acme_dns_challenges`: DNS-01 answers, served by PowerDNS through pdns.records for as long as
 *   the CA needs them, never shown on the DNS page. Tokens are base64url (checked before they are written).
 * - Web servers: `web.sites.certificate` names the serial in use (a new one moves the site's
 *   revision, so its agent applies it), and `web.certificates` hands the agent the chain and the
 *   key, sealed under the key derived for certificate keys (agent/src/certificates.ts); the mail
 *   host's agent reads `mail.certificates`, told of a change on `berth_mail` (daemons/mail-agent.ts).
 */
export const ORDERNAME = (name: string) =>
  `(select string_agg(label, ' ' order by n desc) from unnest(string_to_array(${name}, '.')) with ordinality as l(label, n))`;
/** A challenge `c` is the zone's own answer unless a delegation (NS below the apex) covers its name. */
export const CHALLENGE_AUTH = `not exists (select 1 from public.dns_records n
        where n.domain_id = c.domain_id and n.type = 'NS' and n.name <> '@' and not n.disabled
          and (c.name = n.name or right(c.name, length(n.name) + 1) = '.' || n.name))`;
export const RECORDS_VIEW_0035 = `${RECORDS_VIEW_0029}
    union all
    select -(20000000000 + c.id), c.domain_id, c.name || '.' || z.name, 'TXT'::text, '"' || c.token || '"', 60, 0, false,
      ${ORDERNAME('c.name')},
      ${CHALLENGE_AUTH}
    from public.acme_dns_challenges c join public.dns_zones z on z.domain_id = c.domain_id
    where z.served`;

const SITES_VIEW_0035 = SITES_VIEW_0033.replace(
  '\n    from public.domains d\n',
  `,
      (select c.serial from public.certificates c where c.domain_id = d.id and c.state = 'valid' and c.cert_pem is not null) as certificate
    from public.domains d
`,
);

const statements = [
  `create table public.acme_accounts (
    directory_url text primary key,
    key_sealed text not null,
    account_url text not null,
    created_at timestamptz not null
  )`,
  `create table public.certificates (
    domain_id integer primary key references public.domains(id) on delete cascade,
    tenant_id integer not null references public.tenants(id) on delete cascade,
    names text[] not null default '{}',
    method text check (method in ('dns-01', 'http-01', 'custom')),
    state text not null default 'pending' check (state in ('pending', 'valid', 'failed')),
    issuer text,
    serial text,
    not_before timestamptz,
    not_after timestamptz,
    cert_pem text,
    key_sealed text,
    problem text,
    attempts integer not null default 0,
    next_try_at timestamptz,
    renew_at timestamptz,
    warned_for timestamptz,
    updated_at timestamptz not null
  )`,
  'create index certificates_next_try on public.certificates (next_try_at)',
  'create index certificates_renew on public.certificates (renew_at)',
  `create table public.acme_orders (
    id serial primary key,
    domain_id integer references public.domains(id) on delete set null,
    names text[] not null,
    started_at timestamptz not null,
    outcome text check (outcome in ('valid', 'failed'))
  )`,
  'create index acme_orders_started on public.acme_orders (started_at)',
  `create table public.acme_dns_challenges (
    id serial primary key,
    domain_id integer not null references public.domains(id) on delete cascade,
    name text not null check (name ~ '^_acme-challenge(\\.[a-z0-9*_-]+)*$'),
    token text not null check (token ~ '^[A-Za-z0-9_-]{20,100}$'),
    created_at timestamptz not null
  )`,
  'create index acme_dns_challenges_domain on public.acme_dns_challenges (domain_id)',
  RECORDS_VIEW_0035,
  SITES_VIEW_0035,
  `create view web.certificates as
    select d.id as site_id, d.web_server_id as server_id, c.serial, c.cert_pem, c.key_sealed
    from public.certificates c join public.domains d on d.id = c.domain_id
    where c.state = 'valid' and c.cert_pem is not null and c.key_sealed is not null and d.web_server_id is not null`,
  // The mail host's names: its agent writes them for Dovecot's local_name and Postfix's SNI map.
  `create view mail.certificates as
    select d.name::text as domain, c.serial, c.cert_pem, c.key_sealed
    from public.certificates c join public.domains d on d.id = c.domain_id
    where c.state = 'valid' and c.cert_pem is not null and c.key_sealed is not null
      and d.verification_token is null and d.lapsed_at is null`,
  `create function public.certificates_web_revision() returns trigger language plpgsql as $$
    begin
      update public.domains set web_revision = nextval('public.web_revision') where id = new.domain_id;
      perform pg_notify('berth_mail', 'certificates');
      return null;
    end $$`,
  // Only a new certificate in use (or one no longer in use) concerns the web server, not a claim or a backoff.
  `create trigger certificates_web_revision after update of serial, state on public.certificates
    for each row when ((old.serial, old.state) is distinct from (new.serial, new.state))
    execute function public.certificates_web_revision()`,
  // One's own certificate on a domain that had none arrives as a new row.
  `create trigger certificates_web_revision_new after insert on public.certificates
    for each row when (new.state = 'valid') execute function public.certificates_web_revision()`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('drop trigger certificates_web_revision_new on public.certificates').execute(db);
  await sql.raw('drop trigger certificates_web_revision on public.certificates').execute(db);
  await sql.raw('drop function public.certificates_web_revision()').execute(db);
  await sql.raw('drop view web.certificates').execute(db);
  await sql.raw('drop view mail.certificates').execute(db);
  // ftp.users is built on web.sites: both again as they were.
  await sql.raw('drop view web.sites cascade').execute(db);
  await sql.raw(SITES_VIEW_0033).execute(db);
  await sql.raw(ftpView(true)).execute(db);
  await sql.raw(RECORDS_VIEW_0029).execute(db);
  for (const table of ['acme_dns_challenges', 'acme_orders', 'certificates', 'acme_accounts'])
    await sql.raw(`drop table public.${table}`).execute(db);
}
