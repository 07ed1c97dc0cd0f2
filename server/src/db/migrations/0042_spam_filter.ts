import { sql, type Kysely } from 'kysely';
import { SPAM_JUNK_SCORE } from '@berth/contracts';

/**
 * Each mailbox's spam filter (off, normal, strict; contracts SPAM_FILTER_LEVELS). rspamd scores
 * mail from outside and writes the score as X-Spam-Level, one star a point
 * (deploy/rspamd/local.d/milter_headers.conf), and X-Spam: Yes from its add-header score; Dovecot runs the script `spam` of the mailbox
 * before its autoresponder (sieve_before, deploy/dovecot/dovecot.conf), read like the autoresponder
 * from the view mail.sieve_scripts: at the level's score the message goes to Junk and nothing else
 * runs (no autoreply to spam). `off` has no script.
 */
const junkRule = (stars: number) =>
  `'require ["fileinto", "mailbox"];' || chr(10) ||
   'if anyof (header :is "X-Spam" "Yes", header :contains "X-Spam-Level" "${'*'.repeat(stars)}") {' || chr(10) ||
   '  fileinto :create "Junk";' || chr(10) || '  stop;' || chr(10) || '}' || chr(10)`;

/** The autoresponder's rows of the view, as migration 0020_mail_autoreplies made them. */
const AUTOREPLIES = `select lower(u.uid) as username, 'autoreply'::text as name,
          a.domain_user_id::text || '.' || a.revision::text as id, a.script
        from public.mail_autoreplies a
          join public.domain_users u on u.id = a.domain_user_id
          join public.domains d on d.id = u.domain_id
        where a.enabled and u.enabled and d.verification_token is null`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(
      `alter table public.domain_users
        add column spam_filter text not null default 'normal' check (spam_filter in ('off', 'normal', 'strict'))`,
    )
    .execute(db);
  await sql
    .raw(
      `create or replace view mail.sieve_scripts as
        ${AUTOREPLIES}
        union all
        select lower(u.uid), 'spam'::text, 'spam.' || u.spam_filter,
          case u.spam_filter when 'strict' then ${junkRule(SPAM_JUNK_SCORE.strict)} else ${junkRule(SPAM_JUNK_SCORE.normal)} end
        from public.domain_users u
          join public.domains d on d.id = u.domain_id
        where u.spam_filter <> 'off' and d.verification_token is null`,
    )
    .execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(
      `create or replace view mail.sieve_scripts as
        ${AUTOREPLIES}`,
    )
    .execute(db);
  await sql.raw('alter table public.domain_users drop column spam_filter').execute(db);
}
