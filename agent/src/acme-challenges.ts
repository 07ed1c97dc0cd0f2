import { chmodSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type pg from 'pg';
import { acmeAnswer } from './queries.ts';

/** The path an HTTP-01 question asks for (RFC 8555 §8.3); a token is base64url. */
const CHALLENGE_PATH = /^\/\.well-known\/acme-challenge\/([A-Za-z0-9_-]{20,100})$/;

/**
 * Answers a CA's HTTP-01 questions for this server's sites (migration 0038): nginx hands
 * `/.well-known/acme-challenge/` to this listener on a socket in the run directory (agent/src/nginx.ts),
 * which answers the key authorization for the name and token from `web.acme_challenges`, or 404.
 * Never a file: what is answered exists only while the order runs.
 */
export async function startAcmeResponder(pool: pg.Pool, serverId: () => Promise<number>, socket: string): Promise<Server> {
  const server = createServer((request, response) => {
    const token = request.method === 'GET' ? CHALLENGE_PATH.exec((request.url ?? '').split('?')[0] ?? '')?.[1] : undefined;
    // The name the CA asked for, without a port; nginx passes the client's Host on.
    const host = (request.headers.host ?? '').replace(/:\d+$/, '').replace(/\.$/, '').toLowerCase();
    if (!token || !host) return void response.writeHead(404).end();
    serverId()
      .then((id) => acmeAnswer(pool, id, host, token))
      .then(
        (answer) => {
          if (!answer) return void response.writeHead(404).end();
          response.writeHead(200, { 'content-type': 'application/octet-stream', 'cache-control': 'no-store' }).end(answer);
        },
        () => void response.writeHead(503).end(),
      );
  });
  rmSync(socket, { force: true });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socket, () => resolve());
  });
  // nginx's workers run as another user; what the socket answers is public anyway (served over HTTP).
  chmodSync(socket, 0o666);
  return server;
}
