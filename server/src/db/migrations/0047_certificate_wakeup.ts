import { sql, type Kysely } from 'kysely';

/**
 * A new certificate is ordered within seconds, not at the next pass: a zone that starts being
 * served (a domain created or proven) and a site's changed names (aliases, in its settings) say
 * so on the channel `berth_certificates`, which wakes the certificate pass of every panel instance
 * (server/src/main.ts); the pass still runs every CERTIFICATES_EVERY_SECONDS for renewals and
 * retries, and after a lost connection.
 */
const statements = [
  `create function public.certificates_wake() returns trigger language plpgsql as $$
    begin
      perform pg_notify('berth_certificates', '');
      return null;
    end $$`,
  `create trigger dns_zones_certificates_wake after insert or update of served on public.dns_zones
    for each row when (new.served) execute function public.certificates_wake()`,
  `create trigger domains_certificates_wake after update of verification_token, settings on public.domains
    for each row when (old.verification_token is distinct from new.verification_token or old.settings is distinct from new.settings)
    execute function public.certificates_wake()`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('drop trigger domains_certificates_wake on public.domains').execute(db);
  await sql.raw('drop trigger dns_zones_certificates_wake on public.dns_zones').execute(db);
  await sql.raw('drop function public.certificates_wake()').execute(db);
}
