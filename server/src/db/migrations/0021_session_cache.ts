import { sql, type Kysely } from 'kysely';

/**
 * Every instance on PostgreSQL keeps the sessions it resolved in memory (modules/sessions/cache.ts),
 * so an authenticated request needs no query. A change to anything such an entry holds (the session,
 * its user, the admin logged in as that user, the user's credit and picture) is announced by the
 * database itself on the channel `berth_session_cache`, whoever makes it: every write path of every
 * instance, the sweeper, an operator's SQL. Payloads: `s:<session id hash>`, `u:<user id>`, `*` (a
 * table was truncated). A session's last-seen time alone is not announced: it changes once a minute
 * per active session, and the cache re-reads a session before it would call it idle.
 */
const CHANNEL = 'berth_session_cache';

/** Which key a change announces, per table; `when` narrows an update trigger to the columns cached. */
const watched: { name: string; table: string; prefix: 's:' | 'u:'; column: string; events: string; when?: string }[] = [
  { name: 'session_cache_ended', table: 'sessions', prefix: 's:', column: 'id_hash', events: 'delete' },
  {
    // WHEN may not name OLD and NEW on a trigger that also fires on delete: hence two for sessions.
    name: 'session_cache_changed',
    table: 'sessions',
    prefix: 's:',
    column: 'id_hash',
    events: 'update',
    when: `(old.id_hash, old.user_id, old.tenant_id, old.remember, old.two_factor_pending, old.two_factor_started_at,
        old.created_at, old.expires_at, old.public_id)
      is distinct from (new.id_hash, new.user_id, new.tenant_id, new.remember, new.two_factor_pending,
        new.two_factor_started_at, new.created_at, new.expires_at, new.public_id)`,
  },
  { name: 'session_cache_changed', table: 'users', prefix: 'u:', column: 'id', events: 'update or delete' },
  {
    name: 'session_cache_changed',
    table: 'session_impersonations',
    prefix: 's:',
    column: 'session_id_hash',
    events: 'insert or update or delete',
  },
  { name: 'session_cache_changed', table: 'credit_accounts', prefix: 'u:', column: 'user_id', events: 'insert or update or delete' },
  { name: 'session_cache_changed', table: 'user_avatars', prefix: 'u:', column: 'user_id', events: 'insert or update or delete' },
];
const tables = [...new Set(watched.map((w) => w.table))];

export async function up(db: Kysely<unknown>): Promise<void> {
  // One function for every table: the trigger's arguments say which key to announce. pg_notify
  // sends each distinct payload once per transaction, at commit (nothing for a rolled-back one).
  await sql
    .raw(
      `create function public.session_cache_changed() returns trigger language plpgsql as $$
        begin
          if tg_op = 'TRUNCATE' then
            perform pg_notify('${CHANNEL}', '*');
            return null;
          end if;
          if tg_op <> 'INSERT' then perform pg_notify('${CHANNEL}', tg_argv[0] || (to_jsonb(old) ->> tg_argv[1])); end if;
          if tg_op <> 'DELETE' then perform pg_notify('${CHANNEL}', tg_argv[0] || (to_jsonb(new) ->> tg_argv[1])); end if;
          return null;
        end $$`,
    )
    .execute(db);
  for (const { name, table, prefix, column, events, when } of watched) {
    await sql
      .raw(
        `create trigger ${name} after ${events} on public.${table}
          for each row ${when ? `when (${when})` : ''} execute function public.session_cache_changed('${prefix}', '${column}')`,
      )
      .execute(db);
  }
  for (const table of tables) {
    await sql
      .raw(
        `create trigger session_cache_truncated after truncate on public.${table} for each statement execute function public.session_cache_changed()`,
      )
      .execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const { name, table } of watched) await sql.raw(`drop trigger ${name} on public.${table}`).execute(db);
  for (const table of tables) await sql.raw(`drop trigger session_cache_truncated on public.${table}`).execute(db);
  await sql.raw('drop function public.session_cache_changed()').execute(db);
}
