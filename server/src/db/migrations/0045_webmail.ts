import { sql, type Kysely } from 'kysely';

/**
 * Webmail (Roundcube from Debian, docs/decisions/0021-webmail.md):
 * - `web.webmail_domains`: the domains whose mail Berth serves, by the web server of their site;
 *   that server answers `webmail.<domain>` with Roundcube beside the panel host's own webmail name
 *   (agent/src/nginx.ts). The web agent's role reads the schema `web` only.
 * - Roundcube keeps what a mailbox leaves in it (contacts, identities, settings) in the schema
 *   `roundcube` of this database, made by `npm run services` from Debian's SQL. A mailbox deleted,
 *   or its domain, takes those rows with it: a new mailbox of the same address (the next owner of
 *   the domain) starts empty instead of finding the last one's address book. The schema may not
 *   exist (no Roundcube here, or the embedded database): the triggers ask first.
 */
const statements = [
  `create view web.webmail_domains as
    select d.web_server_id as server_id, d.name::text as domain
    from public.domains d
    where d.web_server_id is not null and d.name::text in (select m.domain from mail.domains m)`,
  `create function public.forget_webmail_users(pattern text) returns void language plpgsql as $$
    begin
      if to_regclass('roundcube.users') is not null then
        execute 'delete from roundcube.users where lower(username) like $1' using pattern;
      end if;
    exception when insufficient_privilege then
      -- A Roundcube store this role may not touch is not the panel's to clean: the delete goes on.
      null;
    end $$`,
  `create function public.forget_webmail_mailbox() returns trigger language plpgsql as $$
    begin
      perform public.forget_webmail_users(replace(replace(replace(lower(old.uid), '\\', '\\\\'), '%', '\\%'), '_', '\\_'));
      return old;
    end $$`,
  `create function public.forget_webmail_domain() returns trigger language plpgsql as $$
    begin
      perform public.forget_webmail_users('%@' || replace(replace(replace(lower(old.name::text), '\\', '\\\\'), '%', '\\%'), '_', '\\_'));
      return old;
    end $$`,
  `create trigger domain_users_forget_webmail before delete on public.domain_users
    for each row execute function public.forget_webmail_mailbox()`,
  `create trigger domains_forget_webmail before delete on public.domains
    for each row execute function public.forget_webmail_domain()`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('drop trigger domains_forget_webmail on public.domains').execute(db);
  await sql.raw('drop trigger domain_users_forget_webmail on public.domain_users').execute(db);
  await sql
    .raw('drop function public.forget_webmail_domain(), public.forget_webmail_mailbox(), public.forget_webmail_users(text)')
    .execute(db);
  await sql.raw('drop view web.webmail_domains').execute(db);
}
