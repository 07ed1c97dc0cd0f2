import { sql, type Kysely } from 'kysely';

/** pdns.domains as of this migration (0028 goes back to it). */
export const DOMAINS_VIEW_0025 = `create or replace view pdns.domains as
    select z.domain_id as id, z.name, null::varchar(128) as master, null::int as last_check,
      (case when jsonb_array_length(t.dns_secondaries) > 0 then 'MASTER' else 'NATIVE' end)::text as type,
      n.serial as notified_serial, null::varchar(40) as account, null::text as options, null::text as catalog
    from public.dns_zones z
      join public.domains d on d.id = z.domain_id
      join public.tenants t on t.id = z.tenant_id
      left join pdns.zone_notified n on n.domain_id = z.domain_id
    where d.verification_token is null`;

/**
 * Secondary name servers a tenant names (its own, or a provider's): their zones are served as
 * primary zones (`MASTER`), every change (a new serial) is announced to the secondaries with a
 * NOTIFY, and they, and only they, may transfer the zone (AXFR). PowerDNS reads who they are from
 * its zone metadata (ALSO-NOTIFY, ALLOW-AXFR-FROM), kept by triggers from the tenant's list, and
 * remembers the serial it last announced in `pdns.zone_notified` through the view (an INSTEAD OF
 * trigger: the view itself holds nothing).
 */
const statements = [
  `alter table public.tenants add column dns_secondaries jsonb not null default '[]'::jsonb`,
  `create table pdns.zone_notified (
    domain_id integer primary key references public.domains(id) on delete cascade,
    serial bigint not null
  )`,
  DOMAINS_VIEW_0025,
  // PowerDNS's update-serial-query (update domains set notified_serial=$1 where id=$2), and nothing else.
  `create function pdns.domains_notified() returns trigger language plpgsql security definer set search_path = pg_catalog as $$
    begin
      insert into pdns.zone_notified (domain_id, serial) values (old.id, new.notified_serial)
        on conflict (domain_id) do update set serial = excluded.serial;
      return new;
    end $$`,
  'create trigger domains_notified instead of update on pdns.domains for each row execute function pdns.domains_notified()',
  // `192.0.2.53`, `192.0.2.53:5300`, `2001:db8::53`, `[2001:db8::53]:5300`: the address alone (AXFR
  // is allowed from it), and as written (NOTIFY goes there).
  `create function public.dns_server_address(server text) returns text language sql immutable as $$
    select case
      when server like '[%' then substring(server from 2 for position(']' in server) - 2)
      when server ~ '^[^:]+:[0-9]+$' then split_part(server, ':', 1)
      else server end
  $$`,
  `create function public.dns_transfer_metadata(zone integer) returns void language sql as $$
    delete from pdns.domainmetadata where domain_id = zone and kind in ('ALSO-NOTIFY', 'ALLOW-AXFR-FROM');
    insert into pdns.domainmetadata (domain_id, kind, content)
      select zone, k.kind, case when k.kind = 'ALSO-NOTIFY' then s.server else public.dns_server_address(s.server) end
      from public.dns_zones z
        join public.tenants t on t.id = z.tenant_id
        cross join jsonb_array_elements_text(t.dns_secondaries) as s(server)
        cross join (values ('ALSO-NOTIFY'), ('ALLOW-AXFR-FROM')) as k(kind)
      where z.domain_id = zone;
  $$`,
  `create function public.dns_zones_transfer() returns trigger language plpgsql as $$
    begin
      perform public.dns_transfer_metadata(new.domain_id);
      return null;
    end $$`,
  'create trigger dns_zones_transfer after insert on public.dns_zones for each row execute function public.dns_zones_transfer()',
  `create function public.tenants_secondaries_changed() returns trigger language plpgsql as $$
    begin
      if new.dns_secondaries is distinct from old.dns_secondaries then
        perform public.dns_transfer_metadata(z.domain_id) from public.dns_zones z where z.tenant_id = new.id;
      end if;
      return null;
    end $$`,
  `create trigger tenants_secondaries_changed after update of dns_secondaries on public.tenants
    for each row execute function public.tenants_secondaries_changed()`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const statement of [
    'drop trigger tenants_secondaries_changed on public.tenants',
    'drop function public.tenants_secondaries_changed()',
    'drop trigger dns_zones_transfer on public.dns_zones',
    'drop function public.dns_zones_transfer()',
    'drop function public.dns_transfer_metadata(integer)',
    'drop function public.dns_server_address(text)',
    'drop trigger domains_notified on pdns.domains',
    'drop function pdns.domains_notified()',
  ]) {
    await sql.raw(statement).execute(db);
  }
}
