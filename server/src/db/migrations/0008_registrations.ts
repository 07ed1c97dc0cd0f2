import { sql, type Kysely } from 'kysely';

/**
 * A registration waits here until the link of its mail is opened; only then is it a user. So a
 * registration for an address that already has an account looks, from outside, like any other
 * (docs/decisions/0006-no-account-enumeration.md). One pending registration per address and
 * tenant: registering again replaces it, so nobody can hold an address they cannot read.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(
      `create table registrations (
        id serial primary key,
        tenant_id integer not null references tenants(id) on delete cascade,
        email text not null,
        password_hash text not null,
        given_name text not null,
        sn text not null,
        language text not null,
        code_hash text not null unique,
        created_at timestamptz not null,
        expires_at timestamptz not null
      )`,
    )
    .execute(db);
  await sql.raw('create unique index registrations_tenant_email on registrations (tenant_id, lower(email))').execute(db);
  await sql.raw('create index registrations_expires_at on registrations (expires_at)').execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('drop table registrations').execute(db);
}
