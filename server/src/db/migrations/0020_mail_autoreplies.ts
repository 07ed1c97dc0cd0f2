import { sql, type Kysely } from 'kysely';

/**
 * An autoresponder per mailbox (modules/domain-users/autoreply.ts). Berth writes the Sieve script
 * itself (`script`, from the subject, text, interval and dates a user sets) and Dovecot's Sieve
 * plugin reads it through the view `mail.sieve_scripts` as a dict (deploy/dovecot): the name
 * `autoreply` maps to a data id that changes with every save (`revision`), so Dovecot compiles
 * the new script at the next delivery. Only enabled replies of enabled mailboxes on served
 * (proven) domains are in the view.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(
      `create table public.mail_autoreplies (
        domain_user_id integer primary key references public.domain_users(id) on delete cascade,
        enabled boolean not null default false,
        subject text not null,
        body text not null,
        interval_days integer not null default 1 check (interval_days between 1 and 30),
        starts_on date,
        ends_on date,
        script text not null,
        revision integer not null default 1,
        updated_at timestamptz not null default now(),
        check (ends_on is null or starts_on is null or ends_on >= starts_on)
      )`,
    )
    .execute(db);
  await sql
    .raw(
      `create view mail.sieve_scripts as
        select lower(u.uid) as username, 'autoreply'::text as name,
          a.domain_user_id::text || '.' || a.revision::text as id, a.script
        from public.mail_autoreplies a
          join public.domain_users u on u.id = a.domain_user_id
          join public.domains d on d.id = u.domain_id
        where a.enabled and u.enabled and d.verification_token is null`,
    )
    .execute(db);
  // The role that reads mail.mailboxes (docs/deploy.md, daemons/queries.ts) reads this view too.
  const { rows } = await sql<{ grantee: string }>`
    select distinct grantee from information_schema.role_table_grants
    where table_schema = 'mail' and table_name = 'mailboxes' and privilege_type = 'SELECT' and grantee <> current_user`.execute(db);
  for (const { grantee } of rows) {
    await sql.raw(`grant select on mail.sieve_scripts to "${grantee.replaceAll('"', '""')}"`).execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('drop view mail.sieve_scripts').execute(db);
  await sql.raw('drop table public.mail_autoreplies').execute(db);
}
