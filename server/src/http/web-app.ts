import type { FastifyInstance } from 'fastify';
import negotiate from '@fastify/accept-negotiator';
import compress from '@fastify/compress';
import fastifyStatic from '@fastify/static';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { translate } from '../i18n/messages.ts';

export const defaultWebDistDir = fileURLToPath(new URL('../../../web/dist/', import.meta.url));

/** Answers smaller than this go out as they are: compressing them costs more than it saves. */
export const COMPRESS_THRESHOLD_BYTES = 1024;

type Encoding = 'br' | 'gzip';
const ENCODINGS: Encoding[] = ['br', 'gzip'];
const SUFFIX: Record<Encoding, string> = { br: 'br', gzip: 'gz' };

/**
 * JSON answers and the index page, compressed per request above COMPRESS_THRESHOLD_BYTES with
 * @fastify/compress's defaults (brotli at a low quality: the build's level 11 would cost more
 * time than it saves). Registered before the routes so its hook covers all of them.
 */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(compress, { global: true, threshold: COMPRESS_THRESHOLD_BYTES, encodings: ENCODINGS });
}

/**
 * Built assets live under /admin/ (hashed names, cached for a year and never asked for again);
 * every other GET that is not an API call answers the SPA's index.html, which the router then
 * matches and the browser revalidates (ETag) on each visit. Assets go out as the brotli or gzip
 * copy written at build time (web/vite.config.ts) when the browser accepts it; JSON answers and
 * the index page are compressed on the fly (registerCompression, before any route).
 */
export async function registerWebApp(app: FastifyInstance, distDir: string): Promise<void> {
  const indexPath = `${distDir}/index.html`;
  const indexHtml = existsSync(indexPath) ? readFileSync(indexPath, 'utf8') : undefined;
  // The build's own compressed copies (the not-found handler is no route: the compression hook skips it).
  const indexCompressed = new Map<Encoding, Buffer>();
  for (const encoding of ENCODINGS) {
    if (existsSync(`${indexPath}.${SUFFIX[encoding]}`)) indexCompressed.set(encoding, readFileSync(`${indexPath}.${SUFFIX[encoding]}`));
  }
  const indexEtag = indexHtml ? `"${createHash('sha256').update(indexHtml).digest('base64url').slice(0, 27)}"` : undefined;

  if (existsSync(distDir)) {
    await app.register(fastifyStatic, {
      root: distDir,
      prefix: '/admin/',
      index: false,
      wildcard: true,
      preCompressed: true,
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
    if (!indexHtml || !indexEtag) {
      return reply.code(503).type('text/plain').send('The web app is not built yet: run `npm run build`.');
    }
    // The reset page's URL holds a token: it must not leak to any other site as a Referer.
    if (request.url.startsWith('/password/reset/')) reply.header('referrer-policy', 'no-referrer');
    reply.header('cache-control', 'no-cache').header('etag', indexEtag);
    if (request.headers['if-none-match'] === indexEtag) return reply.code(304).send();
    reply.type('text/html; charset=utf-8').header('vary', 'accept-encoding');
    const encoding = negotiate(request.headers['accept-encoding'] ?? '', ENCODINGS);
    const compressed = encoding ? indexCompressed.get(encoding) : undefined;
    if (encoding && compressed) return reply.header('content-encoding', encoding).send(compressed);
    return reply.send(indexHtml);
  });
}
