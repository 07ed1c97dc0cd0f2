import { get } from 'node:https';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * ACME Renewal Information (RFC 9773) beside Debian's Pebble 2.4, which offers none: a directory on
 * loopback that is Pebble's own plus a `renewalInfo` address answered here, from the windows a test
 * sets per certificate identifier (404 for the others, as a CA that does not know the certificate).
 * Every other ACME request goes to Pebble, whose addresses the directory keeps.
 */
export interface RenewalInfo {
  directoryUrl: string;
  /** Answers `id` with this window from now on, and `retryAfter` seconds. */
  setWindow(id: string, window: { start: Date; end: Date }, retryAfter?: number): void;
  /** The identifiers asked for, in order. */
  asked: string[];
  /** How often the directory was read (by ACME orders too). */
  readonly directoryReads: number;
  close(): Promise<void>;
}

export async function startRenewalInfo(pebbleDirectoryUrl: string, pebbleCa: string): Promise<RenewalInfo> {
  const windows = new Map<string, { start: Date; end: Date; retryAfter: number }>();
  const asked: string[] = [];
  let base = '';
  let directoryReads = 0;
  const pebbleDirectory = () =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      get(pebbleDirectoryUrl, { ca: pebbleCa }, (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve(JSON.parse(body) as Record<string, unknown>));
      }).on('error', reject);
    });
  const server: Server = createServer((request, response) => {
    const url = request.url ?? '';
    if (url === '/dir') {
      directoryReads++;
      void pebbleDirectory().then(
        (directory) =>
          response
            .writeHead(200, { 'content-type': 'application/json' })
            .end(JSON.stringify({ ...directory, renewalInfo: `${base}/renewal-info` })),
        () => response.writeHead(502).end(),
      );
      return;
    }
    const id = /^\/renewal-info\/([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)$/.exec(url)?.[1];
    if (!id) return void response.writeHead(404).end();
    asked.push(id);
    const window = windows.get(id);
    if (!window) return void response.writeHead(404, { 'content-type': 'application/problem+json' }).end('{"type":"malformed"}');
    response
      .writeHead(200, { 'content-type': 'application/json', 'retry-after': String(window.retryAfter) })
      .end(JSON.stringify({ suggestedWindow: { start: window.start.toISOString(), end: window.end.toISOString() } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    directoryUrl: `${base}/dir`,
    setWindow: (id, window, retryAfter = 21_600) => void windows.set(id, { ...window, retryAfter }),
    asked,
    get directoryReads() {
      return directoryReads;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
