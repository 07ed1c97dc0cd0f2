import { sql, type Kysely } from 'kysely';

/**
 * A throttle's hit taken in one call instead of a transaction of five round trips (modules/auth/
 * queries.ts takeThrottleHit): the login path asks it twice, and every round trip wakes a backend
 * that competes with argon2 for the CPU. The advisory lock comes first and the count after it, in
 * statements of their own, so the count sees every hit committed by the callers queued before.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(
      `create function public.take_throttle_hit(hit_key text, hit_now timestamptz, hit_since timestamptz, hit_limit integer,
         out hit_id integer, out oldest timestamptz)
       language plpgsql volatile as $$
       declare
         counted integer;
       begin
         perform pg_advisory_xact_lock(hashtextextended(hit_key, 0));
         select count(*), min(h.hit_at) into counted, oldest
           from (select t.hit_at from public.throttle_hits t
                 where t.key = hit_key and t.hit_at > hit_since order by t.hit_at desc limit hit_limit) h;
         if counted >= hit_limit then
           hit_id := null;
           return;
         end if;
         oldest := null;
         insert into public.throttle_hits (key, hit_at) values (hit_key, hit_now) returning id into hit_id;
       end $$`,
    )
    .execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('drop function public.take_throttle_hit(text, timestamptz, timestamptz, integer)').execute(db);
}
