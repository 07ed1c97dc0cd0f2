import { sql, type Kysely } from 'kysely';
import { MAIL_LOG_DAYS } from '@berth/contracts';

/**
 * The mail log of each mailbox (GET /api/host/domain/{id}/users/{userId}/mail-log): what it
 * received and what it sent, with the delivery status of each message to each recipient
 * (delivered, deferred, bounced). The mail agent reads Postfix's log as it is written and records
 * each delivery attempt through `mail.log_delivery` (security definer: the mail role reads the
 * schema `mail` and may change nothing else); a later attempt of the same message to the same
 * recipient updates its row (deferred, then delivered). Rows older than MAIL_LOG_DAYS go with the
 * next row of the same mailbox.
 */
const statements = [
  `create table public.mail_log (
    id bigserial primary key,
    domain_user_id integer not null references public.domain_users(id) on delete cascade,
    direction text not null check (direction in ('in', 'out')),
    queue_id text not null,
    peer text not null,
    status text not null check (status in ('delivered', 'deferred', 'bounced')),
    detail text not null default '',
    at timestamptz not null,
    unique (domain_user_id, direction, queue_id, peer)
  )`,
  'create index mail_log_recent on public.mail_log (domain_user_id, at desc)',
  `create function mail.log_delivery(login text, dir text, queue text, other text, state text, reason text, happened timestamptz)
    returns void language plpgsql security definer set search_path = pg_catalog, pg_temp as $$
    declare
      box integer;
    begin
      select u.id into box from public.domain_users u where lower(u.uid) = lower(login);
      if not found then return; end if;
      insert into public.mail_log as l (domain_user_id, direction, queue_id, peer, status, detail, at)
        values (box, dir, left(queue, 40), left(other, 320), state, left(reason, 500), happened)
        on conflict (domain_user_id, direction, queue_id, peer) do update
          set status = excluded.status, detail = excluded.detail, at = excluded.at;
      delete from public.mail_log where domain_user_id = box and at < happened - interval '${MAIL_LOG_DAYS} days';
    end $$`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('drop function mail.log_delivery(text, text, text, text, text, text, timestamptz)').execute(db);
  await sql.raw('drop table public.mail_log').execute(db);
}
