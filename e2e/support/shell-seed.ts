/**
 * Seeds a Berth data directory for the shell specs, before a server starts on it (PGlite allows
 * one process per directory). Runs as its own process, with the server's own modules:
 *
 *   BERTH_DATA_DIR=<dir> SEED_PASSWORD=<password> node e2e/support/shell-seed.ts
 *
 * - tenant 1: the super admin admin@localhost (SEED_PASSWORD);
 * - the demo tenant (harbor.localhost, `cli.ts demo`): a host admin, 5 customers and 150 domains
 *   (20 expired), topped up here to 150 live ones; a header and a footer logo; 3 cart rows for
 *   hana@; petr@ has already seen the 2FA reminder; <purpose>-<project>@ customers for specs
 *   that change their account (badge, lang, notice × desktop, phone; lang-… own 3 domains);
 * - fleet.localhost: a tenant that sells through its own shop (host_purchases), with a host admin
 *   and a customer who owns 5,000 live domains.
 *
 * Prints a JSON summary on its last line.
 */
import { openDatabase } from '../../server/src/db/connection.ts';
import { migrateToLatest } from '../../server/src/db/migrate.ts';
import { systemClock } from '../../server/src/lib/clock.ts';
import { PasswordHasher } from '../../server/src/lib/password.ts';
import { loadDemoData } from '../../server/src/modules/demo/service.ts';
import { ensureOperator } from '../../server/src/modules/tenants/bootstrap.ts';
import { insertTenant, insertTenantHost } from '../../server/src/modules/tenants/queries.ts';
import { createUser } from '../../server/src/modules/users/service.ts';

const FLEET_HOST = 'fleet.localhost';
const FLEET_CART_URL = 'https://shop.fleet.example/cart';
const FLEET_DOMAINS = 5_000;
const HARBOR_EXTRA_LIVE = 20;

const DAY = 24 * 60 * 60 * 1000;

/** A small tenant logo (SVG, served by /api/tenant/logo/<kind>). */
function logoSvg(text: string, color: string, width: number): Buffer {
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="40" viewBox="0 0 ${width} 40">` +
      `<rect x="0" y="4" width="32" height="32" rx="8" fill="${color}"/>` +
      `<path d="M16 11v18M10 23a6 6 0 0 0 12 0M12 15h8" stroke="#fff" stroke-width="2.4" fill="none" stroke-linecap="round"/>` +
      `<text x="42" y="27" font-family="Arial, sans-serif" font-size="18" font-weight="700" fill="#1a2b48">${text}</text>` +
      `</svg>`,
  );
}

async function main(): Promise<void> {
  const dataDir = process.env.BERTH_DATA_DIR;
  const password = process.env.SEED_PASSWORD;
  if (!dataDir || !password) throw new Error('BERTH_DATA_DIR and SEED_PASSWORD are required');

  const handle = await openDatabase({ dataDir });
  const db = handle.db;
  const clock = systemClock;
  // The server's minimum argon2 cost: these are throwaway accounts.
  const hasher = new PasswordHasher({ memoryCost: 19_456, timeCost: 2 });
  try {
    await migrateToLatest(db);
    await ensureOperator(db, hasher, clock, { adminEmail: 'admin@localhost', adminPassword: password, publicUrl: undefined });
    const demo = await loadDemoData(db, hasher, clock, { password, port: Number(process.env.SEED_PORT ?? 3000) });
    if (!demo) throw new Error('the data directory was not empty');
    const now = clock.now();

    // Harbor: 150 live domains in all (the demo has 130 live and 20 expired).
    const hana = await db.selectFrom('users').select(['id']).where('email', '=', `hana@${demo.host}`).executeTakeFirstOrThrow();
    await db
      .insertInto('domains')
      .values(
        Array.from({ length: HARBOR_EXTRA_LIVE }, (_, i) => ({
          tenant_id: demo.tenantId,
          owner_id: hana.id,
          name: `quay-${String(i + 1).padStart(2, '0')}.net`,
          expire_at: new Date(now.getTime() + (400 + i) * DAY),
        })),
      )
      .execute();
    for (const [kind, color] of [
      ['admin_logo', '#0e7c86'],
      ['admin_logo_footer', '#64748b'],
    ] as const) {
      await db
        .insertInto('tenant_logos')
        .values({
          tenant_id: demo.tenantId,
          kind,
          image: logoSvg('Harbor Hosting', color, 240),
          content_type: 'image/svg+xml',
          updated_at: now,
        })
        .execute();
      await db
        .updateTable('tenants')
        .set({ [kind]: `/api/tenant/logo/${kind}?v=${now.getTime()}` })
        .where('id', '=', demo.tenantId)
        .execute();
    }
    // Three rows of the demo catalogue (the shop prices them from it): two plans and a domain.
    const [starter, business] = await db
      .selectFrom('hosting_plans')
      .selectAll()
      .where('tenant_id', '=', demo.tenantId)
      .orderBy('monthly_price')
      .execute();
    if (!starter || !business) throw new Error('the demo catalogue is missing');
    await db
      .insertInto('cart_items')
      .values([
        {
          tenant_id: demo.tenantId,
          user_id: hana.id,
          product_type: 'hosting',
          plan_id: starter.id,
          title: `Hosting ${starter.title}`,
          period_months: 12,
          price_minor: Number(starter.yearly_price),
        },
        {
          tenant_id: demo.tenantId,
          user_id: hana.id,
          product_type: 'domain_register',
          domain_name: 'harbor-new.com',
          tld: 'com',
          title: 'Domain registration harbor-new.com',
          price_minor: 1290,
        },
        {
          tenant_id: demo.tenantId,
          user_id: hana.id,
          product_type: 'hosting',
          plan_id: business.id,
          title: `Hosting ${business.title}`,
          period_months: 1,
          price_minor: Number(business.monthly_price),
        },
      ])
      .execute();
    await db
      .updateTable('users')
      .set({ notifications_viewed: ['google2fa'] })
      .where('email', '=', `petr@${demo.host}`)
      .execute();
    // Accounts whose state a spec changes (2FA reminder seen, language), one per Playwright project.
    // The language spec's users own 3 of the quay domains each, so harbor keeps 150 live domains.
    let quay = 1;
    for (const project of ['desktop', 'phone']) {
      for (const purpose of ['badge', 'lang', 'notice']) {
        const user = await createUser(db, hasher, clock, {
          tenantId: demo.tenantId,
          email: `${purpose}-${project}@${demo.host}`,
          password,
          role: 'customer',
          given_name: purpose[0]?.toUpperCase() + purpose.slice(1),
          sn: project === 'desktop' ? 'Desk' : 'Phone',
        });
        if (purpose !== 'lang') continue;
        const names = [0, 1, 2].map((n) => `quay-${String(quay + n).padStart(2, '0')}.net`);
        quay += names.length;
        await db.updateTable('domains').set({ owner_id: user.id }).where('name', 'in', names).execute();
      }
    }
    // Fleet: sells through its own shop; one customer with 5,000 live domains.
    const fleet = await insertTenant(db, { title: 'Fleet Domains', host_purchases: FLEET_CART_URL, public_url: null });
    await insertTenantHost(db, fleet.id, FLEET_HOST);
    await createUser(db, hasher, clock, {
      tenantId: fleet.id,
      email: `admin@${FLEET_HOST}`,
      password,
      role: 'host_admin',
      given_name: 'Fleet',
      sn: 'Admin',
    });
    const captain = await createUser(db, hasher, clock, {
      tenantId: fleet.id,
      email: `captain@${FLEET_HOST}`,
      password,
      role: 'customer',
      given_name: 'Cora',
      sn: 'Captain',
    });
    const rows = Array.from({ length: FLEET_DOMAINS }, (_, i) => ({
      tenant_id: fleet.id,
      owner_id: captain.id,
      name: `vessel-${String(i + 1).padStart(4, '0')}.fleet-example.com`,
      expire_at: i % 3 === 0 ? null : new Date(now.getTime() + (30 + (i % 700)) * DAY),
    }));
    for (let start = 0; start < rows.length; start += 1_000) {
      await db
        .insertInto('domains')
        .values(rows.slice(start, start + 1_000))
        .execute();
    }

    process.stdout.write(`${JSON.stringify({ harborTenantId: demo.tenantId, fleetTenantId: fleet.id })}\n`);
  } finally {
    await handle.close();
  }
}

await main();
