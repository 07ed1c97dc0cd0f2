import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** The headers helmet sets with `options`, read off one run of its middleware. */
function helmetHeaders(options: Parameters<typeof helmet>[0]): [string, string][] {
  const set: [string, string][] = [];
  const response = {
    setHeader: (name: string, value: string | number) => void set.push([name, String(value)]),
    // Its X-Powered-By removal: Node's server never sets that header.
    removeHeader: () => undefined,
  };
  let failure: unknown;
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, (error?: unknown) => (failure = error));
  if (failure) throw failure instanceof Error ? failure : new Error(String(failure));
  return set;
}

/**
 * Scripts and styles only from our own origin, never inline: the web build writes Mantine's theme
 * variables into a static stylesheet instead of a runtime <style> (docs/decisions/0002).
 */
export async function registerSecurityHeaders(app: FastifyInstance): Promise<void> {
  // helmet's headers worked out once: @fastify/helmet builds its middleware again on every request
  // (3% of a GET /api/user in the bench's profile) and helmet's own middleware recomputes the CSP
  // each time; with these fixed options its answer is the same for every request. Set on the raw
  // response, so a route that sets one of them itself (the API docs' CSP) overrides it.
  const headers = helmetHeaders({
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
  app.addHook('onRequest', (_request, reply, done) => {
    for (const [name, value] of headers) reply.raw.setHeader(name, value);
    done();
  });

  app.addHook('onSend', async (request, reply) => {
    if (request.protocol === 'https') reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
    // API answers carry personal data (a user, an invoice, a CSV export): no cache, shared or
    // private, may keep them. Answers meant to be cached (logos, avatars) say so themselves.
    if (request.url.startsWith('/api/') && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
  });
}
