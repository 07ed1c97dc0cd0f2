import type { UserRow } from '../users/queries.ts';

/**
 * The tenant whose shop an admin manages: a host admin's own; a super admin's, the tenant of the
 * host name they use (they may sign in at any tenant's host).
 */
export const shopTenantOf = (user: Pick<UserRow, 'role' | 'tenant_id'>, requestTenantId: number): number =>
  user.role === 'super_admin' ? requestTenantId : user.tenant_id;
