import { sql, type Kysely } from 'kysely';

/**
 * Websites, second part (docs/decisions/0014-websites-nginx-php-fpm.md):
 *
 * - A hosting plan says how many PHP workers and how much memory per PHP request its customer's pool
 *   gets (null: the web server's default, agent/src/php.ts), beside the disk it already includes.
 * - `web.sites` carries what the agent needs of them: the owner's plans running now (several add up
 *   for disk, the largest wins for PHP), the site's aliases and its www redirect from its settings.
 * - `ftp.users` carries how much an FTP login's site may hold: the plans' disk less what the owner's
 *   other sites hold and their mailboxes' quotas (Pure-FTPd's quota; agent/src/ftp-auth.ts).
 * - `web.server_status`: what each web server reports of itself (its PHP versions), so the panel
 *   offers only what the site's server has.
 * - A plan bought, renewed, ended or changed moves the revision of its holder's sites.
 */
export const sitesView = (extra: boolean) => `create or replace view web.sites as
    select d.id as site_id, d.name::text as name, d.web_server_id as server_id, d.web_revision as revision,
      d.owner_id, u.tenant_id, t.title as tenant_name, u.language,
      coalesce(d.settings ->> 'document_root', 'public_html') as document_root,
      coalesce(d.settings ->> 'php_version', 'off') as php_version,
      coalesce((d.settings ->> 'ssl_redirect')::boolean, true) as ssl_redirect,
      coalesce((d.settings ->> 'hsts')::boolean, false) as hsts,
      u.locked_at is not null as suspended${
        extra
          ? `,
      case when jsonb_typeof(d.settings -> 'aliases') = 'array'
        then array(select jsonb_array_elements_text(d.settings -> 'aliases')) else '{}'::text[] end as aliases,
      coalesce(d.settings ->> 'www_redirect', 'none') as www_redirect,
      p.php_workers, p.php_memory_mb, p.disk_quota_mb`
          : ''
      }
    from public.domains d
    join public.users u on u.id = d.owner_id
    join public.tenants t on t.id = u.tenant_id${
      extra
        ? `
    left join lateral (
      select max(hp.php_workers) as php_workers, max(hp.php_memory_mb) as php_memory_mb,
        -- No plan running: nothing limits the disk (an admin's customer, as planAllowance says).
        case when count(*) = 0 or bool_or(hp.id is null or hp.disk_gb is null) then null
          else sum(hp.disk_gb)::bigint * 1024 end as disk_quota_mb
      from public.hosting_subscriptions s left join public.hosting_plans hp on hp.id = s.plan_id
      where s.user_id = d.owner_id and s.starts_at <= now() and s.expires_at > now()
    ) p on true`
        : ''
    }
    where d.web_server_id is not null and d.verification_token is null`;

export const ftpView = (extra: boolean) => `create or replace view ftp.users as
    select lower(u.uid) as login, u.password_hash, s.owner_id, s.name as site, s.server_id${
      extra
        ? `,
      case when s.disk_quota_mb is null then null
        else greatest(0, s.disk_quota_mb * 1048576
          - coalesce((select sum(st.disk_bytes) from web.site_status st join public.domains o on o.id = st.site_id
              where o.owner_id = s.owner_id and st.site_id <> s.site_id), 0)
          - coalesce((select sum(m.quota_mb) from public.domain_users m join public.domains o on o.id = m.domain_id
              where o.owner_id = s.owner_id), 0) * 1048576)::bigint end as quota_bytes`
        : ''
    }
    from public.domain_users u join web.sites s on s.site_id = u.domain_id
    where u.enabled and not s.suspended`;

const statements = [
  `alter table public.hosting_plans
    add column php_workers integer check (php_workers is null or php_workers between 1 and 100),
    add column php_memory_mb integer check (php_memory_mb is null or php_memory_mb between 32 and 2048)`,
  sitesView(true),
  ftpView(true),
  `create table web.server_status (
    server_id integer primary key references public.servers(id) on delete cascade,
    php_versions text[] not null default '{}' check (cardinality(php_versions) <= 20),
    reported_at timestamptz not null default now()
  )`,
  'alter table web.server_status enable row level security',
  `create policy server_status_own on web.server_status
    using (server_id in (select s.id from web.servers s where s.agent_role = current_user))
    with check (server_id in (select s.id from web.servers s where s.agent_role = current_user))`,
  `create function public.subscriptions_web_revision() returns trigger language plpgsql as $$
    begin
      update public.domains set web_revision = nextval('public.web_revision')
        where owner_id in (select (case when tg_op = 'DELETE' then old.user_id else new.user_id end)
          union select (case when tg_op = 'INSERT' then new.user_id else old.user_id end));
      return null;
    end $$`,
  `create trigger hosting_subscriptions_web_revision after insert or update or delete on public.hosting_subscriptions
    for each row execute function public.subscriptions_web_revision()`,
  `create function public.plans_web_revision() returns trigger language plpgsql as $$
    begin
      update public.domains set web_revision = nextval('public.web_revision')
        where owner_id in (select s.user_id from public.hosting_subscriptions s where s.plan_id = new.id);
      return null;
    end $$`,
  `create trigger hosting_plans_web_revision after update on public.hosting_plans
    for each row when ((old.php_workers, old.php_memory_mb, old.disk_gb) is distinct from (new.php_workers, new.php_memory_mb, new.disk_gb))
    execute function public.plans_web_revision()`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('drop trigger hosting_plans_web_revision on public.hosting_plans').execute(db);
  await sql.raw('drop function public.plans_web_revision()').execute(db);
  await sql.raw('drop trigger hosting_subscriptions_web_revision on public.hosting_subscriptions').execute(db);
  await sql.raw('drop function public.subscriptions_web_revision()').execute(db);
  await sql.raw('drop table web.server_status').execute(db);
  // A view cannot lose columns in place: dropped and made again as 0030 made it.
  await sql.raw('drop view ftp.users').execute(db);
  await sql.raw('drop view web.sites').execute(db);
  await sql.raw(sitesView(false)).execute(db);
  await sql.raw(ftpView(false)).execute(db);
  await sql.raw('alter table public.hosting_plans drop column php_workers, drop column php_memory_mb').execute(db);
}
