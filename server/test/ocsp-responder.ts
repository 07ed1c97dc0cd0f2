import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * An OCSP responder for the certificates a test CA issues, on loopback: each POSTed request is
 * answered by Debian's `openssl ocsp` as the responder (`-reqin`/`-respout`), signed with the
 * issuer's key, the status coming from `statusOf(serial)` ("good", "revoked" or unknown) at that
 * moment. Pebble names it in its certificates (`ocspResponderURL`); Pebble runs none of its own.
 */
export interface OcspResponder {
  url: string;
  /** How many requests it answered. */
  requests(): number;
  close(): Promise<void>;
}

export async function startOcspResponder(
  dir: string,
  signer: () => Promise<{ certificate: string; key: string }>,
  statusOf: (serialHex: string) => Promise<'good' | 'revoked' | 'unknown'>,
): Promise<OcspResponder> {
  let answered = 0;
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const work = mkdtempSync(path.join(dir, 'ocsp-'));
      const file = (name: string) => path.join(work, name);
      void (async () => {
        writeFileSync(file('request.der'), Buffer.concat(chunks));
        const { stdout } = await run('openssl', ['ocsp', '-reqin', file('request.der'), '-req_text']);
        const serial = /Serial Number: ([0-9A-Fa-f]+)/.exec(stdout)?.[1] ?? '';
        const status = serial ? await statusOf(serial) : 'unknown';
        const { certificate, key } = await signer();
        writeFileSync(file('signer.crt'), certificate);
        writeFileSync(file('signer.key'), key);
        // openssl's index: V (valid) or R (revoked, with the time), the expiry, the serial, the subject.
        const line = (flag: string, revoked: string) => `${flag}\t991231235959Z\t${revoked}\t${serial.toUpperCase()}\tunknown\t/CN=x\n`;
        writeFileSync(file('index.txt'), status === 'good' ? line('V', '') : status === 'revoked' ? line('R', '261101000000Z') : '');
        await run('openssl', [
          ...['ocsp', '-index', file('index.txt'), '-CA', file('signer.crt'), '-rsigner', file('signer.crt')],
          ...['-rkey', file('signer.key'), '-reqin', file('request.der'), '-respout', file('response.der'), '-ndays', '1'],
        ]);
        answered++;
        response.writeHead(200, { 'content-type': 'application/ocsp-response' }).end(readFileSync(file('response.der')));
      })()
        .catch(() => response.writeHead(500).end())
        .finally(() => rmSync(work, { recursive: true, force: true }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests: () => answered,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
