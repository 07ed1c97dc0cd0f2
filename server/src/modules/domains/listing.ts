import type { DomainListItem, DomainSort } from '@berth/contracts';
import { z } from 'zod';
import type { Db } from '../../db/connection.ts';
import { decodeCursor, encodeCursor } from '../../db/keyset.ts';
import { fieldError, HttpError } from '../../http/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { assertAdministeredUser, listTenantScope } from '../tenants/scope.ts';
import type { UserRow } from '../users/queries.ts';
import { toSearchTerm } from './names.ts';
import { presentListItem } from './present.ts';
import { listDomainPage, listMatchPage, type DomainListRow, type DomainPageQuery } from './queries.ts';
import { PAGE_SIZE_MAX } from '@berth/contracts';
import { allPages, csvCell, csvDocument } from '../../lib/csv.ts';

export interface DomainListRequest {
  q?: string | undefined;
  sort: DomainSort;
  cursor?: string | undefined;
  limit: number;
  owner_id?: number | undefined;
  tenant_id?: number | undefined;
}

/** Which part of a search a cursor continues: all rows, the prefix matches, or the "contains" matches after them. */
type Phase = 'all' | 'prefix' | 'contains';
const cursorShape = z.tuple([z.enum(['all', 'prefix', 'contains']), z.string().max(300), z.number().int()]);

/**
 * The domains page: keyset pages by name or expiry, fast at any depth and size. A search lists
 * names starting with the term first (an index range), then names containing it elsewhere.
 */
export class DomainListing {
  private readonly db: Db;
  private readonly clock: Clock;

  constructor(db: Db, clock: Clock) {
    this.db = db;
    this.clock = clock;
  }

  /** The list as CSV (GET /api/host/domain/export.csv): same scope, search and order, every page. */
  async exportCsv(viewer: UserRow, request: Omit<DomainListRequest, 'cursor' | 'limit'>): Promise<string> {
    const rows = await allPages((cursor) => this.list(viewer, { ...request, cursor, limit: PAGE_SIZE_MAX }));
    return csvDocument(
      ['id', 'name', 'name_unicode', 'owner_email', 'owner_name', 'expire_at', 'expired', 'created_at'],
      rows.map((domain) => [
        String(domain.id),
        csvCell(domain.name),
        csvCell(domain.text),
        csvCell(domain.owner.email),
        csvCell(domain.owner.display_name),
        domain.expire_at ?? '',
        domain.expired ? 'yes' : 'no',
        domain.created_at,
      ]),
    );
  }

  async list(viewer: UserRow, request: DomainListRequest): Promise<{ data: DomainListItem[]; next_cursor: string | null }> {
    const scope = await this.scope(viewer, request);
    const sort = request.sort.replace('-', '') as 'name' | 'expire_at';
    const base: Omit<DomainPageQuery, 'limit'> = { ...scope, sort, descending: request.sort.startsWith('-') };
    const now = this.clock.now();
    const done = (rows: DomainListRow[], next: string | null) => ({
      data: rows.map((row) => presentListItem(row, now)),
      next_cursor: next,
    });

    let phase: Phase = 'all';
    let after: readonly [string, number] | undefined;
    if (request.cursor) {
      const [cursorPhase, key, id] = decodeCursor(request.cursor, request.sort, cursorShape);
      phase = cursorPhase;
      // id 0: the start of the "contains" part (no row has id 0).
      after = id === 0 ? undefined : [key, id];
    }
    const term = request.q ? toSearchTerm(request.q) : undefined;
    if (request.q && term === undefined) return done([], null);
    if (term === undefined) {
      if (phase !== 'all') throw fieldError('cursor', 'validation.invalid');
      const page = await this.page({ ...base, after, limit: request.limit }, 'all');
      return done(page.rows, page.next);
    }
    if (phase === 'all') phase = 'prefix';

    const rows: DomainListRow[] = [];
    if (phase === 'prefix') {
      const page = await this.page({ ...base, after, match: { kind: 'prefix', term }, limit: request.limit }, 'prefix');
      if (page.next) return done(page.rows, page.next);
      rows.push(...page.rows);
      after = undefined;
    }
    const contains = { kind: 'contains_not_prefix', term } as const;
    const room = request.limit - rows.length;
    if (room === 0) {
      // The prefix matches ended exactly at the page's end: the next page starts the "contains" part, if any.
      const more = await listMatchPage(this.db, { ...base, limit: 1 }, contains);
      return done(rows, more.length ? encodeCursor(request.sort, ['contains', '', 0]) : null);
    }
    const page = await this.page({ ...base, after, match: contains, limit: room }, 'contains');
    return done([...rows, ...page.rows], page.next);
  }

  private async page(query: DomainPageQuery, phase: Phase): Promise<{ rows: DomainListRow[]; next: string | null }> {
    // A prefix is an index range only in name order; other searches take the bounded two-step way.
    const { match, ...rest } = query;
    const rows =
      match && (match.kind === 'contains_not_prefix' || query.sort !== 'name')
        ? await listMatchPage(this.db, { ...rest, limit: query.limit + 1 }, match)
        : await listDomainPage(this.db, { ...query, limit: query.limit + 1 });
    if (rows.length <= query.limit) return { rows, next: null };
    const page = rows.slice(0, query.limit);
    const last = page[page.length - 1] as DomainListRow;
    const key = query.sort === 'name' ? last.name : last.expire_at === null ? 'infinity' : new Date(last.expire_at).toISOString();
    const sortName = `${query.descending ? '-' : ''}${query.sort}`;
    return { rows: page, next: encodeCursor(sortName, [phase, key, last.id]) };
  }

  /** Customers see their own; admins their tenant (host) or any (super), optionally one owner's. */
  private async scope(viewer: UserRow, request: DomainListRequest): Promise<{ tenantId: number | null; ownerId: number | null }> {
    if (request.owner_id !== undefined) await assertAdministeredUser(this.db, viewer, request.owner_id);
    if (viewer.role === 'customer') {
      if (request.tenant_id !== undefined && request.tenant_id !== viewer.tenant_id) throw new HttpError(404, 'http.not_found');
      return { tenantId: null, ownerId: viewer.id };
    }
    const tenantId = await listTenantScope(this.db, viewer, request.tenant_id);
    // An owner the viewer administers implies the tenant: the owner's index alone answers the page.
    return request.owner_id !== undefined ? { tenantId: null, ownerId: request.owner_id } : { tenantId, ownerId: null };
  }
}
