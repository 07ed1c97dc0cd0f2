import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { addTenant, addUser, type Caller } from '../../../test/hosting.ts';
import type { UserRow } from '../users/queries.ts';

let t: TestApp;
let admin: { user: UserRow; call: Caller };
let customer: { user: UserRow; call: Caller };

beforeAll(async () => {
  t = await createTestApp();
  const alpha = await addTenant(t, 'Alpha', 'alpha.test');
  const beta = await addTenant(t, 'Beta', 'beta.test');
  admin = await addUser(t, alpha, 'admin@alpha.test', 'host_admin');
  customer = await addUser(t, alpha, 'cleo@alpha.test', 'customer', ['=HYPERLINK("x")', 'Cleo']);
  // More than one page of the list (100 rows a page): the export follows every page.
  for (let i = 0; i < 120; i++) await addUser(t, alpha, `c${String(i).padStart(3, '0')}@alpha.test`);
  await addUser(t, beta, 'dan@beta.test');
  await customer.call({ method: 'POST', url: '/api/host/domain', payload: { name: 'cleo.example' } });
}, 180_000);
afterAll(async () => {
  await t?.close();
});

const lines = (body: string) => body.trimEnd().split('\r\n');

describe('GET /api/system/customers/export.csv', () => {
  it('gives a host admin every customer of their tenant, safe to open in a spreadsheet', async () => {
    const answer = await admin.call({ method: 'GET', url: '/api/system/customers/export.csv' });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toContain('text/csv');
    expect(answer.headers['content-disposition']).toBe('attachment; filename="customers.csv"');
    const rows = lines(answer.body);
    expect(rows[0]).toBe('id,email,given_name,surname,phone,language,domains,two_factor,locked,email_verified,created_at');
    expect(rows).toHaveLength(1 + 121);
    expect(answer.body).not.toContain('dan@beta.test');
    const cleo = rows.find((row) => row.includes('cleo@alpha.test'));
    // A cell a spreadsheet would run as a formula starts with an apostrophe.
    expect(cleo).toContain(`"'=HYPERLINK(""x"")"`);
    expect(cleo?.split(',')[6]).toBe('1');
    const filtered = await admin.call({ method: 'GET', url: '/api/system/customers/export.csv', query: { q: 'cleo' } });
    expect(lines(filtered.body)).toHaveLength(2);
  });

  it('is not for customers', async () => {
    expect((await customer.call({ method: 'GET', url: '/api/system/customers/export.csv' })).statusCode).toBe(403);
  });
});

describe('GET /api/host/domain/export.csv', () => {
  it("gives a customer their own domains, and an admin the tenant's", async () => {
    const own = await customer.call({ method: 'GET', url: '/api/host/domain/export.csv' });
    expect(own.statusCode).toBe(200);
    expect(own.headers['content-disposition']).toBe('attachment; filename="domains.csv"');
    expect(lines(own.body)).toEqual([
      'id,name,name_unicode,owner_email,owner_name,expire_at,expired,created_at',
      expect.stringMatching(/^\d+,"cleo\.example","cleo\.example","cleo@alpha\.test",.*,,no,2026-/),
    ]);
    const tenant = await admin.call({ method: 'GET', url: '/api/host/domain/export.csv', query: { sort: '-name' } });
    expect(lines(tenant.body)).toHaveLength(2);
  });
});
