import { sql, type Kysely } from 'kysely';

/**
 * Each mail domain's DKIM key pair (2048-bit RSA). The public half is published in the zone as a
 * TXT record at `<selector>._domainkey`; the private half is sealed like TOTP seeds
 * (server/src/lib/secret-box.ts) and kept for a signer (docs/deploy.md). A selector of its own per
 * domain lets a key be replaced later without a gap: the new one is published beside the old.
 */
const statements = [
  `create table public.dkim_keys (
    domain_id integer primary key references public.domains(id) on delete cascade,
    selector text not null,
    public_key text not null,
    private_key text not null,
    created_at timestamptz not null
  )`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('drop table public.dkim_keys').execute(db);
}
