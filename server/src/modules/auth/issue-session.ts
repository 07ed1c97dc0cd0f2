import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SessionData } from '@berth/contracts';
import { abilitiesFor } from '../policy/guard.ts';
import { refuseToken } from '../../http/context.ts';
import { readSessionCookie, writeSessionCookie } from '../sessions/cookie.ts';
import { secondFactorMissing } from '../twofactor/policy.ts';
import type { NewSessionRow, SessionService } from '../sessions/service.ts';
import { toPublicTenant } from '../tenants/service.ts';
import { presentUser } from '../users/present.ts';
import type { UserRow } from '../users/queries.ts';

/**
 * Every step that signs someone in (password, second factor, reset, OTP, registration) ends here:
 * the browser's previous session is destroyed and a new id issued, so an id known before a login
 * step is worthless after it.
 */
export async function issueSession(
  sessions: SessionService,
  request: FastifyRequest,
  reply: FastifyReply,
  user: UserRow,
  options: {
    remember: boolean;
    twoFactorPending: boolean;
    /** Writes the session's row with work of its own in one statement (the password step, auth/service.ts). */
    write?: (row: NewSessionRow) => Promise<unknown>;
  },
): Promise<SessionData> {
  refuseToken(request);
  const previous = readSessionCookie(request);
  if (previous) await sessions.destroy(previous);
  const { token, expiresAt, row } = sessions.prepare({
    userId: user.id,
    tenantId: request.tenant.id,
    remember: options.remember,
    twoFactorPending: options.twoFactorPending,
    ip: request.ip,
    userAgent: request.headers['user-agent'] ?? null,
  });
  await (options.write ? options.write(row) : sessions.write(row));
  writeSessionCookie(request, reply, token, options.remember, expiresAt);
  if (options.twoFactorPending) return { status: 'two_factor_required' };
  return {
    status: 'authenticated',
    user: { ...presentUser(user), two_factor_setup_required: secondFactorMissing(user, request.tenant) },
    tenant: toPublicTenant(request.tenant),
    abilities: abilitiesFor(user, request.tenant),
  };
}
