import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Ability } from '@berth/contracts';
import { requireUser } from '../../http/context.ts';
import { HttpError } from '../../http/errors.ts';
import type { ResolvedTenant } from '../tenants/service.ts';
import type { UserRow } from '../users/queries.ts';
import { abilitiesOf, may, tenantKind } from './table.ts';

/**
 * The kind of tenant a request's user acts on: the tenant of the host name they are signed in at
 * (a host admin's and a customer's own; a super admin may sign in at any).
 */
const kindOf = (tenant: ResolvedTenant) => tenantKind({ id: tenant.id, host_purchases: tenant.config.host_purchases });

export const userMay = (user: Pick<UserRow, 'role'>, tenant: ResolvedTenant, ability: Ability): boolean =>
  may(user.role, kindOf(tenant), ability);

export const abilitiesFor = (user: Pick<UserRow, 'role'>, tenant: ResolvedTenant): Ability[] => abilitiesOf(user.role, kindOf(tenant));

/** preHandler: a signed-in user (requireUser) whom the policy table allows `ability` on this tenant; else 403. */
export function requireAbility(ability: Ability) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    await requireUser(request, reply);
    const user = request.auth?.user;
    if (!user || !userMay(user, request.tenant, ability)) throw new HttpError(403, 'http.forbidden');
  };
}
