import { sql, type Kysely } from 'kysely';

/**
 * Websites: the desired state of every site in the schema `web`, read by one agent per web server
 * (agent/, docs/decisions/0014-websites-nginx-php-fpm.md), as PowerDNS and the mail daemons read
 * theirs (decision 0008).
 *
 * - `servers`: the hosts Berth places work on, with the roles each serves. Every domain is placed on
 *   one web server: the least loaded when it is made (a trigger, so the shop, the admin and a proven
 *   domain are placed alike), or the one an admin names.
 * - `domains.web_revision`: a number from one sequence, set anew whenever something a web server
 *   renders changes (settings, name, owner, placement, proof, the owner's lock), so the agent knows
 *   what it has applied and the panel can say "live at revision n".
 * - `web.sites`: the sites of every server, with the values the agent renders; `web.site_status`:
 *   what each agent applied and when, or why it could not, written through row security by the
 *   server's own role only.
 * - Every change is announced on the channel `berth_web` with the server's id, after commit.
 */
const statements = [
  `create table public.servers (
    id serial primary key,
    name text not null unique check (name ~ '^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$'),
    address text not null default '',
    roles text[] not null default '{web}' check (roles <@ array['web', 'mail', 'dns']::text[]),
    agent_role text unique,
    created_at timestamptz not null default now()
  )`,
  'create sequence public.web_revision',
  `alter table public.domains
    add column web_server_id integer references public.servers(id) on delete set null,
    add column web_revision bigint not null default nextval('public.web_revision')`,
  'create index domains_web_server on public.domains (web_server_id, id)',

  // Placement: the web server with the fewest sites, unless one was named.
  `create function public.domains_place_site() returns trigger language plpgsql as $$
    begin
      if new.web_server_id is null then
        select s.id into new.web_server_id from public.servers s
          where 'web' = any(s.roles)
          order by (select count(*) from public.domains d where d.web_server_id = s.id), s.id
          limit 1;
      end if;
      return new;
    end $$`,
  `create trigger domains_place_site before insert on public.domains
    for each row execute function public.domains_place_site()`,
  `create function public.domains_web_revision() returns trigger language plpgsql as $$
    begin
      new.web_revision := nextval('public.web_revision');
      return new;
    end $$`,
  `create trigger domains_web_revision before update on public.domains
    for each row when ((old.name, old.owner_id, old.settings, old.web_server_id, old.verification_token is null)
      is distinct from (new.name, new.owner_id, new.settings, new.web_server_id, new.verification_token is null))
    execute function public.domains_web_revision()`,
  // A locked owner's sites answer "suspended": their revision moves with the lock.
  `create function public.users_web_revision() returns trigger language plpgsql as $$
    begin
      update public.domains set web_revision = nextval('public.web_revision') where owner_id = new.id;
      return null;
    end $$`,
  `create trigger users_web_revision after update on public.users
    for each row when ((old.locked_at is null) is distinct from (new.locked_at is null) or old.language is distinct from new.language)
    execute function public.users_web_revision()`,
  `create function public.web_announce() returns trigger language plpgsql as $$
    begin
      if tg_op <> 'INSERT' and old.web_server_id is not null then
        perform pg_notify('berth_web', old.web_server_id::text);
      end if;
      if tg_op <> 'DELETE' and new.web_server_id is not null then
        perform pg_notify('berth_web', new.web_server_id::text);
      end if;
      return null;
    end $$`,
  // Not "update of web_revision": a column set by a BEFORE trigger does not count as updated there.
  `create trigger domains_web_announce_change after insert or delete on public.domains
    for each row execute function public.web_announce()`,
  `create trigger domains_web_announce after update on public.domains
    for each row when ((old.web_revision, old.web_server_id) is distinct from (new.web_revision, new.web_server_id))
    execute function public.web_announce()`,

  'create schema web',
  'create view web.servers as select s.id, s.name, s.address, s.roles, s.agent_role from public.servers s',
  // Only proven names are served (a customer's own domain waits for its proof, as its zone does).
  `create view web.sites as
    select d.id as site_id, d.name::text as name, d.web_server_id as server_id, d.web_revision as revision,
      d.owner_id, u.tenant_id, t.title as tenant_name, u.language,
      coalesce(d.settings ->> 'document_root', 'public_html') as document_root,
      coalesce(d.settings ->> 'php_version', 'off') as php_version,
      coalesce((d.settings ->> 'ssl_redirect')::boolean, true) as ssl_redirect,
      coalesce((d.settings ->> 'hsts')::boolean, false) as hsts,
      u.locked_at is not null as suspended
    from public.domains d
    join public.users u on u.id = d.owner_id
    join public.tenants t on t.id = u.tenant_id
    where d.web_server_id is not null and d.verification_token is null`,
  `create table web.site_status (
    site_id integer primary key references public.domains(id) on delete cascade,
    server_id integer not null references public.servers(id) on delete cascade,
    revision bigint not null,
    state text not null check (state in ('live', 'error')),
    error text not null default '' check (length(error) <= 2000),
    -- What the owner should know although the site is live (its PHP version runs as the nearest one).
    note text not null default '' check (length(note) <= 2000),
    applied_at timestamptz not null default now(),
    -- What the site's folder holds, measured by the agent (du) every minute or so.
    disk_bytes bigint,
    disk_measured_at timestamptz
  )`,
  // The last lines of each site's access and error logs, newest first, as the agent last read them.
  `create table web.site_logs (
    site_id integer primary key references public.domains(id) on delete cascade,
    server_id integer not null references public.servers(id) on delete cascade,
    access text[] not null default '{}' check (cardinality(access) <= 100),
    error text[] not null default '{}' check (cardinality(error) <= 100),
    updated_at timestamptz not null default now()
  )`,
  'alter table web.site_logs enable row level security',
  `create policy site_logs_own on web.site_logs
    using (server_id in (select s.id from web.servers s where s.agent_role = current_user))
    with check (server_id in (select s.id from web.servers s where s.agent_role = current_user))`,
  // FTP logins (agent/src/ftp-auth.ts, which Pure-FTPd asks through pure-authd): each enabled domain
  // user of a served site, chrooted into that site's folder, refused while the owner is locked,
  // verified against the panel's own argon2id hash.
  'create schema ftp',
  `create view ftp.users as
    select lower(u.uid) as login, u.password_hash, s.owner_id, s.name as site, s.server_id
    from public.domain_users u join web.sites s on s.site_id = u.domain_id
    where u.enabled and not s.suspended`,
  'alter table web.site_status enable row level security',
  // A server's agent reads and writes its own rows only: its role is the server's agent_role.
  `create policy site_status_own on web.site_status
    using (server_id in (select s.id from web.servers s where s.agent_role = current_user))
    with check (server_id in (select s.id from web.servers s where s.agent_role = current_user))`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('drop schema ftp cascade').execute(db);
  await sql.raw('drop schema web cascade').execute(db);
  await sql.raw('drop trigger users_web_revision on public.users').execute(db);
  await sql.raw('drop function public.users_web_revision()').execute(db);
  await sql.raw('drop trigger domains_web_announce on public.domains').execute(db);
  await sql.raw('drop trigger domains_web_announce_change on public.domains').execute(db);
  await sql.raw('drop trigger domains_web_revision on public.domains').execute(db);
  await sql.raw('drop trigger domains_place_site on public.domains').execute(db);
  await sql.raw('drop function public.web_announce()').execute(db);
  await sql.raw('drop function public.domains_web_revision()').execute(db);
  await sql.raw('drop function public.domains_place_site()').execute(db);
  await sql.raw('alter table public.domains drop column web_server_id, drop column web_revision').execute(db);
  await sql.raw('drop sequence public.web_revision').execute(db);
  await sql.raw('drop table public.servers').execute(db);
}
