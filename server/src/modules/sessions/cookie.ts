import type { FastifyReply, FastifyRequest } from 'fastify';
// request.cookies / reply.setCookie are declared by the plugin's types.
import type {} from '@fastify/cookie';
import { refuseToken } from '../../http/context.ts';

const PLAIN_NAME = 'berth_session';
/** Over HTTPS the `__Host-` prefix pins the cookie to this exact host, path / and Secure. */
const HOST_NAME = '__Host-berth_session';

const isHttps = (request: FastifyRequest): boolean => request.protocol === 'https';

export const sessionCookieName = (request: FastifyRequest): string => (isHttps(request) ? HOST_NAME : PLAIN_NAME);

export function readSessionCookie(request: FastifyRequest): string | undefined {
  const value = request.cookies[sessionCookieName(request)];
  return value && value.length <= 128 ? value : undefined;
}

/** Without remember the cookie has no expiry, so it ends with the browser. */
export function writeSessionCookie(request: FastifyRequest, reply: FastifyReply, token: string, remember: boolean, expiresAt: Date): void {
  // The last line of defence: the steps that sign in refuse a token before they change anything.
  refuseToken(request);
  reply.setCookie(sessionCookieName(request), token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: isHttps(request),
    ...(remember ? { expires: expiresAt } : {}),
  });
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply): void {
  reply.clearCookie(sessionCookieName(request), {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: isHttps(request),
  });
}
