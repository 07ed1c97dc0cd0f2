import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { translate } from '../i18n/messages.ts';

export const defaultWebDistDir = fileURLToPath(new URL('../../../web/dist/', import.meta.url));

/**
 * Built assets live under /admin/ (hashed names, cached for a year); every other GET that is not
 * an API call answers the SPA's index.html, which the router then matches.
 */
export async function registerWebApp(app: FastifyInstance, distDir: string): Promise<void> {
  const indexPath = `${distDir}/index.html`;
  const indexHtml = existsSync(indexPath) ? readFileSync(indexPath, 'utf8') : undefined;

  if (existsSync(distDir)) {
    await app.register(fastifyStatic, {
      root: distDir,
      prefix: '/admin/',
      index: false,
      wildcard: true,
      setHeaders: (res, path) => {
        res.header('cache-control', path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }

  app.setNotFoundHandler((request, reply) => {
    const isPage =
      (request.method === 'GET' || request.method === 'HEAD') &&
      !request.url.startsWith('/api/') &&
      request.url !== '/api' &&
      !request.url.startsWith('/admin/');
    if (!isPage) return reply.code(404).send({ message: translate(request.lang, 'http.not_found') });
    if (!indexHtml) {
      return reply.code(503).type('text/plain').send('The web app is not built yet: run `npm run build`.');
    }
    // The reset page's URL holds a token: it must not leak to any other site as a Referer.
    if (request.url.startsWith('/password/reset/')) reply.header('referrer-policy', 'no-referrer');
    return reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(indexHtml);
  });
}
