import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { addTenant, addUser, superAdmin, type Caller, callerFor } from '../../../test/hosting.ts';
import type { UserRow } from '../users/queries.ts';

let t: TestApp;
let root: { user: UserRow; call: Caller };
let hostAdmin: { user: UserRow; call: Caller };

beforeAll(async () => {
  t = await createTestApp();
  root = await superAdmin(t);
  const tenant = await addTenant(t, 'Existing', 'existing.test');
  hostAdmin = await addUser(t, tenant, 'admin@existing.test', 'host_admin');
}, 120_000);
afterAll(async () => {
  await t?.close();
});

/** A multipart/form-data body with one file field, as a browser sends it. */
function multipart(field: string, filename: string, type: string, content: Buffer) {
  const boundary = '----berth-test-boundary';
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`,
    ),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

const newTenant = (payload: Record<string, unknown> = {}) =>
  root.call({
    method: 'POST',
    url: '/api/system/tenants',
    payload: {
      title: 'Gamma Hosting',
      hosts: ['panel.gamma.test', 'Gamma.test'],
      name_servers: ['ns1.gamma.test', 'ns2.gamma.test'],
      default_language: 'de',
      ...payload,
    },
  });

describe('/api/system/tenants', () => {
  it('is for super admins only', async () => {
    expect((await hostAdmin.call({ method: 'GET', url: '/api/system/tenants' })).statusCode).toBe(403);
    expect((await hostAdmin.call({ method: 'GET', url: `/api/system/tenants/${hostAdmin.user.tenant_id}` })).statusCode).toBe(403);
    expect(
      (await hostAdmin.call({ method: 'PATCH', url: `/api/system/tenants/${hostAdmin.user.tenant_id}`, payload: { title: 'Mine' } }))
        .statusCode,
    ).toBe(403);
  });

  it('creates a tenant whose hosts then resolve to it, and whose name servers seed new zones', async () => {
    const answer = await newTenant();
    expect(answer.statusCode, answer.body).toBe(201);
    const tenant = answer.json().data;
    expect(tenant).toMatchObject({
      title: 'Gamma Hosting',
      hosts: ['gamma.test', 'panel.gamma.test'],
      name_servers: ['ns1.gamma.test', 'ns2.gamma.test'],
      default_language: 'de',
      config: { admin_logo: null, admin_logo_footer: null, host_purchases: null },
      admins: [],
    });
    const publicTenant = await t.app.inject({ method: 'GET', url: '/api/tenant', headers: { host: 'panel.gamma.test:3000' } });
    expect(publicTenant.json().data).toMatchObject({ id: tenant.id, title: 'Gamma Hosting' });

    const owner = await addUser(t, tenant.id, 'owner@gamma.test');
    const domain = (await owner.call({ method: 'POST', url: '/api/host/domain', payload: { name: 'gamma-site.com' } })).json().data;
    const zone = (await owner.call({ method: 'GET', url: `/api/host/domain/${domain.id}/dns` })).json().data;
    const nameServers = zone.records.filter((r: { type: string }) => r.type === 'NS');
    expect(nameServers.map((r: { content: string }) => r.content)).toEqual(['ns1.gamma.test', 'ns2.gamma.test']);
    expect(zone.soa.mname).toBe('ns1.gamma.test');
  });

  it('refuses host names of another tenant and bad values, per field', async () => {
    const taken = await newTenant({ hosts: ['existing.test'] });
    expect(taken.statusCode).toBe(422);
    expect(taken.json().errors.hosts).toEqual(['This host name belongs to another tenant: existing.test']);
    const bad = await newTenant({
      title: '',
      hosts: ['bad host'],
      name_servers: ['localhost'],
      default_language: 'fr',
      public_url: 'ftp://x',
    });
    expect(Object.keys(bad.json().errors).sort()).toEqual(['default_language', 'hosts.0', 'name_servers.0', 'public_url', 'title']);
    expect((await newTenant({ hosts: [] })).json().errors.hosts).toBeDefined();
  });

  it('edits title, hosts, host_purchases, name servers and language; the resolver sees it at once', async () => {
    const id = hostAdmin.user.tenant_id;
    await t.app.inject({ method: 'GET', url: '/api/tenant', headers: { host: 'existing.test' } });
    const answer = await root.call({
      method: 'PATCH',
      url: `/api/system/tenants/${id}`,
      payload: {
        title: 'Renamed',
        hosts: ['renamed.test'],
        host_purchases: '/cart',
        name_servers: ['ns.renamed.test'],
        default_language: 'cs',
        public_url: 'https://renamed.test',
      },
    });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json().data).toMatchObject({
      title: 'Renamed',
      hosts: ['renamed.test'],
      config: { host_purchases: '/cart' },
      default_language: 'cs',
      public_url: 'https://renamed.test',
    });
    expect((await t.app.inject({ method: 'GET', url: '/api/tenant', headers: { host: 'renamed.test' } })).json().data).toMatchObject({
      id,
      title: 'Renamed',
      config: { host_purchases: '/cart' },
    });
    // The old host is free again, so it falls back to the operator.
    expect((await t.app.inject({ method: 'GET', url: '/api/tenant', headers: { host: 'existing.test' } })).json().data.id).toBe(1);
    expect((await root.call({ method: 'PATCH', url: '/api/system/tenants/9999', payload: { title: 'x' } })).statusCode).toBe(404);
  });

  it('logs only the fields whose value an edit changed, and nothing for a form saved unchanged', async () => {
    const id = hostAdmin.user.tenant_id;
    const form = (await root.call({ method: 'GET', url: `/api/system/tenants/${id}` })).json().data;
    const before =
      (
        await t.db
          .selectFrom('audit_log')
          .select((eb) => eb.fn.max('id').as('id'))
          .executeTakeFirstOrThrow()
      ).id ?? 0;
    // The edit form sends every field back; only the language was changed.
    const save = (default_language: string) =>
      root.call({
        method: 'PATCH',
        url: `/api/system/tenants/${id}`,
        payload: {
          title: form.title,
          hosts: form.hosts,
          host_purchases: form.config.host_purchases,
          name_servers: form.name_servers,
          default_language,
          public_url: form.public_url,
        },
      });
    const language = form.default_language === 'en' ? 'de' : 'en';
    expect((await save(language)).statusCode).toBe(200);
    expect((await save(language)).statusCode).toBe(200);
    const logged = await t.db
      .selectFrom('audit_log')
      .select('data')
      .where('action', '=', 'tenant.updated')
      .where('target_id', '=', String(id))
      .where('id', '>', before)
      .execute();
    expect(logged.map((row) => row.data)).toEqual([{ changed: 'default_language' }]);
  });

  it('takes as cart address only a path of this panel or an https address (http on localhost)', async () => {
    const id = hostAdmin.user.tenant_id;
    const patch = (host_purchases: string) => root.call({ method: 'PATCH', url: `/api/system/tenants/${id}`, payload: { host_purchases } });
    for (const bad of [
      'not a url',
      'javascript:alert(1)',
      'ftp://x',
      '//evil.example/cart',
      'http://shop.example.com/cart',
      'https://',
      'data:text/html,x',
    ]) {
      const answer = await patch(bad);
      expect(answer.statusCode, bad).toBe(422);
      expect(answer.json().errors, bad).toEqual({ host_purchases: ['Enter a path on this panel (/shop/cart) or an https:// address.'] });
    }
    for (const good of ['/shop/cart', 'https://shop.example.com/cart?ref=berth', 'http://localhost:3000/cart']) {
      const answer = await patch(good);
      expect(answer.statusCode, good).toBe(200);
      expect(answer.json().data.config.host_purchases).toBe(good);
    }
  });

  it('stores an uploaded logo as PNG or WebP, links it versioned in config and serves it publicly', async () => {
    const id = hostAdmin.user.tenant_id;
    const png = await sharp({ create: { width: 2000, height: 400, channels: 4, background: '#1d4ed8' } })
      .png()
      .toBuffer();
    const upload = await root.call({
      method: 'POST',
      url: `/api/system/tenants/${id}/logo/admin_logo`,
      ...multipart('image', 'logo.png', 'image/png', png),
    });
    expect(upload.statusCode, upload.body).toBe(200);
    const logoUrl = upload.json().data.config.admin_logo as string;
    expect(logoUrl).toBe(`/api/tenant/logo/admin_logo?v=${t.clock.now().getTime()}`);
    const served = await t.app.inject({ method: 'GET', url: logoUrl, headers: { host: 'renamed.test' } });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(await sharp(served.rawPayload).metadata()).toMatchObject({ format: 'png', width: 1024, height: 205 });
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/tenant', headers: { host: 'renamed.test' } })).json().data.config.admin_logo,
    ).toBe(logoUrl);
    // Another tenant's host has no logo.
    expect((await t.app.inject({ method: 'GET', url: '/api/tenant/logo/admin_logo' })).statusCode).toBe(404);

    const jpeg = await sharp({ create: { width: 300, height: 100, channels: 3, background: '#ffffff' } })
      .jpeg()
      .toBuffer();
    const footer = await root.call({
      method: 'POST',
      url: `/api/system/tenants/${id}/logo/admin_logo_footer`,
      ...multipart('image', 'f.jpg', 'image/jpeg', jpeg),
    });
    expect(footer.statusCode).toBe(200);
    const footerServed = await t.app.inject({
      method: 'GET',
      url: '/api/tenant/logo/admin_logo_footer',
      headers: { host: 'renamed.test' },
    });
    expect(footerServed.headers['content-type']).toBe('image/webp');
    expect(footerServed.headers['cache-control']).toBe('public, max-age=300');

    const notImage = await root.call({
      method: 'POST',
      url: `/api/system/tenants/${id}/logo/admin_logo`,
      ...multipart('image', 'x.png', 'image/png', Buffer.from('<script>alert(1)</script>')),
    });
    expect(notImage.statusCode).toBe(422);
    expect(notImage.json().errors.image).toBeDefined();
    expect((await root.call({ method: 'POST', url: `/api/system/tenants/${id}/logo/admin_logo` })).json().errors.image).toBeDefined();
    // On the host their tenant has now (an earlier test renamed it).
    const hostAdminNow = await callerFor(t, hostAdmin.user);
    expect(
      (
        await hostAdminNow({
          method: 'POST',
          url: `/api/system/tenants/${id}/logo/admin_logo`,
          ...multipart('image', 'logo.png', 'image/png', png),
        })
      ).statusCode,
    ).toBe(403);

    const removed = await root.call({ method: 'DELETE', url: `/api/system/tenants/${id}/logo/admin_logo` });
    expect(removed.json().data.config.admin_logo).toBeNull();
    expect((await t.app.inject({ method: 'GET', url: '/api/tenant/logo/admin_logo', headers: { host: 'renamed.test' } })).statusCode).toBe(
      404,
    );
  });

  it('assigns and removes host admins, ending their sessions', async () => {
    const id = hostAdmin.user.tenant_id;
    const promoted = await addUser(t, id, 'soon-admin@existing.test');
    const assigned = await root.call({ method: 'POST', url: `/api/system/tenants/${id}/admins`, payload: { user_id: promoted.user.id } });
    expect(assigned.statusCode, assigned.body).toBe(200);
    expect(assigned.json().data.admins.map((a: { email: string }) => a.email)).toEqual(['admin@existing.test', 'soon-admin@existing.test']);
    expect((await promoted.call({ method: 'GET', url: '/api/user' })).statusCode).toBe(401);
    const removed = await root.call({ method: 'DELETE', url: `/api/system/tenants/${id}/admins/${promoted.user.id}` });
    expect(removed.json().data.admins.map((a: { email: string }) => a.email)).toEqual(['admin@existing.test']);
    const role = await t.db.selectFrom('users').select('role').where('id', '=', promoted.user.id).executeTakeFirstOrThrow();
    expect(role.role).toBe('customer');
    // A user of another tenant, or a super admin, cannot be assigned.
    expect(
      (await root.call({ method: 'POST', url: `/api/system/tenants/${id}/admins`, payload: { user_id: root.user.id } })).statusCode,
    ).toBe(404);
    const actions = await t.db.selectFrom('audit_log').select('action').where('action', 'like', 'tenant.admin%').orderBy('id').execute();
    expect(actions.map((a) => a.action)).toEqual(['tenant.admin_assigned', 'tenant.admin_removed']);
  });

  it('lists tenants in keyset pages', async () => {
    const first = (await root.call({ method: 'GET', url: '/api/system/tenants', query: { limit: '2' } })).json();
    expect(first.data.map((x: { id: number }) => x.id)).toEqual([1, 2]);
    const second = (
      await root.call({ method: 'GET', url: '/api/system/tenants', query: { limit: '2', cursor: first.next_cursor } })
    ).json();
    expect(second.data.map((x: { id: number }) => x.id)).toEqual([3]);
    expect(second.next_cursor).toBeNull();
  });
});
