import { sql, type Kysely } from 'kysely';

/**
 * A site's aliases on a certificate by HTTP-01 (a domain whose DNS is elsewhere: no wildcard):
 * each order names the aliases that point where the site's name does, and keeps the aliases it
 * considered (sorted), so a changed list makes the certificate due again — once, not at every pass
 * for an alias that does not point here. The wake-up of migration 0047 now fires for a change of
 * the aliases only, not for every other setting of the site. The web server's agent answers the
 * CA's questions for the aliases too (`web.acme_challenges.aliases`). The web agent learns how each
 * certificate came (`web.certificates.method`): it staples OCSP answers only for those Berth
 * ordered from its CA, never fetching from an address a customer's uploaded certificate names.
 * `renewal_info_at`: when the CA's renewal information (RFC 9773) is asked next for a certificate
 * it issued; null: at the next pass.
 */
const statements = [
  `alter table public.certificates add column aliases text[] not null default '{}'`,
  'alter table public.certificates add column renewal_info_at timestamptz',
  'drop trigger domains_certificates_wake on public.domains',
  `create trigger domains_certificates_wake after update of verification_token, settings on public.domains
    for each row when (old.verification_token is distinct from new.verification_token
      or old.settings->'aliases' is distinct from new.settings->'aliases')
    execute function public.certificates_wake()`,
  `create or replace view web.acme_challenges as
    select d.web_server_id as server_id, d.name::text as name, c.token, c.key_authorization,
      coalesce(array(select jsonb_array_elements_text(coalesce(d.settings->'aliases', '[]'::jsonb))), '{}') as aliases
    from public.acme_http_challenges c join public.domains d on d.id = c.domain_id
    where d.web_server_id is not null`,
  `create or replace view web.certificates as
    select d.id as site_id, d.web_server_id as server_id, c.serial, c.cert_pem, c.key_sealed, c.method::text as method
    from public.certificates c join public.domains d on d.id = c.domain_id
    where c.state = 'valid' and c.cert_pem is not null and c.key_sealed is not null and d.web_server_id is not null`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('drop view web.certificates').execute(db);
  await sql
    .raw(
      `create view web.certificates as
        select d.id as site_id, d.web_server_id as server_id, c.serial, c.cert_pem, c.key_sealed
        from public.certificates c join public.domains d on d.id = c.domain_id
        where c.state = 'valid' and c.cert_pem is not null and c.key_sealed is not null and d.web_server_id is not null`,
    )
    .execute(db);
  await sql.raw('drop view web.acme_challenges').execute(db);
  await sql
    .raw(
      `create view web.acme_challenges as
        select d.web_server_id as server_id, d.name::text as name, c.token, c.key_authorization
        from public.acme_http_challenges c join public.domains d on d.id = c.domain_id
        where d.web_server_id is not null`,
    )
    .execute(db);
  await sql.raw('drop trigger domains_certificates_wake on public.domains').execute(db);
  await sql
    .raw(
      `create trigger domains_certificates_wake after update of verification_token, settings on public.domains
        for each row when (old.verification_token is distinct from new.verification_token or old.settings is distinct from new.settings)
        execute function public.certificates_wake()`,
    )
    .execute(db);
  await sql.raw('alter table public.certificates drop column aliases').execute(db);
  await sql.raw('alter table public.certificates drop column renewal_info_at').execute(db);
}
