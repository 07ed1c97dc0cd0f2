import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATOR_TENANT_ID } from '@berth/contracts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { superAdmin, type Caller } from '../../../test/hosting.ts';
import { addToCart, checkout, giveCredit, ok, shopTenant } from '../../../test/shop.ts';

// Every domain Berth makes starts with the same complete zone, whichever way it came: bought in
// the shop, added by an admin, or a customer's own name (proven later). The tenant has no name
// servers or hosting address of its own, so the platform's (the operator tenant's) are used.

let t: TestApp;
let shop: Awaited<ReturnType<typeof shopTenant>>;
const PLATFORM_NS = ['ns1.platform.test', 'ns2.platform.test'];
const PLATFORM_IP = '192.0.2.25';

beforeAll(async () => {
  t = await createTestApp();
  const root = await superAdmin(t);
  await ok(root.call, {
    method: 'PATCH',
    url: `/api/system/tenants/${OPERATOR_TENANT_ID}`,
    payload: { name_servers: PLATFORM_NS, hosting_ipv4: PLATFORM_IP },
  });
  shop = await shopTenant(t, 'zones');
  await giveCredit(shop.admin.call, shop.customer.user.id, 100_000);
}, 120_000);
afterAll(async () => {
  await t?.close();
});

type Zone = {
  records: { name: string; type: string; content: string }[];
  mail: { checks: { kind: string; state: string }[]; dkim_selector: string | null };
};
const zoneOf = async (call: Caller, id: number): Promise<Zone> =>
  (await ok(call, { method: 'GET', url: `/api/host/domain/${id}/dns` })).data;
/** The zone's records with the domain's own name and the DKIM selector taken out, so zones compare. */
const shapeOf = (zone: Zone, domain: string) =>
  zone.records
    .map((r) => ({
      name: r.name.replace(zone.mail.dkim_selector ?? '\u0000', 'SELECTOR'),
      type: r.type,
      content: r.type === 'TXT' && r.content.startsWith('v=DKIM1') ? 'DKIM' : r.content.replaceAll(domain, 'DOMAIN'),
    }))
    .sort((a, b) => `${a.name} ${a.type} ${a.content}`.localeCompare(`${b.name} ${b.type} ${b.content}`));

const domainIdOf = async (name: string): Promise<number> =>
  (await t.db.selectFrom('domains').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;

describe('the zone every new domain starts with', () => {
  it('is complete and passes the 4 mail checks for a bought, an admin-added and a customer’s own domain', async () => {
    const bought = 'bought-zone.com';
    expect((await addToCart(shop.customer.call, { kind: 'domain_register', name: bought })).statusCode).toBe(200);
    const paid = await checkout(shop.customer.call, 'credit', 'zone-key-1');
    expect(paid.statusCode, paid.body).toBe(201);
    const added = 'admin-zone.com';
    const byAdmin = await shop.admin.call({
      method: 'POST',
      url: '/api/host/domain',
      payload: { name: added, owner_id: shop.customer.user.id },
    });
    expect(byAdmin.statusCode, byAdmin.body).toBe(201);
    const own = 'own-zone.com';
    const byCustomer = await shop.customer.call({ method: 'POST', url: '/api/host/domain', payload: { name: own } });
    expect(byCustomer.statusCode, byCustomer.body).toBe(201);

    const shapes = [];
    for (const name of [bought, added, own]) {
      const zone = await zoneOf(shop.customer.call, await domainIdOf(name));
      const states = Object.fromEntries(zone.mail.checks.map((c) => [c.kind, c.state]));
      expect({ name, states }).toEqual({ name, states: { mx: 'ok', spf: 'ok', dkim: 'ok', dmarc: 'ok' } });
      shapes.push(shapeOf(zone, name));
    }
    const [first, ...others] = shapes;
    for (const shape of others) expect(shape).toEqual(first);
    expect(first).toEqual(
      expect.arrayContaining([
        { name: '@', type: 'NS', content: PLATFORM_NS[0] },
        { name: '@', type: 'NS', content: PLATFORM_NS[1] },
        { name: 'mail', type: 'A', content: PLATFORM_IP },
        { name: '@', type: 'MX', content: 'mail.DOMAIN' },
        { name: 'SELECTOR._domainkey', type: 'TXT', content: 'DKIM' },
        { name: '_dmarc', type: 'TXT', content: expect.stringMatching(/^v=DMARC1/) },
        { name: '@', type: 'TXT', content: expect.stringMatching(/^v=spf1/) },
      ]),
    );
  });
});
