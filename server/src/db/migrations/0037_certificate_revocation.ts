import { sql, type Kysely } from 'kysely';

/**
 * A certificate Berth ordered is revoked when its domain is deleted (modules/certificates): the
 * row's deletion (cascading from the domain's) leaves its chain here, in the same transaction, and
 * the certificate pass asks the CA to revoke it, retried until the CA has answered.
 */
const statements = [
  `create table public.certificate_revocations (
    id serial primary key,
    serial text not null,
    names text[] not null,
    cert_pem text not null,
    created_at timestamptz not null default now(),
    next_try_at timestamptz not null default now(),
    attempts integer not null default 0,
    problem text,
    revoked_at timestamptz
  )`,
  'create index certificate_revocations_due on public.certificate_revocations (next_try_at) where revoked_at is null',
  `create function public.certificates_revoke() returns trigger language plpgsql as $$
    begin
      insert into public.certificate_revocations (serial, names, cert_pem) values (old.serial, old.names, old.cert_pem);
      return old;
    end $$`,
  // Only what a CA issued to Berth (an uploaded certificate is its owner's to revoke) and still ran.
  `create trigger certificates_revoke before delete on public.certificates
    for each row when (old.method in ('dns-01', 'http-01') and old.cert_pem is not null and old.serial is not null)
    execute function public.certificates_revoke()`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('drop trigger certificates_revoke on public.certificates').execute(db);
  await sql.raw('drop function public.certificates_revoke()').execute(db);
  await sql.raw('drop table public.certificate_revocations').execute(db);
}
