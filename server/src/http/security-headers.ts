import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';

/**
 * Scripts and styles only from our own origin, never inline: the web build writes Mantine's theme
 * variables into a static stylesheet instead of a runtime <style> (docs/decisions/0002).
 */
export async function registerSecurityHeaders(app: FastifyInstance): Promise<void> {
  // helmet's middleware built once: @fastify/helmet builds it again on every request (3% of a
  // GET /api/user in the bench's profile). It sets its headers on the raw response; a route that
  // sets one of them itself (the API docs' CSP) overrides it.
  const setHeaders = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'"],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    // Sent below, and only over HTTPS: over plain HTTP browsers ignore it, and it would tell a
    // local `npm start` to insist on an HTTPS localhost.
    strictTransportSecurity: false,
  });
  app.addHook('onRequest', (request, reply, done) => {
    setHeaders(request.raw, reply.raw, (error?: unknown) => done(error instanceof Error ? error : undefined));
  });

  app.addHook('onSend', async (request, reply) => {
    if (request.protocol === 'https') reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
    // API answers carry personal data (a user, an invoice, a CSV export): no cache, shared or
    // private, may keep them. Answers meant to be cached (logos, avatars) say so themselves.
    if (request.url.startsWith('/api/') && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
  });
}
