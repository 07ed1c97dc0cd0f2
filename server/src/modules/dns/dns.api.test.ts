import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { addTenant, addUser, type Caller } from '../../../test/hosting.ts';
import type { UserRow } from '../users/queries.ts';

let t: TestApp;
let owner: { user: UserRow; call: Caller };
let stranger: { user: UserRow; call: Caller };
let domainId: number;
const DAY = 24 * 60 * 60 * 1000;

beforeAll(async () => {
  t = await createTestApp();
  const tenant = await addTenant(t, 'Alpha', 'alpha.test', ['ns1.alpha.test']);
  owner = await addUser(t, tenant, 'owner@alpha.test');
  stranger = await addUser(t, tenant, 'stranger@alpha.test');
  domainId = (await owner.call({ method: 'POST', url: '/api/host/domain', payload: { name: 'example.com' } })).json().data.id;
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const add = (payload: Record<string, unknown>, call = owner.call) =>
  call({ method: 'POST', url: `/api/host/domain/${domainId}/dns`, payload });
const zone = async () => (await owner.call({ method: 'GET', url: `/api/host/domain/${domainId}/dns` })).json().data;

describe('/api/host/domain/:id/dns', () => {
  it('adds one record of each type in canonical form, bumping the serial each time', async () => {
    const before = (await zone()).soa.serial;
    const records = [
      [{ name: '@', type: 'A', content: '192.0.2.10' }, '@ A 192.0.2.10'],
      [{ name: 'www.example.com.', type: 'AAAA', content: '2001:DB8::10', ttl: 300 }, 'www AAAA 2001:db8::10'],
      [{ name: 'blog', type: 'CNAME', content: 'Hosting.Example.net.' }, 'blog CNAME hosting.example.net'],
      [{ name: '@', type: 'MX', content: 'mx2.example.com', priority: 20 }, '@ MX mx2.example.com'],
      [{ name: '_dmarc', type: 'TXT', content: '"v=DMARC1; p=reject"' }, '_dmarc TXT v=DMARC1; p=reject'],
      [{ name: '_sip._tcp', type: 'SRV', content: '5 5060 sip.example.com.', priority: 20 }, '_sip._tcp SRV 5 5060 sip.example.com'],
      [{ name: '@', type: 'CAA', content: '0 ISSUE letsencrypt.org' }, '@ CAA 0 issue "letsencrypt.org"'],
      [{ name: 'dev', type: 'NS', content: 'ns.other.example' }, 'dev NS ns.other.example'],
      [{ name: '*.dev', type: 'A', content: '192.0.2.11' }, '*.dev A 192.0.2.11'],
    ] as const;
    let serial = before;
    for (const [payload, shown] of records) {
      const answer = await add(payload);
      expect(answer.statusCode, `${shown}: ${answer.body}`).toBe(201);
      const record = answer.json().data;
      expect(`${record.name} ${record.type} ${record.content}`).toBe(shown);
      expect(answer.json().soa.serial).toBe(serial + 1);
      serial += 1;
    }
    const current = await zone();
    expect(current.soa.serial).toBe(serial);
    expect(current.records.find((r: { type: string }) => r.type === 'MX')).toMatchObject({
      priority: 10,
      content: 'mail.example.com',
      fqdn: 'example.com',
      ttl: 3600,
    });
    expect(current.records.find((r: { type: string }) => r.type === 'AAAA')).toMatchObject({ fqdn: 'www.example.com', ttl: 300 });
  });

  it('checks each type on its own field', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ name: 'x', type: 'A', content: '300.1.1.1' }, 'content', 'Enter an IPv4 address, e.g. 192.0.2.10.'],
      // Past the old transport bound too: the type's own limit is what is said.
      [{ name: 'x', type: 'TXT', content: 'a'.repeat(5000) }, 'content', 'Enter text of up to 4000 printable characters.'],
      [{ name: 'x', type: 'A', content: '2001:db8::1' }, 'content', 'Enter an IPv4 address, e.g. 192.0.2.10.'],
      [{ name: 'x', type: 'AAAA', content: '192.0.2.1' }, 'content', 'Enter an IPv6 address, e.g. 2001:db8::10.'],
      [{ name: 'x', type: 'CNAME', content: '192.0.2.1' }, 'content', 'Enter a host name, e.g. mail.example.com (not an IP address).'],
      [
        { name: '@', type: 'CNAME', content: 'other.example.net' },
        'name',
        'The domain itself (@) cannot be a CNAME: it has SOA and NS records.',
      ],
      [{ name: 'x', type: 'MX', content: 'mail.example.com' }, 'priority', 'MX and SRV records need a priority (0–65535).'],
      [{ name: 'x', type: 'MX', content: 'mail.example.com', priority: 70000 }, 'priority', 'Use a priority between 0 and 65535.'],
      [{ name: 'x', type: 'A', content: '192.0.2.1', priority: 5 }, 'priority', 'Only MX and SRV records have a priority.'],
      [{ name: 'x', type: 'A', content: '192.0.2.1', ttl: 30 }, 'ttl', 'Use a TTL between 60 seconds and 604800 seconds (one week).'],
      [{ name: 'x', type: 'A', content: '192.0.2.1', ttl: 604801 }, 'ttl', 'Use a TTL between 60 seconds and 604800 seconds (one week).'],
      [
        { name: 'sip', type: 'SRV', content: '5 5060 sip.example.com', priority: 1 },
        'name',
        'An SRV name starts with the service and protocol, e.g. _sip._tcp.',
      ],
      [
        { name: '_sip._tcp', type: 'SRV', content: '5 sip.example.com', priority: 1 },
        'content',
        'Enter weight, port and target, e.g. 10 5060 sip.example.com.',
      ],
      [
        { name: '@', type: 'CAA', content: '0 issue' },
        'content',
        'Enter flags, tag and value, e.g. 0 issue "letsencrypt.org" (tags: issue, issuewild, iodef, issuemail).',
      ],
      [
        { name: '@', type: 'CAA', content: '0 iodef "not-a-url"' },
        'content',
        'Enter flags, tag and value, e.g. 0 issue "letsencrypt.org" (tags: issue, issuewild, iodef, issuemail).',
      ],
      [
        { name: 'a..b', type: 'A', content: '192.0.2.1' },
        'name',
        'Enter a name in this zone: @ for the domain itself, or e.g. www, *.dev, _dmarc.',
      ],
      [
        { name: 'a.*', type: 'A', content: '192.0.2.1' },
        'name',
        'Enter a name in this zone: @ for the domain itself, or e.g. www, *.dev, _dmarc.',
      ],
      [{ name: 'x', type: 'TXT', content: 'bell\u0007' }, 'content', 'Enter text of up to 4000 printable characters.'],
      [{ name: 'x', type: 'SOA', content: 'x' }, 'type', 'This value is not valid.'],
    ];
    for (const [payload, field, message] of cases) {
      const answer = await add(payload);
      expect(answer.statusCode, JSON.stringify(payload)).toBe(422);
      expect(answer.json().errors[field], JSON.stringify(payload)).toEqual([message]);
    }
  });

  it('keeps a CNAME alone at its name, and refuses duplicates', async () => {
    expect((await add({ name: 'shop', type: 'CNAME', content: 'shops.example.net' })).statusCode).toBe(201);
    const beside = await add({ name: 'shop', type: 'TXT', content: 'hello' });
    expect(beside.json().errors.name).toEqual([
      'A CNAME must be the only record of its name: remove the other records or the CNAME first.',
    ]);
    expect((await add({ name: 'shop', type: 'CNAME', content: 'other.example.net' })).json().errors.name).toBeDefined();
    // www has an AAAA record: a CNAME may not join it.
    expect((await add({ name: 'www', type: 'CNAME', content: 'other.example.net' })).json().errors.name).toBeDefined();
    const duplicate = await add({ name: 'www', type: 'AAAA', content: '2001:db8::10' });
    expect(duplicate.json().errors.content).toEqual(['This record already exists.']);
  });

  it('changes and deletes records, bumping the serial, and keeps the rules on change', async () => {
    const created = (await add({ name: 'edit', type: 'A', content: '192.0.2.50' })).json();
    const id = created.data.id;
    const patched = await owner.call({
      method: 'PATCH',
      url: `/api/host/domain/${domainId}/dns/${id}`,
      payload: { content: '192.0.2.51', ttl: 120 },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json().data).toMatchObject({ content: '192.0.2.51', ttl: 120, type: 'A' });
    expect(patched.json().soa.serial).toBe(created.soa.serial + 1);
    const toMx = await owner.call({
      method: 'PATCH',
      url: `/api/host/domain/${domainId}/dns/${id}`,
      payload: { type: 'MX', content: 'mx.example.com' },
    });
    expect(toMx.json().errors.priority).toBeDefined();
    const toCname = await owner.call({
      method: 'PATCH',
      url: `/api/host/domain/${domainId}/dns/${id}`,
      payload: { type: 'CNAME', content: 'x.example.net' },
    });
    expect(toCname.statusCode, toCname.body).toBe(200);
    const serialBefore = toCname.json().soa.serial;
    const deleted = await owner.call({ method: 'DELETE', url: `/api/host/domain/${domainId}/dns/${id}` });
    expect(deleted.json()).toMatchObject({ message: 'The DNS record has been deleted.', soa: { serial: serialBefore + 1 } });
    expect((await owner.call({ method: 'DELETE', url: `/api/host/domain/${domainId}/dns/${id}` })).statusCode).toBe(404);
    // A failed change does not bump the serial.
    expect((await zone()).soa.serial).toBe(serialBefore + 1);
  });

  it('starts a new day at YYYYMMDD00 and hides zones from others', async () => {
    t.clock.advance(3 * DAY);
    const answer = await add({ name: 'later', type: 'TXT', content: 'x' });
    expect(answer.json().soa.serial).toBe(2026110400);
    expect((await stranger.call({ method: 'GET', url: `/api/host/domain/${domainId}/dns` })).statusCode).toBe(404);
    expect((await add({ name: 'x', type: 'A', content: '192.0.2.9' }, stranger.call)).statusCode).toBe(404);
    const recordId = answer.json().data.id;
    const own = (await stranger.call({ method: 'POST', url: '/api/host/domain', payload: { name: 'stranger.example' } })).json().data.id;
    expect((await stranger.call({ method: 'DELETE', url: `/api/host/domain/${own}/dns/${recordId}` })).statusCode).toBe(404);
  });

  it('takes a record off the air and back, keeping it in the list and bumping the serial', async () => {
    const created = (await add({ name: 'pause', type: 'A', content: '192.0.2.77' })).json();
    expect(created.data.disabled).toBe(false);
    const url = `/api/host/domain/${domainId}/dns/${created.data.id}`;
    const off = await owner.call({ method: 'PATCH', url, payload: { disabled: true } });
    expect(off.json()).toMatchObject({ data: { disabled: true, content: '192.0.2.77' }, soa: { serial: created.soa.serial + 1 } });
    expect((await zone()).records.find((r: { id: number }) => r.id === created.data.id)).toMatchObject({ disabled: true });
    // Editing it keeps it off; only the flag turns it back on.
    expect((await owner.call({ method: 'PATCH', url, payload: { ttl: 600 } })).json().data).toMatchObject({ disabled: true, ttl: 600 });
    expect((await owner.call({ method: 'PATCH', url, payload: { disabled: false } })).json().data.disabled).toBe(false);
    expect((await owner.call({ method: 'PATCH', url, payload: { disabled: 'yes' } })).statusCode).toBe(422);
  });

  it('signs a zone once with one key, shows its DS, audits both ways and lets only those who see the domain do it', async () => {
    const url = `/api/host/domain/${domainId}/dns/dnssec`;
    expect((await zone()).dnssec).toEqual({ signed: false, ds: [] });
    // Two clicks at once still make one key.
    const [first, second] = await Promise.all([owner.call({ method: 'POST', url }), owner.call({ method: 'POST', url })]);
    expect(first!.statusCode, first!.body).toBe(200);
    expect(first!.json().message).toBe('The zone is signed. Give the DS record below to your registrar.');
    const ds = first!.json().data.ds;
    expect(ds).toEqual([{ key_tag: expect.any(Number), algorithm: 13, digest_type: 2, digest: expect.stringMatching(/^[0-9A-F]{64}$/) }]);
    expect(second!.json().data.ds).toEqual(ds);
    expect((await zone()).dnssec).toEqual({ signed: true, ds });
    expect(await t.db.selectFrom('pdns.cryptokeys').select('flags').where('domain_id', '=', domainId).execute()).toEqual([{ flags: 257 }]);
    expect((await stranger.call({ method: 'POST', url })).statusCode).toBe(404);
    expect((await stranger.call({ method: 'DELETE', url })).statusCode).toBe(404);

    const off = await owner.call({ method: 'DELETE', url });
    expect(off.json()).toMatchObject({ data: { signed: false, ds: [] }, message: 'The zone is no longer signed.' });
    const actions = await t.db.selectFrom('audit_log').select('action').where('action', 'like', 'dns.dnssec%').orderBy('id').execute();
    expect(actions.map((row) => row.action)).toEqual(['dns.dnssec_signed', 'dns.dnssec_unsigned']);
  });
});

describe('GET /api/host/domain/{id}/dns/export', () => {
  it('gives the owner the zone as a BIND master file, and no one else', async () => {
    expect((await add({ name: 'export-check', type: 'A', content: '192.0.2.77', ttl: 600 })).statusCode).toBe(201);
    const answer = await owner.call({ method: 'GET', url: `/api/host/domain/${domainId}/dns/export` });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toContain('text/dns');
    expect(answer.headers['content-disposition']).toBe('attachment; filename="example.com.zone"');
    const lines = answer.body.split('\n');
    expect(lines[1]).toBe('$ORIGIN example.com.');
    expect(lines).toContain('export-check\t600\tIN\tA\t192.0.2.77');
    expect(lines.some((line) => /^@\t\d+\tIN\tSOA\t/.test(line))).toBe(true);
    expect((await stranger.call({ method: 'GET', url: `/api/host/domain/${domainId}/dns/export` })).statusCode).toBe(404);
  });
});
