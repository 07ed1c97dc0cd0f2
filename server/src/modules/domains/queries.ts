import { sql, type AliasedSelectQueryBuilder, type Insertable, type RawBuilder, type Updateable } from 'kysely';
import type { Db } from '../../db/connection.ts';
import { escapeLike } from '../../db/keyset.ts';
import type { DomainsTable } from '../../db/schema.ts';
import type { UserRow } from '../users/queries.ts';

/** Every domain query starts here: a customer sees their own, a host admin their tenant's, a super admin all. */
export const visibleDomains = (db: Db, viewer: UserRow) => {
  let query = db.selectFrom('domains');
  if (viewer.role === 'customer') query = query.where('domains.owner_id', '=', viewer.id);
  else if (viewer.role === 'host_admin') query = query.where('domains.tenant_id', '=', viewer.tenant_id);
  return query;
};

/** Live domains (no expiry, or expiring in the future) for the selector, by name. */
export const listLiveDomains = (db: Db, viewer: UserRow, now: Date, limit: number) =>
  visibleDomains(db, viewer)
    .select(['domains.id', 'domains.name', 'domains.expire_at'])
    .where((eb) => eb.or([eb('domains.expire_at', 'is', null), eb('domains.expire_at', '>', now)]))
    .orderBy('domains.name')
    .limit(limit)
    .execute();

export const findVisibleDomain = (db: Db, viewer: UserRow, id: number) =>
  visibleDomains(db, viewer).selectAll('domains').where('domains.id', '=', id).executeTakeFirst();

/* ---- the domains page ---- */

/**
 * A domain's expiry as the expiry indexes hold it (migration 0004): no expiry sorts last. Every
 * query that filters or sorts by expiry uses this expression, so the indexes serve them all.
 */
export const domainExpiryKey = sql<Date>`coalesce(domains.expire_at, 'infinity'::timestamptz)`;

export interface DomainPageQuery {
  /** Already resolved from the viewer's role: null means "any". */
  tenantId: number | null;
  ownerId: number | null;
  sort: 'name' | 'expire_at';
  descending: boolean;
  /** The last row of the previous page: (name or expiry key, id). */
  after?: readonly [string, number] | undefined;
  match?: { kind: 'prefix' | 'contains_not_prefix'; term: string } | undefined;
  limit: number;
}

/** What a domain list shows of each domain and its owner. */
const LISTED_COLUMNS = [
  'domains.id',
  'domains.tenant_id',
  'domains.name',
  'domains.expire_at',
  'domains.created_at',
  'domains.owner_id',
  'domains.verification_token',
  'owner.email as owner_email',
  'owner.given_name as owner_given_name',
  'owner.sn as owner_sn',
] as const;

const withOwner = (db: Db) => db.selectFrom('domains').innerJoin('users as owner', 'owner.id', 'domains.owner_id').select(LISTED_COLUMNS);

export type DomainListRow = Awaited<ReturnType<ReturnType<typeof withOwner>['execute']>>[number];

const likePatterns = (term: string) => ({ prefix: `${escapeLike(term)}%`, anywhere: `%${escapeLike(term)}%` });

/** Scope and cursor of a page query, as one condition on `domains`. */
function scopeCondition(q: DomainPageQuery): RawBuilder<boolean> {
  const parts: RawBuilder<unknown>[] = [sql`true`];
  if (q.tenantId !== null) parts.push(sql`domains.tenant_id = ${q.tenantId}`);
  if (q.ownerId !== null) parts.push(sql`domains.owner_id = ${q.ownerId}`);
  const comparator = sql.raw(q.descending ? '<' : '>');
  if (q.after && q.sort === 'name') parts.push(sql`(domains.name, domains.id) ${comparator} (${q.after[0]}, ${q.after[1]})`);
  if (q.after && q.sort === 'expire_at')
    parts.push(sql`(${domainExpiryKey}, domains.id) ${comparator} (${q.after[0]}::timestamptz, ${q.after[1]})`);
  return sql<boolean>`${sql.join(parts, sql` and `)}`;
}

const sortKeyOf = (table: 'domains' | 'k' | 'w' | 'm', sort: DomainPageQuery['sort']) =>
  sort === 'name' ? sql.ref(`${table}.name`) : sql`coalesce(${sql.ref(`${table}.expire_at`)}, 'infinity'::timestamptz)`;

/**
 * The keys of a page (id and sort columns). The keyset indexes of migration 0004 cover them, so
 * the walk (with its prefix filter) is an index-only scan; the rest of each row is fetched after.
 */
const pageKeys = (db: Db, q: DomainPageQuery, limit: number) => {
  const direction = q.descending ? 'desc' : 'asc';
  return db
    .selectFrom('domains')
    .select(['domains.id', 'domains.name', 'domains.expire_at'])
    .where(scopeCondition(q))
    .orderBy(sortKeyOf('domains', q.sort), direction)
    .orderBy('domains.id', direction)
    .limit(limit);
};

/** Any query answering page keys (a keyset walk, a window of one, a set of matches). */
interface Keys {
  as(alias: 'k'): AliasedSelectQueryBuilder<{ id: number; name: string; expire_at: Date | null }, 'k'>;
}

/** The listed rows of a page's keys, in page order, with their owners. */
const rowsOf = (db: Db, keys: Keys, q: DomainPageQuery) => {
  const direction = q.descending ? 'desc' : 'asc';
  return db
    .selectFrom(keys.as('k'))
    .innerJoin('domains', 'domains.id', 'k.id')
    .innerJoin('users as owner', 'owner.id', 'domains.owner_id')
    .select(LISTED_COLUMNS)
    .orderBy(sortKeyOf('k', q.sort), direction)
    .orderBy('k.id', direction)
    .execute();
};

/** One keyset page: every combination of scope and sort walks one (covering) index of migration 0004. */
export const listDomainPage = (db: Db, q: DomainPageQuery): Promise<DomainListRow[]> => {
  const keys = pageKeys(db, q, q.limit);
  return rowsOf(db, q.match ? keys.where(matchCondition('domains', q.match)) : keys, q);
};

type Match = NonNullable<DomainPageQuery['match']>;

/** The name condition of a search: a prefix, or "contains but does not start with". */
function matchCondition(table: 'domains' | 'w', match: Match): RawBuilder<boolean> {
  const { prefix, anywhere } = likePatterns(match.term);
  const name = sql.ref(`${table}.name`);
  return match.kind === 'prefix'
    ? sql<boolean>`${name} like ${prefix}`
    : sql<boolean>`${name} like ${anywhere} and ${name} not like ${prefix}`;
}

/**
 * A search page whose matches are not an index range in the page's order ("contains" matches;
 * prefix matches sorted by expiry), in two bounded steps, so that neither a common nor a rare
 * term has the planner walk a whole tenant: first the next `window` rows in index order (a
 * common term fills the page there), then, if the page is not full, all matches found by their
 * own index (the name range for a prefix; the trigram index on PostgreSQL with pg_trgm for
 * "contains", elsewhere a scan of the scope), sorted.
 */
export async function listMatchPage(db: Db, q: Omit<DomainPageQuery, 'match'>, match: Match, window = 2000): Promise<DomainListRow[]> {
  const direction = q.descending ? 'desc' : 'asc';
  const near = db
    .selectFrom(pageKeys(db, q, window).as('w'))
    .select(['w.id', 'w.name', 'w.expire_at'])
    .where(matchCondition('w', match))
    .orderBy(sortKeyOf('w', q.sort), direction)
    .orderBy('w.id', direction)
    .limit(q.limit);
  const rows = await rowsOf(db, near, q);
  if (rows.length >= q.limit) return rows;
  const found = db
    .with(
      (cte) => cte('m').materialized(),
      () =>
        db
          .selectFrom('domains')
          .select(['domains.id', 'domains.name', 'domains.expire_at'])
          .where(scopeCondition(q))
          .where(matchCondition('domains', match)),
    )
    .selectFrom('m')
    .select(['m.id', 'm.name', 'm.expire_at'])
    .orderBy(sortKeyOf('m', q.sort), direction)
    .orderBy('m.id', direction)
    .limit(q.limit);
  return rowsOf(db, found, q);
}

export const findDomainDetail = (db: Db, viewer: UserRow, id: number) => {
  let query = withOwner(db)
    // What the web server applied (migration 0030), beside what the panel wants.
    .leftJoin('servers as web_server', 'web_server.id', 'domains.web_server_id')
    .leftJoin('web.site_status as web_status', 'web_status.site_id', 'domains.id')
    .leftJoin('web.server_status as web_server_status', 'web_server_status.server_id', 'domains.web_server_id')
    .select([
      'domains.notes',
      'domains.settings',
      'domains.auto_renew',
      'domains.updated_at',
      'domains.web_revision',
      'web_server.name as web_server',
      'web_server.id as web_server_id',
      'web_status.revision as web_applied_revision',
      'web_status.state as web_state',
      'web_status.error as web_error',
      'web_status.note as web_note',
      'web_status.applied_at as web_applied_at',
      'web_status.disk_bytes as web_disk_bytes',
      'web_status.disk_measured_at as web_disk_measured_at',
      'web_server_status.php_versions as web_php_versions',
      (eb) =>
        eb
          .selectFrom('domain_users')
          .select(eb.fn.countAll<number>().as('n'))
          .whereRef('domain_users.domain_id', '=', 'domains.id')
          .as('user_count'),
      (eb) =>
        eb
          .selectFrom('dns_records')
          .select(eb.fn.countAll<number>().as('n'))
          .whereRef('dns_records.domain_id', '=', 'domains.id')
          .as('record_count'),
    ])
    .where('domains.id', '=', id);
  if (viewer.role === 'customer') query = query.where('domains.owner_id', '=', viewer.id);
  else if (viewer.role === 'host_admin') query = query.where('domains.tenant_id', '=', viewer.tenant_id);
  return query.executeTakeFirst();
};

/** The domain holding a name, with what says whether its claim is proven and how old it is (claims.ts). */
export const findDomainClaim = (db: Db, storedName: string) =>
  db
    .selectFrom('domains')
    .select(['id', 'verification_token', 'created_at'])
    .where(sql<string>`lower(name)`, '=', storedName.toLowerCase())
    .executeTakeFirst();

/** Deletes an unproven claim made before `cutoff`; nothing when it was proven or renewed meanwhile. */
export const deleteLapsedClaim = (db: Db, id: number, cutoff: Date) =>
  db
    .deleteFrom('domains')
    .where('id', '=', id)
    .where('verification_token', 'is not', null)
    .where('created_at', '<=', cutoff)
    .returning(['id', 'name', 'owner_id', 'tenant_id'])
    .executeTakeFirst();

export const findDomainById = (db: Db, id: number) =>
  db.selectFrom('domains').select(['id', 'name', 'owner_id', 'expire_at']).where('id', '=', id).executeTakeFirst();

export const findDomainByName = (db: Db, storedName: string) =>
  db
    .selectFrom('domains')
    .select(['id'])
    .where(sql<string>`lower(name)`, '=', storedName.toLowerCase())
    .executeTakeFirst();

export const insertDomain = (db: Db, values: Insertable<DomainsTable>) =>
  db
    .insertInto('domains')
    .values({ ...values, settings: sql`${JSON.stringify(values.settings ?? {})}::jsonb` } as Insertable<DomainsTable>)
    .returningAll()
    .executeTakeFirstOrThrow();

export const updateDomain = (db: Db, id: number, values: Updateable<DomainsTable>) =>
  db
    .updateTable('domains')
    .set(values.settings ? { ...values, settings: sql`${JSON.stringify(values.settings)}::jsonb` } : values)
    .where('id', '=', id)
    .execute();

/** A domain moved to an owner of another tenant takes its users, zone and records along. */
export async function moveDomainToTenant(db: Db, domainId: number, tenantId: number): Promise<void> {
  await db.updateTable('domain_users').set({ tenant_id: tenantId }).where('domain_id', '=', domainId).execute();
  await db.updateTable('dns_records').set({ tenant_id: tenantId }).where('domain_id', '=', domainId).execute();
  await db.updateTable('dns_zones').set({ tenant_id: tenantId }).where('domain_id', '=', domainId).execute();
}

/** Everything of a domain, children first (the foreign keys cascade too; this says it explicitly). */
export async function deleteDomainWithChildren(db: Db, domainId: number): Promise<number> {
  await db.deleteFrom('dns_records').where('domain_id', '=', domainId).execute();
  await db.deleteFrom('domain_users').where('domain_id', '=', domainId).execute();
  await db.deleteFrom('dns_zones').where('domain_id', '=', domainId).execute();
  await db.deleteFrom('domain_expiry_reminders').where('domain_id', '=', domainId).execute();
  const result = await db.deleteFrom('domains').where('id', '=', domainId).executeTakeFirst();
  return Number(result.numDeletedRows);
}

export const domainIdsOfOwner = (db: Db, ownerId: number) =>
  db.selectFrom('domains').select('id').where('owner_id', '=', ownerId).execute();

/** A domain's expiry, its row locked for the rest of the transaction (a renewal extends it once). */
export const lockDomainExpiry = (db: Db, id: number) =>
  db.selectFrom('domains').select(['id', 'expire_at']).where('id', '=', id).forUpdate().executeTakeFirst();

export const insertDomains = (db: Db, rows: Insertable<DomainsTable>[]) => db.insertInto('domains').values(rows).execute();

/** Marks the domain proven, once: the one request that finds the token still there gets the row. */
export const clearVerificationToken = (db: Db, id: number, token: string) =>
  db
    .updateTable('domains')
    .set({ verification_token: null })
    .where('id', '=', id)
    .where('verification_token', '=', token)
    .returning(['id'])
    .executeTakeFirst();

/** The last lines of a site's logs, as its web server's agent wrote them (migration 0030). */
export const findSiteLogs = (db: Db, siteId: number) =>
  db.selectFrom('web.site_logs').select(['access', 'error', 'updated_at']).where('site_id', '=', siteId).executeTakeFirst();

/** A server that serves websites, by id (migration 0030), or undefined. */
export const findWebServer = (db: Db, id: number) =>
  db
    .selectFrom('servers')
    .select(['id', 'name'])
    .where('id', '=', id)
    .where(sql<boolean>`'web' = any(roles)`)
    .executeTakeFirst();
