import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startPebble, type Pebble } from '../../server/test/pebble.ts';
import { freePort } from './server.ts';
import { test as servicesTest } from './services.ts';

/**
 * Specs of certificates: Debian's Pebble (validation on) asks the DNS port `npm run services`
 * starts PowerDNS on, chosen before both; the worker's server orders from Pebble every second and
 * shares its secret key with the services, whose web agent opens the certificate keys with it.
 */
export const test = servicesTest.extend<object, { acme: { pebble: Pebble; dnsPort: number; secretKey: string } }>({
  acme: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const dir = await mkdtemp(path.join(tmpdir(), 'berth-e2e-acme-'));
      const dnsPort = await freePort();
      const pebble = await startPebble(dir, { dnsServer: `127.0.0.1:${dnsPort}` });
      try {
        await use({ pebble, dnsPort, secretKey: randomBytes(32).toString('base64') });
      } finally {
        pebble.stop();
        await rm(dir, { recursive: true, force: true });
      }
    },
    { scope: 'worker', timeout: 30_000 },
  ],
  servicesEnv: [
    async ({ acme }, use) => use({ BERTH_DNS_PORT: String(acme.dnsPort), BERTH_SECRET_KEY: acme.secretKey }),
    { scope: 'worker' },
  ],
  serverEnv: [
    async ({ acme }, use) =>
      use({
        BERTH_SECRET_KEY: acme.secretKey,
        ACME_DIRECTORY_URL: acme.pebble.directoryUrl,
        ACME_CA_FILE: acme.pebble.caFile,
        CERTIFICATES_EVERY_SECONDS: '1',
      }),
    { scope: 'worker' },
  ],
});

export { expect } from './fixtures.ts';
