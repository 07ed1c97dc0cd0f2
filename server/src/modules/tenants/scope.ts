import type { Db } from '../../db/connection.ts';
import { HttpError } from '../../http/errors.ts';
import { findUserById, type UserRow } from '../users/queries.ts';
import { findTenantById } from './queries.ts';

export const isAdmin = (user: Pick<UserRow, 'role'>): boolean => user.role === 'host_admin' || user.role === 'super_admin';

/** Customers may not enter the admin areas at all: 403, before any id is looked at. */
export function assertAdmin(user: Pick<UserRow, 'role'>): void {
  if (!isAdmin(user)) throw new HttpError(403, 'http.forbidden');
}

export function assertSuperAdmin(user: Pick<UserRow, 'role'>): void {
  if (user.role !== 'super_admin') throw new HttpError(403, 'http.forbidden');
}

/**
 * The tenant an admin's list is limited to: a host admin's own (asking for another tenant answers
 * 404, like any foreign id), for a super admin the one asked for, or every tenant (null).
 */
export function adminTenantScope(viewer: Pick<UserRow, 'role' | 'tenant_id'>, requested: number | undefined): number | null {
  if (viewer.role === 'super_admin') return requested ?? null;
  if (requested !== undefined && requested !== viewer.tenant_id) throw new HttpError(404, 'http.not_found');
  return viewer.tenant_id;
}

/** adminTenantScope for lists: a tenant asked for must exist, or the answer is 404 for super admins too. */
export async function listTenantScope(
  db: Db,
  viewer: Pick<UserRow, 'role' | 'tenant_id'>,
  requested: number | undefined,
): Promise<number | null> {
  const scope = adminTenantScope(viewer, requested);
  if (requested !== undefined && viewer.role === 'super_admin' && !(await findTenantById(db, requested)))
    throw new HttpError(404, 'http.not_found');
  return scope;
}

/** A user an admin filters by must be one they administer (customers: only themselves); else 404. */
export async function assertAdministeredUser(db: Db, viewer: UserRow, userId: number): Promise<void> {
  if (userId === viewer.id) return;
  const user = viewer.role === 'customer' ? undefined : await findUserById(db, userId);
  if (!user || !administers(viewer, user.tenant_id)) throw new HttpError(404, 'http.not_found');
}

/** Whether an admin may act on something of `tenantId` (customers never may). */
export const administers = (viewer: Pick<UserRow, 'role' | 'tenant_id'>, tenantId: number): boolean =>
  viewer.role === 'super_admin' || (viewer.role === 'host_admin' && viewer.tenant_id === tenantId);

export const displayNameOf = (row: { email: string | null; given_name: string | null; sn: string | null }): string =>
  [row.given_name, row.sn].filter(Boolean).join(' ') || (row.email ?? '');

export const iso = (value: Date | string): string => new Date(value).toISOString();
export const isoOrNull = (value: Date | string | null): string | null => (value === null ? null : iso(value));
