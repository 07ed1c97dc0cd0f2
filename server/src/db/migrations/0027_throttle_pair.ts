import { sql, type Kysely } from 'kysely';

/**
 * The login path's two tries (the account's and the address's) counted in one call, one round trip
 * and one commit instead of two (modules/auth/throttle.ts attemptPair). The first key's lock is
 * always taken first; callers pass an account before an address, and the two kinds of key never
 * coincide (their throttles' names prefix them), so two calls cannot wait on each other.
 *
 * The counts are short-lived counters, like a rate limiter's in a cache: `throttle_hits` is
 * unlogged, so a hit writes no WAL and its commit waits for no disk flush. A crash of the database
 * empties it, which forgives at most one window (15 minutes) of failed tries.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw('alter table public.throttle_hits set unlogged').execute(db);
  await sql
    .raw(
      `create function public.take_throttle_hit_pair(hit_now timestamptz,
         first_key text, first_since timestamptz, first_limit integer,
         second_key text, second_since timestamptz, second_limit integer,
         out first_id integer, out first_oldest timestamptz, out second_id integer, out second_oldest timestamptz)
       language plpgsql volatile as $$
       begin
         select t.hit_id, t.oldest into first_id, first_oldest
           from public.take_throttle_hit(first_key, hit_now, first_since, first_limit) t;
         select t.hit_id, t.oldest into second_id, second_oldest
           from public.take_throttle_hit(second_key, hit_now, second_since, second_limit) t;
       end $$`,
    )
    .execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw('drop function public.take_throttle_hit_pair(timestamptz, text, timestamptz, integer, text, timestamptz, integer)')
    .execute(db);
  await sql.raw('alter table public.throttle_hits set logged').execute(db);
}
