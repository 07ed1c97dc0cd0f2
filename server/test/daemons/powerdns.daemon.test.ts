import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dnsRoleOf, preparePowerDns, resolverFor, startPowerDns, type PowerDnsSettings } from '../../src/daemons/powerdns.ts';
import { freePort } from '../faults/processes.ts';
import { createTestApp, type TestApp } from '../harness.ts';
import { within } from '../within.ts';
import { addTenant, addUser, superAdmin, type Caller } from '../hosting.ts';
import { startDnsWorld, type DnsWorld } from '../dns-world.ts';

// PowerDNS from Debian's package, reading this test's PostgreSQL database through the `pdns`
// views: what the DNS page holds is what `dig @127.0.0.1 -p <port>` answers, at once.

const run = promisify(execFile);
let t: TestApp;
let owner: { call: Caller };
let pdns: ChildProcess;
let settings: PowerDnsSettings;
let runDir: string;
let domainId: number;
let world: DnsWorld;
let customer: { call: Caller };

beforeAll(async () => {
  // The public DNS where customers publish the proof of their own domains (test/dns-world.ts).
  world = await startDnsWorld();
  t = await createTestApp({ env: { DNS_RESOLVERS: world.address } });
  if (!t.databaseUrl) throw new Error('the daemon tests run on PostgreSQL (BERTH_TEST_DB=postgres)');
  const tenant = await addTenant(t, 'Alpha', 'alpha.test', ['ns1.alpha.test', 'ns2.alpha.test']);
  // The tenant's admin adds the zones (admins vouch for their names; a customer's own domain waits
  // for its proof, below).
  owner = await addUser(t, tenant, 'owner@alpha.test', 'host_admin');
  customer = await addUser(t, tenant, 'customer@alpha.test');
  domainId = (await owner.call({ method: 'POST', url: '/api/host/domain', payload: { name: 'served.example' } })).json().data.id;
  runDir = mkdtempSync(path.join(tmpdir(), 'berth-pdns-'));
  settings = { databaseUrl: t.databaseUrl, address: '127.0.0.1', port: await freePort(), runDir };
  await preparePowerDns(t.db, settings);
  pdns = await startPowerDns(settings);
}, 120_000);
afterAll(async () => {
  pdns?.kill('SIGKILL');
  await t?.close();
  await world?.close();
  if (runDir) rmSync(runDir, { recursive: true, force: true });
});

const dns = () => resolverFor(settings.address, settings.port);
const add = async (payload: Record<string, unknown>, id = domainId) => {
  const answer = await owner.call({ method: 'POST', url: `/api/host/domain/${id}/dns`, payload });
  expect(answer.statusCode, answer.body).toBe(201);
  return answer.json().data as { id: number };
};
const errorCode = (promise: Promise<unknown>) =>
  promise.then(
    () => 'answered',
    (error: { code?: string }) => error.code,
  );

describe('PowerDNS serves the zones of the DNS page', () => {
  it('answers each record type as the page shows it, with the SOA serial and the tenant name servers', async () => {
    await add({ name: 'www', type: 'A', content: '192.0.2.10' });
    await add({ name: 'www', type: 'AAAA', content: '2001:db8::10' });
    await add({ name: 'blog', type: 'CNAME', content: 'www.served.example' });
    // The zone starts with MX 10 mail.served.example and the SPF "v=spf1 mx ~all": a backup MX
    // is added and the SPF made strict.
    await add({ name: '@', type: 'MX', content: 'backup.served.example', priority: 20 });
    const start = (await owner.call({ method: 'GET', url: `/api/host/domain/${domainId}/dns` })).json().data;
    const spf = start.records.find((r: { type: string; content: string }) => r.type === 'TXT' && r.content.startsWith('v=spf1'));
    const strict = await owner.call({
      method: 'PATCH',
      url: `/api/host/domain/${domainId}/dns/${spf.id}`,
      payload: { content: 'v=spf1 mx -all' },
    });
    expect(strict.statusCode, strict.body).toBe(200);
    await add({ name: '_sip._tcp', type: 'SRV', content: '5 5060 sip.served.example', priority: 30 });
    await add({ name: '@', type: 'CAA', content: '0 issue "letsencrypt.org"' });
    const long = `k=rsa; p=${'A'.repeat(600)}`;
    await add({ name: 'sel._domainkey', type: 'TXT', content: long });
    await add({ name: 'quote', type: 'TXT', content: 'say \\ "hi"' });

    const zone = (await owner.call({ method: 'GET', url: `/api/host/domain/${domainId}/dns` })).json().data;
    const resolver = dns();
    expect(await resolver.resolve4('www.served.example')).toEqual(['192.0.2.10']);
    expect(await resolver.resolve6('www.served.example')).toEqual(['2001:db8::10']);
    expect(await resolver.resolveCname('blog.served.example')).toEqual(['www.served.example']);
    expect((await resolver.resolveMx('served.example')).sort((a, b) => a.priority - b.priority)).toMatchObject([
      { exchange: 'mail.served.example', priority: 10 },
      { exchange: 'backup.served.example', priority: 20 },
    ]);
    expect(await resolver.resolveTxt('served.example')).toEqual([['v=spf1 mx -all']]);
    // A long TXT comes back as strings of at most 255 bytes that join to the text.
    const [dkim] = await resolver.resolveTxt('sel._domainkey.served.example');
    expect(dkim!.every((part) => Buffer.byteLength(part) <= 255)).toBe(true);
    expect(dkim!.join('')).toBe(long);
    expect((await resolver.resolveTxt('quote.served.example'))[0]!.join('')).toBe('say \\ "hi"');
    // The DKIM key made with the domain is served at its selector, whole.
    const selector = zone.mail.dkim_selector as string;
    const published = zone.records.find((r: { name: string }) => r.name === `${selector}._domainkey`);
    expect((await resolver.resolveTxt(`${selector}._domainkey.served.example`))[0]!.join('')).toBe(published.content);
    expect(await resolver.resolveSrv('_sip._tcp.served.example')).toMatchObject([
      { name: 'sip.served.example', port: 5060, priority: 30, weight: 5 },
    ]);
    expect(await resolver.resolveCaa('served.example')).toMatchObject([{ critical: 0, issue: 'letsencrypt.org' }]);
    expect((await resolver.resolveNs('served.example')).sort()).toEqual(['ns1.alpha.test', 'ns2.alpha.test']);
    expect(await resolver.resolveSoa('served.example')).toMatchObject({
      nsname: 'ns1.alpha.test',
      hostmaster: 'hostmaster.served.example',
      serial: zone.soa.serial,
    });
  });

  it('answers an empty non-terminal NOERROR with no data, and a name that is not there NXDOMAIN', async () => {
    await add({ name: 'a.b', type: 'A', content: '192.0.2.30' });
    const status = async (name: string, type: string) => {
      const { stdout } = await run('dig', [
        '+norec',
        '+time=2',
        '+tries=1',
        `@${settings.address}`,
        '-p',
        String(settings.port),
        name,
        type,
      ]);
      return { status: /status: (\w+)/.exec(stdout)?.[1], answers: Number(/ANSWER: (\d+)/.exec(stdout)?.[1]) };
    };
    for (const [name, type] of [
      ['_tcp.served.example', 'SRV'],
      ['_domainkey.served.example', 'TXT'],
      ['b.served.example', 'A'],
    ]) {
      expect(await status(name!, type!), name).toEqual({ status: 'NOERROR', answers: 0 });
    }
    expect((await status('c.b.served.example', 'A')).status).toBe('NXDOMAIN');
    expect((await status('nothing.served.example', 'A')).status).toBe('NXDOMAIN');
    // It follows the records: with the only name below it gone, `b` is gone too.
    const [record] = (await owner.call({ method: 'GET', url: `/api/host/domain/${domainId}/dns` }))
      .json()
      .data.records.filter((r: { name: string }) => r.name === 'a.b');
    expect((await owner.call({ method: 'DELETE', url: `/api/host/domain/${domainId}/dns/${record.id}` })).statusCode).toBe(200);
    expect((await status('b.served.example', 'A')).status).toBe('NXDOMAIN');
  });

  it("gives a zone made while its tenant had no name servers the platform's, and the tenant's once set, with a new serial", async () => {
    const root = await superAdmin(t);
    const setNameServers = (id: number, name_servers: string[]) =>
      root.call({ method: 'PATCH', url: `/api/system/tenants/${id}`, payload: { name_servers } });
    expect((await setNameServers(1, ['ns1.platform.test', 'ns2.platform.test'])).statusCode).toBe(200);
    const gamma = await addTenant(t, 'Gamma', 'gamma.test');
    const gammaAdmin = await addUser(t, gamma, 'admin@gamma.test', 'host_admin');
    const zoneId = (await gammaAdmin.call({ method: 'POST', url: '/api/host/domain', payload: { name: 'gamma-zone.example' } })).json().data
      .id;
    expect((await dns().resolveNs('gamma-zone.example')).sort()).toEqual(['ns1.platform.test', 'ns2.platform.test']);
    const before = (await dns().resolveSoa('gamma-zone.example')).serial;

    expect((await setNameServers(gamma, ['ns.gamma.test'])).statusCode).toBe(200);
    expect(await dns().resolveNs('gamma-zone.example')).toEqual(['ns.gamma.test']);
    const soa = await dns().resolveSoa('gamma-zone.example');
    expect(soa.nsname).toBe('ns.gamma.test');
    expect(soa.serial).toBeGreaterThan(before);
    // The DNS page shows what is served.
    const page = (await gammaAdmin.call({ method: 'GET', url: `/api/host/domain/${zoneId}/dns` })).json().data;
    expect(page.records.filter((r: { type: string }) => r.type === 'NS').map((r: { content: string }) => r.content)).toEqual([
      'ns.gamma.test',
    ]);
    expect(page.soa.serial).toBe(soa.serial);
  });

  it('serves a change within a second of its answer, and refuses a deleted domain', async () => {
    const record = await add({ name: 'live', type: 'A', content: '192.0.2.20' });
    const patched = await owner.call({
      method: 'PATCH',
      url: `/api/host/domain/${domainId}/dns/${record.id}`,
      payload: { name: 'live', type: 'A', content: '192.0.2.21', ttl: 3600 },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    const took = await within(1_000, async () => {
      expect(await dns().resolve4('live.served.example')).toEqual(['192.0.2.21']);
    });
    expect(took).toBeLessThan(1_000);

    const other = (await owner.call({ method: 'POST', url: '/api/host/domain', payload: { name: 'gone.example' } })).json().data
      .id as number;
    await add({ name: '@', type: 'A', content: '192.0.2.30' }, other);
    expect(await dns().resolve4('gone.example')).toEqual(['192.0.2.30']);
    const removed = await owner.call({ method: 'DELETE', url: `/api/host/domain/${other}?confirm=gone.example` });
    expect(removed.statusCode, removed.body).toBe(200);
    await within(1_000, async () => {
      expect(await errorCode(dns().resolve4('gone.example'))).toBe('EREFUSED');
    });
  });

  it('does not serve a record taken off the air, and serves it again when it is back', async () => {
    const record = await add({ name: 'paused', type: 'A', content: '192.0.2.50' });
    expect(await dns().resolve4('paused.served.example')).toEqual(['192.0.2.50']);
    const toggle = (disabled: boolean) =>
      owner.call({ method: 'PATCH', url: `/api/host/domain/${domainId}/dns/${record.id}`, payload: { disabled } });
    expect((await toggle(true)).json().data).toMatchObject({ disabled: true, content: '192.0.2.50' });
    await within(1_000, async () => {
      expect(await errorCode(dns().resolve4('paused.served.example'))).toBe('ENOTFOUND');
    });
    await toggle(false);
    await within(1_000, async () => {
      expect(await dns().resolve4('paused.served.example')).toEqual(['192.0.2.50']);
    });
  });

  it("answers nothing for a customer's own domain until its TXT record proves it theirs, then at once", async () => {
    const claimed = (await customer.call({ method: 'POST', url: '/api/host/domain', payload: { name: 'claimed.example' } })).json().data;
    const record = await customer.call({
      method: 'POST',
      url: `/api/host/domain/${claimed.id}/dns`,
      payload: { name: '@', type: 'A', content: '192.0.2.60' },
    });
    expect(record.statusCode, record.body).toBe(201);
    expect(await errorCode(dns().resolve4('claimed.example'))).toBe('EREFUSED');

    world.setTxt(claimed.proof.record, [claimed.proof.value]);
    const proven = await customer.call({ method: 'POST', url: `/api/host/domain/${claimed.id}/verify` });
    expect(proven.statusCode, proven.body).toBe(200);
    await within(1_000, async () => {
      expect(await dns().resolve4('claimed.example')).toEqual(['192.0.2.60']);
    });
  });

  it('serves an IDN domain in punycode', async () => {
    const idn = (await owner.call({ method: 'POST', url: '/api/host/domain', payload: { name: 'bücher.example' } })).json().data
      .id as number;
    await add({ name: 'www', type: 'A', content: '192.0.2.40' }, idn);
    expect(await dns().resolve4('www.xn--bcher-kva.example')).toEqual(['192.0.2.40']);
  });

  it('passes pdnsutil check-zone on every zone', async () => {
    for (const zone of ['served.example', 'xn--bcher-kva.example']) {
      const { stdout } = await run('pdnsutil', [`--config-dir=${runDir}`, 'check-zone', zone]);
      expect(stdout).toMatch(new RegExp(`Checked \\d+ records of '${zone.replaceAll('.', '\\.')}', 0 errors, 0 warnings`));
    }
  });

  it("gives the daemon's role the pdns schema and nothing else", async () => {
    const url = new URL(t.databaseUrl!);
    const conf = (await import('node:fs')).readFileSync(path.join(runDir, 'pdns.conf'), 'utf8');
    url.username = dnsRoleOf(url.toString());
    url.password = /gpgsql-password=(.*)/.exec(conf)![1]!;
    const client = new pg.Client({ connectionString: url.toString() });
    await client.connect();
    try {
      expect((await client.query('select count(*)::int as n from pdns.records')).rows[0].n).toBeGreaterThan(0);
      await expect(client.query('select email from public.users')).rejects.toMatchObject({ code: '42501' });
      await expect(client.query('select password from public.daemon_roles')).rejects.toMatchObject({ code: '42501' });
      await expect(client.query("update pdns.domainmetadata set content = 'x'")).rejects.toMatchObject({ code: '42501' });
    } finally {
      await client.end();
    }
  });

  it("keeps the role's password when prepared again (the running daemon keeps its logins), and names the role after the database", async () => {
    const role = dnsRoleOf(t.databaseUrl!);
    expect(role).toBe(`berth_dns_${new URL(t.databaseUrl!).pathname.slice(1).toLowerCase()}`);
    expect(dnsRoleOf('postgres://127.0.0.1/other')).toBe('berth_dns_other');
    expect(dnsRoleOf('postgres://127.0.0.1/My-Berth')).toMatch(/^berth_dns_my_berth_[0-9a-f]{12}$/);
    const before = readFileSync(path.join(runDir, 'pdns.conf'), 'utf8');
    const again = mkdtempSync(path.join(tmpdir(), 'berth-pdns-again-'));
    try {
      await preparePowerDns(t.db, { ...settings, runDir: again });
      const password = (conf: string) => /gpgsql-password=(.*)/.exec(conf)?.[1];
      expect(password(readFileSync(path.join(again, 'pdns.conf'), 'utf8'))).toBe(password(before));
    } finally {
      rmSync(again, { recursive: true, force: true });
    }
    // A new connection of the running daemon still logs in.
    expect((await dns().resolveSoa('served.example')).nsname).toBeTruthy();
  });

  it('signs a zone online with DNSSEC: RRSIGs served, the DS shown is the one PowerDNS derives, check-zone clean; unsigning stops it', async () => {
    const signed = await owner.call({ method: 'POST', url: `/api/host/domain/${domainId}/dns/dnssec` });
    expect(signed.statusCode, signed.body).toBe(200);
    const { data } = signed.json() as {
      data: { signed: boolean; ds: { key_tag: number; algorithm: number; digest_type: number; digest: string }[] };
    };
    expect(data.signed).toBe(true);
    expect(data.ds).toHaveLength(1);

    const { stdout: dsOut } = await run('pdnsutil', [`--config-dir=${runDir}`, 'export-zone-ds', 'served.example']);
    const sha256 = dsOut.split('\n').find((line) => / DS \d+ 13 2 /.test(line));
    const [ds] = data.ds;
    expect(sha256?.toUpperCase()).toContain(`DS ${ds!.key_tag} 13 2 ${ds!.digest}`);

    const dig = async (name: string, type: string) =>
      (await run('dig', ['+dnssec', '+norec', '+time=2', '+tries=1', `@${settings.address}`, '-p', String(settings.port), name, type]))
        .stdout;
    await within(1_000, async () => {
      expect(await dig('www.served.example', 'A')).toMatch(/RRSIG\s+A 13 3 /);
    });
    expect(await dig('served.example', 'DNSKEY')).toMatch(/DNSKEY\s+257 3 13 /);
    // A name that does not exist is proven absent (NSEC), not just missing.
    expect(await dig('nothing-here.served.example', 'A')).toMatch(/\bNSEC\b/);
    const { stdout: check } = await run('pdnsutil', [`--config-dir=${runDir}`, 'check-zone', 'served.example']);
    expect(check).toMatch(/Checked \d+ records of 'served\.example', 0 errors, 0 warnings/);
    // A validating resolver that trusts only the DS shown proves the answers: data, an empty
    // non-terminal's NODATA and a missing name's NXDOMAIN.
    const anchors = path.join(runDir, 'anchors.conf');
    writeFileSync(anchors, `trust-anchors { served.example. static-ds ${ds!.key_tag} 13 2 "${ds!.digest}"; };\n`);
    const delv = async (name: string, type: string) =>
      (
        await run('delv', [`@${settings.address}`, '-p', String(settings.port), '-a', anchors, '+root=served.example', name, type]).catch(
          (error: { stdout?: string; stderr?: string }) => ({ stdout: `${error.stdout ?? ''}${error.stderr ?? ''}` }),
        )
      ).stdout;
    expect(await delv('www.served.example', 'A')).toMatch(/; fully validated/);
    expect(await delv('_tcp.served.example', 'SRV')).toMatch(/; negative response, fully validated/);
    expect(await delv('nothing-here.served.example', 'A')).toMatch(/; negative response, fully validated/);

    const unsigned = await owner.call({ method: 'DELETE', url: `/api/host/domain/${domainId}/dns/dnssec` });
    expect(unsigned.json().data).toEqual({ signed: false, ds: [] });
    await within(1_000, async () => {
      expect(await dig('www.served.example', 'A')).not.toMatch(/RRSIG/);
    });
  });
});

/** What must never reach PowerDNS's zone metadata: directives, line breaks, quotes, braces, paths, bad ports. */
const BAD_SECONDARIES = [
  'ns2;evil',
  '300.1.1.1',
  '1.2.3.4:70000',
  '192.0.2.1\nallow-axfr-ips=0.0.0.0/0',
  '"192.0.2.1"',
  '{192.0.2.1}',
  '../192.0.2.1',
  "192.0.2.1'",
];

describe('a secondary name server the tenant names', () => {
  it('transfers the zone, gets a change by NOTIFY within seconds, and nobody else may transfer it', async () => {
    // A second PowerDNS in secondary mode, on its own database with PowerDNS's own schema.
    const secondaryDb = `${new URL(t.databaseUrl!).pathname.slice(1)}_secondary`;
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    await admin.query(`create database ${secondaryDb}`);
    await admin.end();
    const secondaryUrl = new URL(process.env.TEST_DATABASE_URL!);
    secondaryUrl.pathname = `/${secondaryDb}`;
    const client = new pg.Client({ connectionString: secondaryUrl.toString() });
    await client.connect();
    const secondaryDir = mkdtempSync(path.join(tmpdir(), 'berth-pdns-secondary-'));
    let secondary: ChildProcess | undefined;
    try {
      await client.query(readFileSync('/usr/share/pdns-backend-pgsql/schema/schema.pgsql.sql', 'utf8'));
      const secondaryPort = await freePort();
      const root = await superAdmin(t);
      const tenantId = (await t.db.selectFrom('domains').select('tenant_id').where('id', '=', domainId).executeTakeFirstOrThrow())
        .tenant_id;
      const bad = await root.call({
        method: 'PATCH',
        url: `/api/system/tenants/${tenantId}`,
        payload: { dns_secondaries: BAD_SECONDARIES },
      });
      expect(bad.statusCode).toBe(422);
      expect(Object.keys(bad.json().errors)).toEqual(BAD_SECONDARIES.map((_, index) => `dns_secondaries.${index}`));
      const named = await root.call({
        method: 'PATCH',
        url: `/api/system/tenants/${tenantId}`,
        payload: { dns_secondaries: [`127.0.0.1:${secondaryPort}`] },
      });
      expect(named.statusCode, named.body).toBe(200);
      expect(named.json().data.dns_secondaries).toEqual([`127.0.0.1:${secondaryPort}`]);
      const zoneId = (await owner.call({ method: 'POST', url: '/api/host/domain', payload: { name: 'secondary.example' } })).json().data.id;

      writeFileSync(
        path.join(secondaryDir, 'pdns.conf'),
        [
          'launch=gpgsql',
          `gpgsql-host=${secondaryUrl.hostname}`,
          `gpgsql-port=${secondaryUrl.port || 5432}`,
          `gpgsql-dbname=${secondaryDb}`,
          `gpgsql-user=${decodeURIComponent(secondaryUrl.username) || 'postgres'}`,
          `gpgsql-password=${decodeURIComponent(secondaryUrl.password)}`,
          'local-address=127.0.0.1',
          `local-port=${secondaryPort}`,
          `socket-dir=${secondaryDir}`,
          'secondary=yes',
          'xfr-cycle-interval=1',
          'allow-notify-from=127.0.0.0/8',
          'cache-ttl=0',
          'query-cache-ttl=0',
          'negquery-cache-ttl=0',
          'daemon=no',
          'guardian=no',
          'disable-syslog=yes',
          '',
        ].join('\n'),
      );
      await client.query(`insert into domains (name, master, type) values ('secondary.example', $1, 'SLAVE')`, [
        `127.0.0.1:${settings.port}`,
      ]);
      secondary = spawn('pdns_server', [`--config-dir=${secondaryDir}`], { stdio: 'ignore' });
      const fromSecondary = () => resolverFor('127.0.0.1', secondaryPort);
      // The first transfer.
      const serial = (await dns().resolveSoa('secondary.example')).serial;
      await within(15_000, async () => {
        expect((await fromSecondary().resolveSoa('secondary.example')).serial).toBe(serial);
      });
      // A change: a new serial, announced by NOTIFY (the SOA's refresh of three hours would not come).
      const record = await owner.call({
        method: 'POST',
        url: `/api/host/domain/${zoneId}/dns`,
        payload: { name: 'fresh', type: 'A', content: '192.0.2.77' },
      });
      expect(record.statusCode, record.body).toBe(201);
      const took = await within(10_000, async () => {
        expect(await fromSecondary().resolve4('fresh.secondary.example')).toEqual(['192.0.2.77']);
      });
      expect(took).toBeLessThan(10_000);
      // AXFR from the secondary's address, and from no other.
      const axfr = async (source: string) =>
        (
          await run('dig', [
            '-b',
            source,
            '+time=2',
            '+tries=1',
            `@${settings.address}`,
            '-p',
            String(settings.port),
            'secondary.example',
            'AXFR',
          ])
        ).stdout;
      expect(await axfr('127.0.0.1')).toMatch(/fresh\.secondary\.example\.\s+\d+\s+IN\s+A\s+192\.0\.2\.77/);
      expect(await axfr('127.0.0.2')).toMatch(/Transfer failed|REFUSED|communications error/i);
    } finally {
      secondary?.kill('SIGKILL');
      await client.end();
      rmSync(secondaryDir, { recursive: true, force: true });
      const cleanup = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${secondaryDb} with (force)`);
      await cleanup.end();
    }
  }, 60_000);
});

describe('every zone the tests made', () => {
  it('passes pdnsutil check-all-zones with 0 errors', async () => {
    const { stdout } = await run('pdnsutil', [`--config-dir=${runDir}`, 'check-all-zones']).catch((error: { stdout?: string }) => ({
      stdout: error.stdout ?? '',
    }));
    const zones = stdout.split('\n').filter((line) => /^Checked \d+ records of /.test(line));
    expect(zones.length, stdout).toBeGreaterThanOrEqual(3);
    expect(
      zones.filter((line) => !/, 0 errors,/.test(line)),
      stdout,
    ).toEqual([]);
    expect(stdout).toMatch(/^Checked \d+ zones, 0 had errors\.$/m);
  });
});
