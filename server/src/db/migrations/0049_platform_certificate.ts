import { sql, type Kysely } from 'kysely';

/**
 * The panel's own certificate (modules/certificates/platform.ts): the names of BERTH_PUBLIC_URL's
 * host and webmail's, ordered like a domain's and used by every daemon as its default (a name
 * without a certificate of its own, or a client that names none).
 *
 * - `platform_certificates`: one row (`id` is always 1), the same columns as a domain's certificate.
 * - `acme_platform_challenges`: its HTTP-01 answers (when no zone Berth serves holds its names),
 *   answered by every web server's agent (`web.acme_platform_challenges`); its DNS-01 answers go
 *   into `acme_dns_challenges` of the zone that holds the names.
 * - `web.platform_certificate`, `mail.platform_certificate`: the certificate in use for the web
 *   agents (nginx's and Pure-FTPd's default) and the mail agent (Dovecot's and Postfix's); a new
 *   one is said on `berth_web` (payload `default`) and `berth_mail` (`certificates`).
 */
const statements = [
  `create table public.platform_certificates (
    id integer primary key default 1 check (id = 1),
    names text[] not null default '{}',
    method text check (method in ('dns-01', 'http-01')),
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
    updated_at timestamptz not null
  )`,
  `create table public.acme_platform_challenges (
    id serial primary key,
    name text not null check (name ~ '^[a-z0-9.-]{1,253}$'),
    token text not null check (token ~ '^[A-Za-z0-9_-]{20,100}$'),
    key_authorization text not null check (key_authorization ~ '^[A-Za-z0-9_-]{20,100}[.][A-Za-z0-9_-]{20,100}$'),
    created_at timestamptz not null
  )`,
  `create view web.acme_platform_challenges as
    select name, token, key_authorization from public.acme_platform_challenges`,
  `create view web.platform_certificate as
    select serial, cert_pem, key_sealed from public.platform_certificates
    where state = 'valid' and cert_pem is not null and key_sealed is not null`,
  `create view mail.platform_certificate as
    select serial, cert_pem, key_sealed from public.platform_certificates
    where state = 'valid' and cert_pem is not null and key_sealed is not null`,
  `create function public.platform_certificate_changed() returns trigger language plpgsql as $$
    begin
      perform pg_notify('berth_web', 'default');
      perform pg_notify('berth_mail', 'certificates');
      return null;
    end $$`,
  `create trigger platform_certificate_changed after insert or update of serial, state on public.platform_certificates
    for each row execute function public.platform_certificate_changed()`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('drop trigger platform_certificate_changed on public.platform_certificates').execute(db);
  await sql.raw('drop function public.platform_certificate_changed()').execute(db);
  for (const view of ['mail.platform_certificate', 'web.platform_certificate', 'web.acme_platform_challenges'])
    await sql.raw(`drop view ${view}`).execute(db);
  for (const table of ['acme_platform_challenges', 'platform_certificates']) await sql.raw(`drop table public.${table}`).execute(db);
}
