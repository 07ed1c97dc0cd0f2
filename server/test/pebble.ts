import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { openSync, readFileSync, writeFileSync } from 'node:fs';
import { get } from 'node:https';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './faults/processes.ts';

const run = promisify(execFile);

/**
 * Debian's Pebble, Let's Encrypt's test CA, on loopback: validation on (never
 * PEBBLE_VA_ALWAYS_VALID), DNS-01 answered by the name server at `dnsServer` (Berth's PowerDNS),
 * HTTP-01 fetched from `httpPort`. Its own HTTPS uses a certificate made here (`caFile` trusts it);
 * the root it signs with is new on every start (`root()`).
 */
export interface Pebble {
  directoryUrl: string;
  /** The certificate of Pebble's own HTTPS listener (ACME_CA_FILE). */
  caFile: string;
  /** Pebble's root of this run, PEM. */
  root(): Promise<string>;
  /** What Pebble's management API says of a certificate it issued: "Valid" or "Revoked". */
  certificateStatus(serialHex: string): Promise<string>;
  /** The intermediate that signs the certificates, and its key (PEM): an OCSP responder signs with them. */
  intermediate(): Promise<{ certificate: string; key: string }>;
  process: ChildProcess;
  stop(): void;
}

export async function startPebble(
  dir: string,
  options: {
    dnsServer: string;
    httpPort?: number;
    /** Named in every certificate (server/test/ocsp-responder.ts). */ ocspResponderURL?: string;
  },
): Promise<Pebble> {
  const cert = path.join(dir, 'pebble.crt');
  const key = path.join(dir, 'pebble.key');
  await run('openssl', [
    ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '2'],
    ...['-subj', '/CN=pebble', '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost', '-keyout', key, '-out', cert],
  ]);
  const [port, management] = [await freePort(), await freePort()];
  const config = path.join(dir, 'pebble.json');
  writeFileSync(
    config,
    JSON.stringify({
      pebble: {
        listenAddress: `127.0.0.1:${port}`,
        managementListenAddress: `127.0.0.1:${management}`,
        certificate: cert,
        privateKey: key,
        httpPort: options.httpPort ?? (await freePort()),
        tlsPort: await freePort(),
        ocspResponderURL: options.ocspResponderURL ?? '',
        externalAccountBindingRequired: false,
      },
    }),
  );
  const log = openSync(path.join(dir, 'pebble.log'), 'a');
  const child = spawn('pebble', ['-config', config, '-dnsserver', options.dnsServer], {
    stdio: ['ignore', log, log],
    // No waiting between a challenge and its validation; every nonce good (acme-client would retry a
    // bad one anyway); no authorization reused, so every order is validated again.
    env: { ...process.env, PEBBLE_VA_NOSLEEP: '1', PEBBLE_WFE_NONCEREJECT: '0', PEBBLE_AUTHZREUSE: '0' },
  });
  const ca = readFileSync(cert, 'utf8');
  const fetch = (url: string) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      get(url, { ca }, (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      }).on('error', reject);
    });
  const directoryUrl = `https://127.0.0.1:${port}/dir`;
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`pebble did not start: ${readFileSync(path.join(dir, 'pebble.log'), 'utf8').slice(-2000)}`);
    }
    const answer = await fetch(directoryUrl).catch(() => undefined);
    if (answer?.status === 200) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    directoryUrl,
    caFile: cert,
    root: async () => (await fetch(`https://127.0.0.1:${management}/roots/0`)).body,
    certificateStatus: async (serial) =>
      (
        JSON.parse((await fetch(`https://127.0.0.1:${management}/cert-status-by-serial/${serial.toLowerCase()}`)).body) as {
          Status: string;
        }
      ).Status,
    intermediate: async () => ({
      certificate: (await fetch(`https://127.0.0.1:${management}/intermediates/0`)).body,
      key: (await fetch(`https://127.0.0.1:${management}/intermediate-keys/0`)).body,
    }),
    process: child,
    stop: () => child.kill('SIGKILL'),
  };
}
