import { sql, type Kysely } from 'kysely';
import { MAIL_SEND_DOMAIN_FACTOR, MAIL_SEND_PER_HOUR_DEFAULT } from '@berth/contracts';
import { COUNT_SEND } from './0040_mail_send_limits.ts';

/**
 * Outbound limits per domain (migration 0040_mail_send_limits did them per mailbox): what all the
 * mailboxes of a domain send, and what its forwarders pass on to addresses outside Berth, counts
 * against MAIL_SEND_DOMAIN_FACTOR times the plan's per-mailbox figure an hour, in a window per
 * domain like a mailbox's. `mail.count_send` (submission, at the end of DATA) counts the domain
 * once the mailbox is within its own limit; `mail.count_forward` (port 25, at the end of DATA)
 * counts each recipient that is a forwarder leading outside. Past it the message is deferred
 * (the sender tries again later); the server tells the owner and the admins once per window
 * (modules/mail-limits).
 */
const planLimit = (owner: string) => `(select max(hp.mail_per_hour)
  from public.hosting_subscriptions s join public.hosting_plans hp on hp.id = s.plan_id
  where s.user_id = ${owner} and s.starts_at <= now() and s.expires_at > now())`;

const statements = [
  `create table public.mail_domain_send_windows (
    domain_id integer primary key references public.domains(id) on delete cascade,
    window_start timestamptz not null,
    sent integer not null,
    over_at timestamptz,
    over_limit integer,
    told_at timestamptz
  )`,
  'create index mail_domain_send_windows_untold on public.mail_domain_send_windows (over_at) where over_at is not null',
  // One more message of the domain in its window (under the window's row lock): 0 within the
  // limit, else the limit it went over.
  `create function mail.count_domain_send(dom integer, owner integer) returns integer
    language plpgsql security definer set search_path = pg_catalog, pg_temp as $$
    declare
      per_hour integer;
      counted integer;
    begin
      per_hour := coalesce(${planLimit('owner')}, ${MAIL_SEND_PER_HOUR_DEFAULT}) * ${MAIL_SEND_DOMAIN_FACTOR};
      insert into public.mail_domain_send_windows as w (domain_id, window_start, sent) values (dom, now(), 1)
        on conflict (domain_id) do update set
          window_start = case when w.window_start <= now() - interval '1 hour' then now() else w.window_start end,
          sent = case when w.window_start <= now() - interval '1 hour' then 1 else w.sent + 1 end,
          over_at = case when w.window_start <= now() - interval '1 hour' then null else w.over_at end
        returning w.sent into counted;
      if counted <= per_hour then return 0; end if;
      update public.mail_domain_send_windows set over_at = coalesce(over_at, now()), over_limit = per_hour
        where domain_id = dom;
      return per_hour;
    end $$`,
  `revoke all on function mail.count_domain_send(integer, integer) from public`,
  `create or replace function mail.count_send(login text) returns integer
    language plpgsql security definer set search_path = pg_catalog, pg_temp as $$
    declare
      box record;
      per_hour integer;
      counted integer;
    begin
      select u.id, u.domain_id, d.owner_id into box
        from public.domain_users u join public.domains d on d.id = u.domain_id
        where lower(u.uid) = lower(login) and u.enabled;
      if not found then return null; end if;
      per_hour := coalesce(${planLimit('box.owner_id')}, ${MAIL_SEND_PER_HOUR_DEFAULT});
      insert into public.mail_send_windows as w (domain_user_id, window_start, sent) values (box.id, now(), 1)
        on conflict (domain_user_id) do update set
          window_start = case when w.window_start <= now() - interval '1 hour' then now() else w.window_start end,
          sent = case when w.window_start <= now() - interval '1 hour' then 1 else w.sent + 1 end,
          over_at = case when w.window_start <= now() - interval '1 hour' then null else w.over_at end
        returning w.sent into counted;
      if counted <= per_hour then return mail.count_domain_send(box.domain_id, box.owner_id); end if;
      update public.mail_send_windows set over_at = coalesce(over_at, now()), over_limit = per_hour
        where domain_user_id = box.id;
      return per_hour;
    end $$`,
  // Each recipient that is a forwarder of a served domain with a destination outside Berth counts
  // once against that domain; the first domain over its limit is the answer (0: none).
  `create function mail.count_forward(addresses text[]) returns integer
    language plpgsql security definer set search_path = pg_catalog, pg_temp as $$
    declare
      hop record;
      over integer;
    begin
      for hop in
        select d.id, d.owner_id
        from unnest(addresses) as r(address)
          join public.domains d on d.name = split_part(lower(r.address), '@', 2) and d.verification_token is null
        where exists (
          select 1 from public.mail_aliases a
          where a.domain_id = d.id and lower(a.local_part) = split_part(lower(r.address), '@', 1)
            and not exists (select 1 from public.domains t where t.name = split_part(lower(a.destination), '@', 2))
        )
        order by d.id
      loop
        over := mail.count_domain_send(hop.id, hop.owner_id);
        if over > 0 then return over; end if;
      end loop;
      return 0;
    end $$`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('drop function mail.count_forward(text[])').execute(db);
  await sql.raw(COUNT_SEND.replace('create function', 'create or replace function')).execute(db);
  await sql.raw('drop function mail.count_domain_send(integer, integer)').execute(db);
  await sql.raw('drop table public.mail_domain_send_windows').execute(db);
}
