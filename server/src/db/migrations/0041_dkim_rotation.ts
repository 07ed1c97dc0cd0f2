import { sql, type Kysely } from 'kysely';

/**
 * "Rotate DKIM key" (modules/dns): a new key is published beside the signing one; once receivers can
 * find it (the record's TTL after it was published) the pass makes it the signing key, and the old
 * record stays published for a week more (mail signed just before still verifies) before it goes.
 * `mail.dkim_keys` (migration 0039) keeps reading the signing key only; the switch is an update of
 * the row, which tells the mail agent.
 */
const statements = [
  `alter table public.dkim_keys
    add column next_selector text,
    add column next_public_key text,
    add column next_private_key text,
    add column next_signs_at timestamptz,
    add column old_selector text,
    add column old_removed_at timestamptz,
    add constraint dkim_keys_next_whole check (
      (next_selector is null) = (next_public_key is null) and (next_selector is null) = (next_private_key is null)
      and (next_selector is null) = (next_signs_at is null)),
    add constraint dkim_keys_old_whole check ((old_selector is null) = (old_removed_at is null))`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(
      `alter table public.dkim_keys drop column next_selector, drop column next_public_key, drop column next_private_key,
        drop column next_signs_at, drop column old_selector, drop column old_removed_at`,
    )
    .execute(db);
}
