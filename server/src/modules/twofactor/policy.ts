import type { ResolvedTenant } from '../tenants/service.ts';
import type { UserRow } from '../users/queries.ts';

/**
 * Whether the provider requires a second factor of `user` that it has not set up (TOTP or a passkey): customers by
 * their tenant's setting, host and super admins by the operator's "for all admins"
 * (modules/security). Applied to every request by http/context.ts, and told at login.
 */
export const secondFactorMissing = (
  user: Pick<UserRow, 'google2fa_enabled' | 'passkey_enabled' | 'role'>,
  tenant: ResolvedTenant,
): boolean =>
  !user.google2fa_enabled &&
  !user.passkey_enabled &&
  (user.role === 'customer' ? tenant.two_factor_policy.customers : tenant.two_factor_policy.admins);
