import { OPERATOR_TENANT_ID } from '@berth/contracts';
import type { Db } from '../../db/connection.ts';
import type { Clock } from '../../lib/clock.ts';
import { generatePassword, type PasswordHasher } from '../../lib/password.ts';
import { seedDemoBankAccount } from '../payments/bank-transfer.ts';
import { seedDemoShop } from '../shop/demo.ts';
import { fillPlatformHosting, findTenantByHost, insertTenant, insertTenantHost } from '../tenants/queries.ts';
import { createUser } from '../users/service.ts';
import { insertDomains } from '../domains/queries.ts';

const DAY = 24 * 60 * 60 * 1000;
/** The parts demo domain names are made of (the bench builds its large lists from them too). */
export const DEMO_NAME_PARTS = {
  words: [
    'harbor',
    'anchor',
    'lighthouse',
    'tide',
    'coral',
    'pier',
    'compass',
    'reef',
    'sail',
    'keel',
    'marina',
    'cove',
    'buoy',
    'dune',
    'gull',
  ],
  suffixes: ['studio', 'shop', 'labs', 'media', 'cloud', 'works', 'garden', 'travel', 'bakery', 'design'],
  tlds: ['com', 'net', 'org', 'cz', 'de', 'eu', 'io'],
} as const;
const { words: WORDS, suffixes: SUFFIXES, tlds: TLDS } = DEMO_NAME_PARTS;

export interface DemoSummary {
  tenantId: number;
  host: string;
  hostAdmin: string;
  customers: string[];
  password: string;
  domains: number;
  expired: number;
  /** A reseller tenant that buys through Berth for its customers (host_purchases). */
  reseller: { tenantId: number; host: string; hostAdmin: string; customers: string[] };
}

/** The reseller tenant's cart: the panel's own cart on that tenant's host, so it works on any port. */
export const DEMO_RESELLER_CART = '/shop/cart';

/** Domain names that look like real customers' sites, deterministic so reruns and tests agree. */
export function demoDomainNames(count: number): string[] {
  const names: string[] = [];
  for (let i = 0; names.length < count; i++) {
    const word = WORDS[i % WORDS.length];
    const suffix = SUFFIXES[Math.floor(i / WORDS.length) % SUFFIXES.length];
    const tld = TLDS[i % TLDS.length];
    const round = Math.floor(i / (WORDS.length * SUFFIXES.length));
    names.push(`${word}-${suffix}${round ? round + 1 : ''}.${tld}`);
  }
  return names;
}

/**
 * A second tenant with a host admin, customers and 150 domains (20 expired, 30 without expiry),
 * so the shell has something to show. Runs in one transaction; refuses to load twice.
 */
export async function loadDemoData(
  db: Db,
  hasher: PasswordHasher,
  clock: Clock,
  options: { password?: string | undefined; host?: string; resellerHost?: string; port?: number } = {},
): Promise<DemoSummary | undefined> {
  const host = options.host ?? 'harbor.localhost';
  const resellerHost = options.resellerHost ?? 'reseller.localhost';
  if (await findTenantByHost(db, host)) return undefined;
  const password = options.password ?? generatePassword();
  // Links in mails (reset, verification, expiry) must reach the panel on the port it runs on.
  const publicUrl = (name: string) => `http://${name}:${options.port ?? 3000}`;
  return db.transaction().execute(async (trx) => {
    // Name servers and a hosting address for the platform (where the operator set none), so every
    // domain the demo sells or adds starts with a complete zone (NS, mail host, MX, SPF, DKIM,
    // DMARC); the demo's services (npm run services) answer on loopback.
    await fillPlatformHosting(trx, { nameServers: ['ns1.berth.localhost', 'ns2.berth.localhost'], ipv4: '127.0.0.1' });
    const tenant = await insertTenant(trx, { title: 'Harbor Hosting', public_url: publicUrl(host) });
    await insertTenantHost(trx, tenant.id, host);
    const people = [
      ['Hana', 'Nováková'],
      ['Jonas', 'Becker'],
      ['Emma', 'Wilson'],
      ['Petr', 'Svoboda'],
      ['Lena', 'Schmidt'],
    ] as const;
    const hostAdmin = `admin@${host}`;
    await createUser(trx, hasher, clock, {
      tenantId: tenant.id,
      email: hostAdmin,
      password,
      role: 'host_admin',
      given_name: 'Harbor',
      sn: 'Admin',
    });
    const customers: Awaited<ReturnType<typeof createUser>>[] = [];
    for (const [given, sn] of people) {
      const email = `${given.toLowerCase()}@${host}`;
      customers.push(
        await createUser(trx, hasher, clock, { tenantId: tenant.id, email, password, role: 'customer', given_name: given, sn }),
      );
    }
    const now = clock.now().getTime();
    const names = demoDomainNames(150);
    const rows = names.map((name, i) => {
      const owner = customers[i % customers.length];
      if (!owner) throw new Error('demo customers missing');
      // 20 expired, 30 without expiry, the rest expiring over the next two years.
      const expireAt = i < 20 ? new Date(now - (i + 1) * 3 * DAY) : i < 50 ? null : new Date(now + (((i * 5) % 730) + 1) * DAY);
      return { tenant_id: tenant.id, owner_id: owner.id, name, expire_at: expireAt };
    });
    await insertDomains(trx, rows);
    // Test bank details, so bank transfer (and its QR code) can be tried on the demo and operator tenants.
    await seedDemoBankAccount(trx, tenant.id, 'Harbor Hosting s.r.o.', clock.now());
    await seedDemoBankAccount(trx, OPERATOR_TENANT_ID, 'Berth Operator', clock.now());
    // Something to sell out of the box: catalogue, a welcome code, credit to try a purchase with.
    await seedDemoShop(trx, tenant.id, OPERATOR_TENANT_ID, customers[0]?.id, clock.now());

    // A reseller: buys domains through Berth for its own customers, pays from partner credit, and
    // has its own promo codes; its host admin starts with credit, and one customer with domains.
    const reseller = await insertTenant(trx, {
      title: 'Anchor Web Reseller',
      public_url: publicUrl(resellerHost),
      host_purchases: DEMO_RESELLER_CART,
    });
    await insertTenantHost(trx, reseller.id, resellerHost);
    const resellerAdmin = await createUser(trx, hasher, clock, {
      tenantId: reseller.id,
      email: `admin@${resellerHost}`,
      password,
      role: 'host_admin',
      given_name: 'Anchor',
      sn: 'Admin',
    });
    const resellerCustomer = await createUser(trx, hasher, clock, {
      tenantId: reseller.id,
      email: `marta@${resellerHost}`,
      password,
      role: 'customer',
      given_name: 'Marta',
      sn: 'Dvořáková',
    });
    await insertDomains(
      trx,
      ['marta-atelier.cz', 'marta-photo.eu', 'dvorak-family.net'].map((name, i) => ({
        tenant_id: reseller.id,
        owner_id: resellerCustomer.id,
        name,
        expire_at: new Date(now + (i + 1) * 90 * DAY),
      })),
    );
    await seedDemoBankAccount(trx, reseller.id, 'Anchor Web s.r.o.', clock.now());
    await seedDemoShop(trx, reseller.id, OPERATOR_TENANT_ID, resellerAdmin.id, clock.now());
    return {
      tenantId: tenant.id,
      host,
      hostAdmin,
      customers: customers.map((c) => c.email),
      password,
      domains: rows.length,
      expired: rows.filter((r) => r.expire_at !== null && r.expire_at.getTime() < now).length,
      reseller: { tenantId: reseller.id, host: resellerHost, hostAdmin: resellerAdmin.email, customers: [resellerCustomer.email] },
    };
  });
}
