import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SessionData } from '@berth/contracts';
import { abilitiesFor } from '../policy/guard.ts';
import type { Db } from '../../db/connection.ts';
import { authedUser, refuseToken } from '../../http/context.ts';
import { HttpError } from '../../http/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { sha256 } from '../../lib/tokens.ts';
import type { Actor, AuditService } from '../audit/service.ts';
import type { RealtimeHub } from '../realtime/hub.ts';
import { clearSessionCookie, readSessionCookie, writeSessionCookie } from '../sessions/cookie.ts';
import type { SessionService } from '../sessions/service.ts';
import { administers, isAdmin } from '../tenants/scope.ts';
import { toPublicTenant } from '../tenants/service.ts';
import { presentUser } from '../users/present.ts';
import { findUserById, type UserRow } from '../users/queries.ts';
import { findImpersonation, insertImpersonation } from './queries.ts';

/**
 * "Log in as customer": the admin's session is replaced by one of the customer's that remembers
 * the admin, so the shell can show a banner and the way back, and the audit log names both.
 * Rotating (instead of switching inside one session) keeps every existing session rule intact.
 */
export class ImpersonationService {
  private readonly deps: { db: Db; clock: Clock; sessions: SessionService; audit: AuditService; realtime: RealtimeHub };

  constructor(deps: ImpersonationService['deps']) {
    this.deps = deps;
  }

  /** The request's user as the author of a change (with the admin behind them, if any, read with the session). */
  async actor(request: FastifyRequest): Promise<Actor> {
    const { user, impersonator } = authedUser(request);
    return { user, ip: request.ip, impersonatorId: impersonator?.id ?? null };
  }

  async start(request: FastifyRequest, reply: FastifyReply, customerId: number): Promise<SessionData> {
    refuseToken(request);
    const { user: admin, session } = authedUser(request);
    const customer = await findUserById(this.deps.db, customerId);
    if (!customer || customer.role !== 'customer' || !administers(admin, customer.tenant_id)) throw new HttpError(404, 'http.not_found');
    if (customer.locked_at) throw new HttpError(422, 'customer.locked_no_login');
    const { user } = await this.rotate(request, reply, customer, {
      remember: false,
      impersonator: { id: admin.id, remember: session.remember },
    });
    await this.deps.audit.record({
      action: 'impersonation.started',
      tenantId: customer.tenant_id,
      userId: admin.id,
      ip: request.ip,
      target: { type: 'user', id: customer.id },
      data: { customer_email: customer.email },
    });
    return {
      status: 'authenticated',
      user: presentUser(user),
      tenant: toPublicTenant(request.tenant),
      abilities: abilitiesFor(user, request.tenant),
    };
  }

  /** Back to the admin's own (new) session. */
  async stop(request: FastifyRequest, reply: FastifyReply): Promise<SessionData> {
    refuseToken(request);
    const { user: customer, session } = authedUser(request);
    const marker = await findImpersonation(this.deps.db, session.idHash);
    if (!marker) throw new HttpError(409, 'impersonation.not_active');
    const admin = await findUserById(this.deps.db, marker.impersonator_id);
    if (!admin || admin.locked_at || !isAdmin(admin) || !administers(admin, customer.tenant_id)) {
      // The admin lost the right meanwhile: end the borrowed session rather than hand back a login.
      await this.deps.sessions.destroy(readSessionCookie(request) ?? '');
      this.deps.realtime.endSession(session.idHash);
      clearSessionCookie(request, reply);
      throw new HttpError(401, 'auth.unauthenticated');
    }
    await this.rotate(request, reply, admin, { remember: marker.impersonator_remember });
    await this.deps.audit.record({
      action: 'impersonation.stopped',
      tenantId: customer.tenant_id,
      userId: admin.id,
      ip: request.ip,
      target: { type: 'user', id: customer.id },
      data: { customer_email: customer.email },
    });
    return {
      status: 'authenticated',
      user: presentUser(admin),
      tenant: toPublicTenant(request.tenant),
      abilities: abilitiesFor(admin, request.tenant),
    };
  }

  private async rotate(
    request: FastifyRequest,
    reply: FastifyReply,
    user: UserRow,
    options: { remember: boolean; impersonator?: { id: number; remember: boolean } },
  ): Promise<{ user: UserRow }> {
    const { sessions, realtime, db, clock } = this.deps;
    const previous = readSessionCookie(request);
    if (previous) {
      await sessions.destroy(previous);
      realtime.endSession(sha256(previous));
    }
    const { token, expiresAt } = await sessions.create({
      userId: user.id,
      tenantId: request.tenant.id,
      remember: options.remember,
      ip: request.ip,
      userAgent: request.headers['user-agent'] ?? null,
    });
    if (options.impersonator) {
      await insertImpersonation(db, {
        session_id_hash: sha256(token),
        impersonator_id: options.impersonator.id,
        impersonator_remember: options.impersonator.remember,
        started_at: clock.now(),
      });
    }
    writeSessionCookie(request, reply, token, options.remember, expiresAt);
    return { user };
  }
}
