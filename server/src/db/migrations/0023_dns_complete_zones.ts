import { sql, type Kysely } from 'kysely';

/** pdns.records as of this migration (0028 goes back to it). */
export const RECORDS_VIEW_0023 = `create or replace view pdns.records as
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
    where d.verification_token is null
    union all
    select -(10000000000 + e.id), e.domain_id, e.fqdn, null::text, null::text, null::int, null::int, false, e.ordername,
      not exists (
        select 1 from public.dns_records n
        where n.domain_id = e.domain_id and n.type = 'NS' and n.name <> '@' and not n.disabled
          and right(e.name, length(n.name) + 1) = '.' || n.name
      )
    from public.dns_empty_nonterminals e join public.domains d on d.id = e.domain_id
    where d.verification_token is null`;

/**
 * Zones PowerDNS serves completely and consistently:
 *
 * - **Empty non-terminals.** A name with nothing of its own but names below it (`_tcp` under
 *   `_sip._tcp`, `_domainkey` under `<selector>._domainkey`, `b` under `a.b`) exists: it answers
 *   NOERROR with no data, and in a signed zone it needs its place in the NSEC chain. PowerDNS
 *   learns of such names from rows without a type (what `pdnsutil rectify-zone` writes); Berth
 *   keeps them in `dns_empty_nonterminals`, recomputed per zone by a trigger when its records
 *   change, and serves them through `pdns.records`.
 * - **NS at every apex.** A zone whose apex has no NS records gets the tenant's name servers, else
 *   the platform's (tenant 1); when a tenant's name servers change, the zones that served the old
 *   set (or none) serve the new one, and every zone of the tenant raises its serial, since its SOA
 *   primary changed too.
 */
const statements = [
  `create table public.dns_empty_nonterminals (
    id bigserial primary key,
    domain_id integer not null references public.domains(id) on delete cascade,
    name text collate "C" not null,
    fqdn text collate "C" not null,
    ordername text collate "C" not null,
    unique (domain_id, name)
  )`,
  'create index dns_empty_nonterminals_fqdn on public.dns_empty_nonterminals (fqdn)',
  // Every proper ancestor (below the apex) of a served record's name that has no served record itself.
  `create function public.dns_refresh_empty_nonterminals(zone integer) returns void language sql as $$
    delete from public.dns_empty_nonterminals where domain_id = zone;
    insert into public.dns_empty_nonterminals (domain_id, name, fqdn, ordername)
    select distinct zone, a.name, a.name || '.' || d.name,
      (select string_agg(label, ' ' order by n desc) from unnest(string_to_array(a.name, '.')) with ordinality as l(label, n))
    from public.dns_records r
      join public.domains d on d.id = r.domain_id
      cross join lateral (
        select array_to_string(s.labels[i:], '.') as name
        from (select string_to_array(r.name, '.') as labels) s, generate_series(2, array_length(s.labels, 1)) as i
      ) a
    where r.domain_id = zone and r.name <> '@' and not r.disabled
      and not exists (select 1 from public.dns_records x where x.domain_id = zone and x.name = a.name and not x.disabled);
  $$`,
  `create function public.dns_records_tree_changed() returns trigger language plpgsql as $$
    begin
      if tg_op <> 'INSERT' then perform public.dns_refresh_empty_nonterminals(old.domain_id); end if;
      if tg_op <> 'DELETE' and (tg_op = 'INSERT' or new.domain_id <> old.domain_id) then
        perform public.dns_refresh_empty_nonterminals(new.domain_id);
      end if;
      return null;
    end $$`,
  `create trigger dns_records_tree_changed after insert or delete or update of name, domain_id, disabled on public.dns_records
    for each row execute function public.dns_records_tree_changed()`,
  'select public.dns_refresh_empty_nonterminals(z.domain_id) from public.dns_zones z',
  RECORDS_VIEW_0023,
  // The name servers a tenant's zones start with: its own, else the platform's.
  `create function public.dns_tenant_name_servers(tenant integer) returns jsonb language sql stable as $$
    select coalesce(
      (select t.name_servers from public.tenants t where t.id = tenant and jsonb_array_length(t.name_servers) > 0),
      (select t.name_servers from public.tenants t where t.id = 1 and jsonb_array_length(t.name_servers) > 0),
      '[]'::jsonb)
  $$`,
  // Zones made while their tenant had no name servers.
  `insert into public.dns_records (tenant_id, domain_id, name, type, content, ttl, created_at, updated_at)
    select z.tenant_id, z.domain_id, '@', 'NS', ns.host, 3600, now(), now()
    from public.dns_zones z cross join lateral jsonb_array_elements_text(public.dns_tenant_name_servers(z.tenant_id)) as ns(host)
    where not exists (select 1 from public.dns_records r where r.domain_id = z.domain_id and r.name = '@' and r.type = 'NS')`,
  // When a tenant's name servers change (or the platform's, for the tenants that have none), the
  // zones that served the previous set (or none) serve the new one.
  `create or replace function public.tenants_name_servers_changed() returns trigger language plpgsql as $$
    declare
      platform jsonb := (select t.name_servers from public.tenants t where t.id = 1);
      previous text[];
      zone record;
    begin
      if new.name_servers is not distinct from old.name_servers then return null; end if;
      for zone in
        select z.domain_id, z.tenant_id, t.name_servers as own from public.dns_zones z join public.tenants t on t.id = z.tenant_id
        where z.tenant_id = new.id or (new.id = 1 and jsonb_array_length(t.name_servers) = 0)
      loop
        previous := array(select jsonb_array_elements_text(case
          when zone.tenant_id = new.id and jsonb_array_length(old.name_servers) > 0 then old.name_servers
          when zone.tenant_id = new.id and new.id = 1 then old.name_servers
          when zone.tenant_id = new.id then coalesce(platform, '[]'::jsonb)
          else old.name_servers end) order by 1);
        if array(select r.content from public.dns_records r
                 where r.domain_id = zone.domain_id and r.name = '@' and r.type = 'NS' order by 1) in (previous, '{}'::text[]) then
          delete from public.dns_records r where r.domain_id = zone.domain_id and r.name = '@' and r.type = 'NS';
          insert into public.dns_records (tenant_id, domain_id, name, type, content, ttl, created_at, updated_at)
            select zone.tenant_id, zone.domain_id, '@', 'NS', ns.host, 3600, now(), now()
            from jsonb_array_elements_text(public.dns_tenant_name_servers(zone.tenant_id)) as ns(host);
        end if;
        -- The SOA (its primary) is recomputed by dns_zones_soa (0012); a new serial tells secondaries.
        update public.dns_zones set soa_content = null, serial = serial + 1 where domain_id = zone.domain_id;
      end loop;
      return null;
    end $$`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const statement of [
    `create or replace function public.tenants_name_servers_changed() returns trigger language plpgsql as $$
      begin
        update public.dns_zones set soa_content = null where tenant_id = new.id;
        return null;
      end $$`,
    'drop function public.dns_tenant_name_servers(integer)',
    'drop trigger dns_records_tree_changed on public.dns_records',
    'drop function public.dns_records_tree_changed()',
  ]) {
    await sql.raw(statement).execute(db);
  }
}
