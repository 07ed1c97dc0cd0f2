import { sql, type Kysely } from 'kysely';

/**
 * Postfix and Dovecot read the mailboxes straight from Berth's tables, like PowerDNS reads the
 * zones (0009, docs/decisions/0008-daemons-read-the-database.md): the schema `mail` holds views
 * in the shape their pgsql lookups ask for (deploy/postfix, deploy/dovecot), so a mailbox created,
 * disabled, deleted or given a new password on the panel is what both daemons see at the next
 * lookup. The daemons' role reads this schema only.
 */
const statements = [
  // Forwarders: mail for local_part@domain goes on to destination (any address, here or elsewhere).
  `create table public.mail_aliases (
    id serial primary key,
    tenant_id integer not null references public.tenants(id) on delete cascade,
    domain_id integer not null references public.domains(id) on delete cascade,
    local_part text not null,
    destination text not null,
    created_at timestamptz not null default now(),
    constraint mail_aliases_unique unique (domain_id, local_part, destination)
  )`,
  'create index mail_aliases_tenant on public.mail_aliases (tenant_id)',
  'create schema mail',
  // Every domain in Berth is a mail domain: mail for an address that is no mailbox and no forwarder
  // there is refused at RCPT; mail for a domain not in Berth is refused as relaying.
  'create view mail.domains as select d.name::text as domain from public.domains d',
  // Enabled domain users are mailboxes. The panel's argon2id PHC string is what Dovecot verifies
  // ({ARGON2ID} scheme): no second hash. node-argon2 writes the parameters as m,p,t while
  // libsodium (Dovecot's verifier) reads only the PHC order m,t,p: the same values, reordered.
  // Quota in bytes, as Dovecot's quota rule wants it.
  `create view mail.mailboxes as
    select lower(u.uid) as email, d.name::text as domain, split_part(lower(u.uid), '@', 1) as local_part,
      '{ARGON2ID}' || regexp_replace(u.password_hash,
        '^\\$argon2id\\$v=19\\$m=([0-9]+),p=([0-9]+),t=([0-9]+)\\$', '$argon2id$v=19$m=\\1,t=\\3,p=\\2$') as password,
      u.quota_mb::bigint * 1048576 as quota_bytes
    from public.domain_users u join public.domains d on d.id = u.domain_id
    where u.enabled`,
  `create view mail.aliases as
    select lower(a.local_part || '@' || d.name) as source, lower(a.destination) as destination
    from public.mail_aliases a join public.domains d on d.id = a.domain_id`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('drop schema mail cascade').execute(db);
  await sql.raw('drop table public.mail_aliases').execute(db);
}
