import { sql, type Kysely } from 'kysely';
import { MAIL_SEND_PER_HOUR_DEFAULT } from '@berth/contracts';

/**
 * Outbound limits (daemons/mail-agent.ts): each message a mailbox sends through submission is
 * counted at the end of its DATA by `mail.count_send`, in a window of an hour that starts with the
 * first message; past the limit of its owner's plan (hosting_plans.mail_per_hour, else
 * MAIL_SEND_PER_HOUR_DEFAULT) it is deferred, not taken. The count is one row per mailbox, updated
 * under its row lock: messages sent at the same instant are counted one after another, so exactly
 * the limit leave. The mail role reads the schema `mail` only; the function (security definer) is
 * the one thing it may change. The server tells the owner and the tenant's admins once per window
 * (modules/mail-limits).
 */
/** `mail.count_send` as this migration made it (0044_mail_domain_limits's down puts it back). */
export const COUNT_SEND = `create function mail.count_send(login text) returns integer
    language plpgsql security definer set search_path = pg_catalog, pg_temp as $$
    declare
      box record;
      per_hour integer;
      counted integer;
    begin
      select u.id, d.owner_id into box
        from public.domain_users u join public.domains d on d.id = u.domain_id
        where lower(u.uid) = lower(login) and u.enabled;
      if not found then return null; end if;
      select max(hp.mail_per_hour) into per_hour
        from public.hosting_subscriptions s join public.hosting_plans hp on hp.id = s.plan_id
        where s.user_id = box.owner_id and s.starts_at <= now() and s.expires_at > now();
      per_hour := coalesce(per_hour, ${MAIL_SEND_PER_HOUR_DEFAULT});
      insert into public.mail_send_windows as w (domain_user_id, window_start, sent) values (box.id, now(), 1)
        on conflict (domain_user_id) do update set
          window_start = case when w.window_start <= now() - interval '1 hour' then now() else w.window_start end,
          sent = case when w.window_start <= now() - interval '1 hour' then 1 else w.sent + 1 end,
          over_at = case when w.window_start <= now() - interval '1 hour' then null else w.over_at end
        returning w.sent into counted;
      if counted <= per_hour then return 0; end if;
      update public.mail_send_windows set over_at = coalesce(over_at, now()), over_limit = per_hour
        where domain_user_id = box.id;
      return per_hour;
    end $$`;

const statements = [
  `alter table public.hosting_plans
    add column mail_per_hour integer check (mail_per_hour is null or mail_per_hour between 1 and 100000)`,
  `create table public.mail_send_windows (
    domain_user_id integer primary key references public.domain_users(id) on delete cascade,
    window_start timestamptz not null,
    sent integer not null,
    over_at timestamptz,
    over_limit integer,
    told_at timestamptz
  )`,
  'create index mail_send_windows_untold on public.mail_send_windows (over_at) where over_at is not null',
  COUNT_SEND,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('drop function mail.count_send(text)').execute(db);
  await sql.raw('drop table public.mail_send_windows').execute(db);
  await sql.raw('alter table public.hosting_plans drop column mail_per_hour').execute(db);
}
