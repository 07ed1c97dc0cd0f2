import { sql, type Kysely } from 'kysely';

/**
 * HTTP-01 for domains whose DNS is elsewhere (modules/certificates): the CA fetches
 * `http://<name>/.well-known/acme-challenge/<token>`, which nginx hands to the agent of the site's
 * web server (a socket in its run directory), which answers from `web.acme_challenges`.
 */
const statements = [
  `create table public.acme_http_challenges (
    id serial primary key,
    domain_id integer not null references public.domains(id) on delete cascade,
    token text not null check (token ~ '^[A-Za-z0-9_-]{20,100}$'),
    key_authorization text not null check (key_authorization ~ '^[A-Za-z0-9_-]{20,100}[.][A-Za-z0-9_-]{20,100}$'),
    created_at timestamptz not null
  )`,
  'create index acme_http_challenges_domain on public.acme_http_challenges (domain_id)',
  `create view web.acme_challenges as
    select d.web_server_id as server_id, d.name::text as name, c.token, c.key_authorization
    from public.acme_http_challenges c join public.domains d on d.id = c.domain_id
    where d.web_server_id is not null`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('drop view web.acme_challenges').execute(db);
  await sql.raw('drop table public.acme_http_challenges').execute(db);
}
