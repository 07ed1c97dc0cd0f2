import { sql, type Kysely } from 'kysely';

/**
 * Mail that never reaches the next owner of an address, and addresses that always answer:
 *
 * - A mailbox's files live under its id (`mail.mailboxes.home_id`), never under its name: ids are
 *   never reused, so a mailbox made again with the same address, on this tenant or another, starts
 *   empty. `mail.homes` lists every mailbox that still exists (enabled or not, proven or not): the
 *   mail agent (server/src/daemons/mail-agent.ts) removes the files of any other id.
 * - The channel `berth_mail` tells the mail agent at once when a mailbox is deleted (`gone:<id>`)
 *   or loses its access (`kick:<address>`: disabled, new password, renamed), so that open IMAP
 *   sessions end too (`doveadm kick`).
 * - postmaster@, abuse@ and hostmaster@ (RFC 5321 4.5.1, RFC 2142) reach the domain's owner unless
 *   the domain has a mailbox or forwarder of that name.
 * - `mail.forwards_of(address)` is what Postfix asks for a forwarder's destinations: an address
 *   whose forwarders lead back to itself gets none, so mail to it is refused at RCPT for good
 *   (550) instead of deferred after DATA for days.
 */
export const MAILBOXES = `create or replace view mail.mailboxes as
    select lower(u.uid) as email, d.name::text as domain, split_part(lower(u.uid), '@', 1) as local_part,
      '{ARGON2ID}' || regexp_replace(u.password_hash,
        '^\\$argon2id\\$v=19\\$m=([0-9]+),p=([0-9]+),t=([0-9]+)\\$', '$argon2id$v=19$m=\\1,t=\\3,p=\\2$') as password,
      u.quota_mb::bigint * 1048576 as quota_bytes, u.id as home_id
    from public.domain_users u join public.domains d on d.id = u.domain_id
    where u.enabled and d.verification_token is null`;

/** The addresses every mail domain must answer, and who gets their mail by default. */
export const ROLE_ADDRESSES = ['postmaster', 'abuse', 'hostmaster'] as const;

export const ALIASES = `create or replace view mail.aliases as
    select lower(a.local_part || '@' || d.name) as source, lower(a.destination) as destination
    from public.mail_aliases a join public.domains d on d.id = a.domain_id
    where d.verification_token is null
    union all
    select r.local_part || '@' || d.name, lower(o.email)
    from public.domains d
      join public.users o on o.id = d.owner_id
      cross join unnest(array[${ROLE_ADDRESSES.map((name) => `'${name}'`).join(', ')}]) as r(local_part)
    where d.verification_token is null
      and lower(o.email) <> r.local_part || '@' || d.name
      and not exists (select 1 from public.mail_aliases a where a.domain_id = d.id and lower(a.local_part) = r.local_part)
      and not exists (select 1 from public.domain_users u where u.domain_id = d.id and lower(u.uid) = r.local_part || '@' || d.name)`;

// Follows forwarders from `address` (20 steps at most, the way Postfix would expand them); a
// destination equal to its own source is a kept copy (Postfix's rule), not a loop. (0046 looks them up by index.)
export const FORWARDS_OF = `create function mail.forwards_of(address text) returns table (destination text)
    language sql stable as $$
      with recursive reach (addr, depth) as (
        select a.destination, 1 from mail.aliases a where a.source = lower(address) and a.destination <> a.source
        union
        select a.destination, r.depth + 1 from reach r join mail.aliases a on a.source = r.addr
        where r.depth < 20 and a.destination <> a.source
      )
      select a.destination from mail.aliases a
      where a.source = lower(address) and not exists (select 1 from reach where reach.addr = lower(address))
    $$`;

const statements = [
  MAILBOXES,
  ALIASES,
  `create view mail.homes as select u.id as home_id, lower(u.uid) as email from public.domain_users u`,
  FORWARDS_OF,
  'create index if not exists mail_aliases_domain_part on public.mail_aliases (domain_id, lower(local_part))',
  'create index if not exists domain_users_uid_lower on public.domain_users (lower(uid))',
  `create function public.mail_access_changed() returns trigger language plpgsql as $$
    begin
      if tg_op = 'DELETE' then
        perform pg_notify('berth_mail', 'gone:' || old.id || ':' || lower(old.uid));
      elsif old.enabled and (not new.enabled or new.password_hash <> old.password_hash or lower(new.uid) <> lower(old.uid)) then
        perform pg_notify('berth_mail', 'kick:' || lower(old.uid));
      end if;
      return null;
    end $$`,
  `create trigger domain_users_mail_access after update or delete on public.domain_users
    for each row execute function public.mail_access_changed()`,
  // The daemons' login roles are named after the database (two Berth databases on one server keep
  // theirs apart) and keep the password they were given: every start of the services on any
  // machine reads it here instead of setting a new one under running daemons (daemons/queries.ts).
  // Readable by Berth's own role only.
  `create table public.daemon_roles (role text primary key, password text not null, created_at timestamptz not null default now())`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
  // The role that reads mail.mailboxes (docs/deploy.md, daemons/queries.ts) reads the new view too.
  const { rows } = await sql<{ grantee: string }>`
    select distinct grantee from information_schema.role_table_grants
    where table_schema = 'mail' and table_name = 'mailboxes' and privilege_type = 'SELECT' and grantee <> current_user`.execute(db);
  for (const { grantee } of rows) await sql.raw(`grant select on mail.homes to "${grantee.replaceAll('"', '""')}"`).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const statement of [
    'drop table public.daemon_roles',
    'drop trigger domain_users_mail_access on public.domain_users',
    'drop function public.mail_access_changed()',
    'drop function mail.forwards_of(text)',
    'drop view mail.homes',
    'drop index public.mail_aliases_domain_part',
    'drop index public.domain_users_uid_lower',
  ]) {
    await sql.raw(statement).execute(db);
  }
}
