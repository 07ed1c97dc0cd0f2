import { sql, type Kysely } from 'kysely';
import { DOMAINS_VIEW_0012, RECORDS_VIEW_0012 } from './0012_dns_lookup_index.ts';

/**
 * A domain a customer adds themselves is a name they say they hold elsewhere: until they prove it
 * with a TXT record (modules/domains/proof.ts), `verification_token` holds the value that record
 * must carry, and neither PowerDNS nor Postfix and Dovecot see the domain (the views below leave
 * it out), so nobody can take over mail or DNS for a name that is not theirs. Null: nothing to
 * prove (admins' domains, those registered through the shop, and every domain before this).
 */
const MAIL_DOMAINS = 'create view mail.domains as select d.name::text as domain from public.domains d';
const MAIL_MAILBOXES = `create view mail.mailboxes as
    select lower(u.uid) as email, d.name::text as domain, split_part(lower(u.uid), '@', 1) as local_part,
      '{ARGON2ID}' || regexp_replace(u.password_hash,
        '^\\$argon2id\\$v=19\\$m=([0-9]+),p=([0-9]+),t=([0-9]+)\\$', '$argon2id$v=19$m=\\1,t=\\3,p=\\2$') as password,
      u.quota_mb::bigint * 1048576 as quota_bytes
    from public.domain_users u join public.domains d on d.id = u.domain_id`;
const MAIL_ALIASES = `create view mail.aliases as
    select lower(a.local_part || '@' || d.name) as source, lower(a.destination) as destination
    from public.mail_aliases a join public.domains d on d.id = a.domain_id`;

const served = [
  `create view pdns.domains as
    select z.domain_id as id, z.name, null::varchar(128) as master, null::int as last_check,
      'NATIVE'::text as type, null::bigint as notified_serial, null::varchar(40) as account,
      null::text as options, null::text as catalog
    from public.dns_zones z join public.domains d on d.id = z.domain_id
    where d.verification_token is null`,
  `create view pdns.records as
    select -z.domain_id::bigint as id, z.domain_id, z.name, 'SOA'::text as type, z.soa_content as content,
      3600 as ttl, 0 as prio, false as disabled, ''::text as ordername, true as auth
    from public.dns_zones z join public.domains d on d.id = z.domain_id
    where d.verification_token is null
    union all
    select r.id::bigint, r.domain_id, r.fqdn, r.type, r.served_content, r.ttl, coalesce(r.priority, 0), r.disabled, r.ordername,
      not exists (
        select 1 from public.dns_records n
        where n.domain_id = r.domain_id and n.type = 'NS' and n.name <> '@' and not n.disabled
          and (r.name = n.name or right(r.name, length(n.name) + 1) = '.' || n.name)
      )
    from public.dns_records r join public.domains d on d.id = r.domain_id
    where d.verification_token is null`,
  `${MAIL_DOMAINS} where d.verification_token is null`,
  `${MAIL_MAILBOXES} where u.enabled and d.verification_token is null`,
  `${MAIL_ALIASES} where d.verification_token is null`,
];

const views = ['pdns.records', 'pdns.domains', 'mail.domains', 'mail.mailboxes', 'mail.aliases'];

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw('alter table public.domains add column verification_token text').execute(db);
  // The daemons' roles read these views (docs/deploy.md grants them): a view made anew keeps none
  // of its grants, so they are read first and given again.
  const { rows: grants } = await sql<{ view: string; grantee: string }>`
    select distinct table_schema || '.' || table_name as view, grantee from information_schema.role_table_grants
    where table_schema in ('pdns', 'mail') and privilege_type = 'SELECT' and grantee <> current_user`.execute(db);
  for (const view of views) await sql.raw(`drop view ${view}`).execute(db);
  for (const statement of served) await sql.raw(statement).execute(db);
  for (const { view, grantee } of grants) {
    if (views.includes(view)) await sql.raw(`grant select on ${view} to "${grantee.replaceAll('"', '""')}"`).execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const view of views) await sql.raw(`drop view ${view}`).execute(db);
  for (const statement of [DOMAINS_VIEW_0012, RECORDS_VIEW_0012, MAIL_DOMAINS, `${MAIL_MAILBOXES} where u.enabled`, MAIL_ALIASES]) {
    await sql.raw(statement).execute(db);
  }
  await sql.raw('alter table public.domains drop column verification_token').execute(db);
}
