import { sql, type Kysely } from 'kysely';
import { FORWARDS_OF as FORWARDS_OF_BEFORE, ROLE_ADDRESSES } from './0022_mail_owner_safety.ts';

/**
 * Forwarder lookups by index. `mail.forwards_of` (what Postfix asks for every recipient, twice per
 * message) matched `mail.aliases.source`, an expression over two tables that no index holds: every
 * lookup read every forwarder and every domain, 11 to 50 ms at 5,000 domains. `mail.alias_targets`
 * answers the same rows as `mail.aliases where source = address` (forwarders of served domains, and
 * postmaster@, abuse@, hostmaster@ to the owner where the domain has neither a mailbox nor a
 * forwarder of that name) from the address's domain by name and its local part by
 * `mail_aliases_domain_part`; `forwards_of` follows it the same way as before (0022): an address
 * whose forwarders lead back to itself gets none. The sender
 * login map (deploy/postfix/pgsql-senders.cf) asks it too.
 */
const SERVED = 'd.verification_token is null and d.lapsed_at is null';

// Security definer, as the views are read with their owner's rights: the mail role reads the
// schema `mail` and none of Berth's tables.
const ALIAS_TARGETS = `create function mail.alias_targets(address text) returns table (destination text)
  language sql stable security definer set search_path = pg_catalog, pg_temp as $$
    select lower(a.destination)
    from public.domains d join public.mail_aliases a on a.domain_id = d.id
    where d.name = split_part(lower(address), '@', 2) and lower(a.local_part) = split_part(lower(address), '@', 1)
      and ${SERVED}
    union all
    select lower(o.email)
    from public.domains d join public.users o on o.id = d.owner_id
    where d.name = split_part(lower(address), '@', 2)
      and split_part(lower(address), '@', 1) in (${ROLE_ADDRESSES.map((name) => `'${name}'`).join(', ')})
      and ${SERVED}
      and lower(o.email) <> lower(address)
      and not exists (select 1 from public.mail_aliases a where a.domain_id = d.id and lower(a.local_part) = split_part(lower(address), '@', 1))
      and not exists (select 1 from public.domain_users u where u.domain_id = d.id and lower(u.uid) = lower(address))
  $$`;

/**
 * PL/pgSQL rather than SQL: its plans are kept per connection (Postfix asks through proxymap's one
 * connection), where PostgreSQL planned the SQL function's recursive query again for every lookup.
 */
const FORWARDS_OF = `create or replace function mail.forwards_of(address text)
  returns table (destination text) language plpgsql stable as $$
    #variable_conflict use_column
    declare
      start text := lower(address);
      targets text[];
    begin
      -- Most addresses asked are mailboxes, which forward nowhere: one lookup.
      select array_agg(t.destination) into targets from mail.alias_targets(start) t;
      if targets is null then
        return;
      end if;
      if exists (
        with recursive reach (addr, depth) as (
          select t.destination, 1 from unnest(targets) as t(destination) where t.destination <> start
          union
          select t.destination, r.depth + 1 from reach r cross join lateral mail.alias_targets(r.addr) t
          where r.depth < 20 and t.destination <> r.addr
        )
        select 1 from reach where reach.addr = start
      ) then
        return;
      end if;
      return query select t.destination from unnest(targets) as t(destination);
    end $$`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw(ALIAS_TARGETS).execute(db);
  // The return type stays; the language changes: dropped and made again in this transaction.
  await sql.raw('drop function mail.forwards_of(text)').execute(db);
  await sql.raw(FORWARDS_OF).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('drop function mail.forwards_of(text)').execute(db);
  await sql.raw(FORWARDS_OF_BEFORE).execute(db);
  await sql.raw('drop function mail.alias_targets(text)').execute(db);
}
