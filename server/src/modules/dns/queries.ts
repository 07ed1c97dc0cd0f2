import { OPERATOR_TENANT_ID } from '@berth/contracts';
import type { ZoneDefaults } from './default-zone.ts';
import { sql, type Insertable, type Updateable } from 'kysely';
import type { Db } from '../../db/connection.ts';
import type { DkimKeysTable, DnsRecordsTable } from '../../db/schema.ts';

export const findZone = (db: Db, domainId: number) =>
  db.selectFrom('dns_zones').select(['serial', 'updated_at']).where('domain_id', '=', domainId).executeTakeFirst();

export const insertZone = (db: Db, values: { domain_id: number; tenant_id: number; serial: number; updated_at: Date }) =>
  db.insertInto('dns_zones').values(values).execute();

/**
 * Bumps the zone's serial and locks its row until the transaction ends, so changes to one zone
 * (and their CNAME checks) happen one after another. A zone without a row gets one.
 */
export const bumpZoneSerial = async (
  db: Db,
  zone: { domainId: number; tenantId: number; firstSerial: number; dailyBase: number; now: Date },
): Promise<number> => {
  const row = await db
    .insertInto('dns_zones')
    .values({ domain_id: zone.domainId, tenant_id: zone.tenantId, serial: zone.firstSerial, updated_at: zone.now })
    .onConflict((oc) =>
      oc.column('domain_id').doUpdateSet({
        serial: sql`greatest(dns_zones.serial + 1, ${zone.dailyBase}::bigint)`,
        updated_at: zone.now,
      }),
    )
    .returning('serial')
    .executeTakeFirstOrThrow();
  return Number(row.serial);
};

export const listRecords = (db: Db, domainId: number) =>
  db
    .selectFrom('dns_records')
    .selectAll()
    .where('domain_id', '=', domainId)
    .orderBy(sql`name = '@'`, 'desc')
    .orderBy('name')
    .orderBy('type')
    .orderBy('priority')
    .orderBy('id')
    .execute();

export const findRecord = (db: Db, domainId: number, recordId: number) =>
  db.selectFrom('dns_records').selectAll().where('domain_id', '=', domainId).where('id', '=', recordId).executeTakeFirst();

export const countRecords = async (db: Db, domainId: number): Promise<number> => {
  const row = await db
    .selectFrom('dns_records')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('domain_id', '=', domainId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
};

/** The records at one owner name, but one (the record being edited). */
export const recordsAtName = (db: Db, domainId: number, name: string, exceptId: number | null) => {
  let query = db.selectFrom('dns_records').select(['id', 'type', 'content']).where('domain_id', '=', domainId).where('name', '=', name);
  if (exceptId !== null) query = query.where('id', '!=', exceptId);
  return query.execute();
};

export const insertRecord = (db: Db, values: Insertable<DnsRecordsTable>) =>
  db.insertInto('dns_records').values(values).returningAll().executeTakeFirstOrThrow();

export const insertRecords = async (db: Db, values: Insertable<DnsRecordsTable>[]) => {
  if (values.length) await db.insertInto('dns_records').values(values).execute();
};

export const updateRecord = (db: Db, domainId: number, recordId: number, values: Updateable<DnsRecordsTable>) =>
  db
    .updateTable('dns_records')
    .set(values)
    .where('domain_id', '=', domainId)
    .where('id', '=', recordId)
    .returningAll()
    .executeTakeFirstOrThrow();

export const deleteRecord = async (db: Db, domainId: number, recordId: number): Promise<number> => {
  const result = await db.deleteFrom('dns_records').where('domain_id', '=', domainId).where('id', '=', recordId).executeTakeFirst();
  return Number(result.numDeletedRows);
};

/** The name servers of a tenant's zones: its own, else the platform's (migration 0023). */
export const tenantNameServers = async (db: Db, tenantId: number): Promise<string[]> => {
  const { rows } = await sql<{ servers: string[] }>`select public.dns_tenant_name_servers(${tenantId}) as servers`.execute(db);
  return rows[0]?.servers ?? [];
};

/**
 * What the tenant's new zones start from (modules/dns/default-zone.ts): its own name servers and
 * hosting server's addresses, else the platform's (the operator tenant's, as for name servers in
 * migration 0023), so that every new zone has an address for its mail host.
 */
export const tenantZoneDefaults = async (db: Db, tenantId: number): Promise<ZoneDefaults> => {
  const row = await db
    .selectFrom('tenants as t')
    .leftJoin('tenants as platform', (join) => join.on('platform.id', '=', OPERATOR_TENANT_ID))
    .select([
      sql<string | null>`case when t.hosting_ipv4 is null and t.hosting_ipv6 is null then platform.hosting_ipv4 else t.hosting_ipv4 end`.as(
        'ipv4',
      ),
      sql<string | null>`case when t.hosting_ipv4 is null and t.hosting_ipv6 is null then platform.hosting_ipv6 else t.hosting_ipv6 end`.as(
        'ipv6',
      ),
      sql<string[]>`public.dns_tenant_name_servers(t.id)`.as('name_servers'),
    ])
    .where('t.id', '=', tenantId)
    .executeTakeFirst();
  return { nameServers: row?.name_servers ?? [], ipv4: row?.ipv4 ?? null, ipv6: row?.ipv6 ?? null };
};

/** The zone's DNSSEC keys, oldest first (PowerDNS signs with every active one). */
export const listSigningKeys = (db: Db, domainId: number) =>
  db
    .selectFrom('pdns.cryptokeys')
    .select(['id', 'flags', 'content'])
    .where('domain_id', '=', domainId)
    .where('active', '=', true)
    .orderBy('id')
    .execute();

export const insertSigningKey = (db: Db, domainId: number, flags: number, content: string) =>
  db.insertInto('pdns.cryptokeys').values({ domain_id: domainId, flags, active: true, published: true, content }).execute();

export const deleteSigningKeys = async (db: Db, domainId: number): Promise<number> => {
  const result = await db.deleteFrom('pdns.cryptokeys').where('domain_id', '=', domainId).executeTakeFirst();
  return Number(result.numDeletedRows);
};

/** The domain's DKIM key, public half only (the private one is read only by a signer). */
export const findDkimKey = (db: Db, domainId: number) =>
  db
    .selectFrom('dkim_keys')
    .select(['selector', 'public_key', 'next_selector', 'next_signs_at', 'old_selector', 'old_removed_at'])
    .where('domain_id', '=', domainId)
    .executeTakeFirst();

/** Publishes a next key beside the signing one, unless a rotation is under way (the first of two at once wins). */
export const startDkimRotation = async (
  db: Db,
  domainId: number,
  next: { selector: string; publicKey: string; sealedPrivateKey: string; signsAt: Date },
): Promise<boolean> => {
  const row = await db
    .updateTable('dkim_keys')
    .set({
      next_selector: next.selector,
      next_public_key: next.publicKey,
      next_private_key: next.sealedPrivateKey,
      next_signs_at: next.signsAt,
    })
    .where('domain_id', '=', domainId)
    .where('next_selector', 'is', null)
    .where('old_selector', 'is', null)
    .returning('domain_id')
    .executeTakeFirst();
  return row !== undefined;
};

/** Domains whose next key signs from now, or whose old key's record is due to go. */
export const dueDkimRotations = (db: Db, now: Date) =>
  db
    .selectFrom('dkim_keys as k')
    .innerJoin('domains as d', 'd.id', 'k.domain_id')
    .select(['d.id', 'd.tenant_id', 'd.created_at', 'd.name'])
    .where((eb) => eb.or([eb('k.next_signs_at', '<=', now), eb('k.old_removed_at', '<=', now)]))
    .orderBy('d.id')
    .limit(500)
    .execute();

/** The next key becomes the signing one, the signing one the old (published until `removeAt`); answers the new selector. */
export const switchDkimKey = async (db: Db, domainId: number, now: Date, removeAt: Date): Promise<string | null> => {
  const row = await db
    .updateTable('dkim_keys')
    .set((eb) => ({
      old_selector: eb.ref('selector'),
      old_removed_at: removeAt,
      selector: sql<string>`next_selector`,
      public_key: sql<string>`next_public_key`,
      private_key: sql<string>`next_private_key`,
      next_selector: null,
      next_public_key: null,
      next_private_key: null,
      next_signs_at: null,
    }))
    .where('domain_id', '=', domainId)
    .where('next_signs_at', '<=', now)
    .returning('selector')
    .executeTakeFirst();
  return row?.selector ?? null;
};

/** The old key is forgotten once its record may go; answers its selector. */
export const forgetOldDkimKey = async (db: Db, domainId: number, now: Date): Promise<string | null> => {
  const row = await db
    .updateTable('dkim_keys as k')
    .set({ old_selector: null, old_removed_at: null })
    .from('dkim_keys as was')
    .whereRef('was.domain_id', '=', 'k.domain_id')
    .where('k.domain_id', '=', domainId)
    .where('k.old_removed_at', '<=', now)
    .returning('was.old_selector')
    .executeTakeFirst();
  return row?.old_selector ?? null;
};

/** Every DKIM key's sealed private half: for sealing them again under the signer's key (DnsService.sealDkimKeys). */
export const listDkimPrivateKeys = (db: Db) => db.selectFrom('dkim_keys').select(['domain_id', 'private_key']).execute();

/** A key's private half sealed anew, unless it changed meanwhile. */
export const resealDkimKey = (db: Db, domainId: number, was: string, sealed: string) =>
  db.updateTable('dkim_keys').set({ private_key: sealed }).where('domain_id', '=', domainId).where('private_key', '=', was).execute();

/** Stores a key unless the domain has one: the first of two simultaneous requests wins. */
export const insertDkimKey = async (db: Db, values: Insertable<DkimKeysTable>): Promise<boolean> => {
  const row = await db
    .insertInto('dkim_keys')
    .values(values)
    .onConflict((oc) => oc.column('domain_id').doNothing())
    .returning('domain_id')
    .executeTakeFirst();
  return row !== undefined;
};
