import { sql, type Kysely } from 'kysely';

/**
 * DKIM signing of mail that leaves (daemons/mail-dkim.ts): the mail agent writes each served
 * domain's signing key for rspamd from `mail.dkim_keys`, told by `dkim` on the mail channel when one
 * is made, replaced or removed. The keys are sealed under a key derived for this purpose only
 * (modules/dns/dkim.ts), so the agent opens them and nothing else of the server's secrets.
 */
const statements = [
  `create view mail.dkim_keys as
    select d.name::text as domain, k.selector, k.private_key
    from public.dkim_keys k join public.domains d on d.id = k.domain_id
    where d.verification_token is null and d.lapsed_at is null`,
  `create function public.dkim_keys_changed() returns trigger language plpgsql as $$
    begin
      perform pg_notify('berth_mail', 'dkim');
      return null;
    end $$`,
  `create trigger dkim_keys_changed after insert or update or delete on public.dkim_keys
    for each statement execute function public.dkim_keys_changed()`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('drop trigger dkim_keys_changed on public.dkim_keys').execute(db);
  await sql.raw('drop function public.dkim_keys_changed()').execute(db);
  await sql.raw('drop view mail.dkim_keys').execute(db);
}
