import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareWeb, type WebSettings } from '../../src/daemons/web.ts';
import { freePort } from '../faults/processes.ts';
import { createTestApp, type TestApp } from '../harness.ts';
import { addTenant, addUser, type Caller } from '../hosting.ts';

// Debian's nginx driven by Berth's web agent (agent/), reading this test's PostgreSQL database
// through the `web` views: a site made on the panel answers within a second, a locked owner's
// sites answer 503, a site that cannot be applied leaves the others serving.

const repoRoot = path.resolve(import.meta.dirname, '../../..');
let t: TestApp;
let admin: { call: Caller };
let customer: { user: { id: number }; call: Caller };
let settings: WebSettings;
let dir: string;
let agent: ChildProcess;
let nginx: ChildProcess;
let agentLog = '';

/** GET http://<name>/<path> through the server's HTTP port (the name in the Host header). */
function get(name: string, pathname = '/'): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: settings.address, port: settings.httpPort, path: pathname, headers: { host: name } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Polls until `check` passes; answers how long it took. */
async function within(ms: number, check: () => Promise<void>): Promise<number> {
  const started = Date.now();
  for (;;) {
    try {
      await check();
      return Date.now() - started;
    } catch (error) {
      if (Date.now() - started > ms) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

const statusOf = (siteId: number) => t.db.selectFrom('web.site_status').selectAll().where('site_id', '=', siteId).executeTakeFirst();
const revisionOf = async (siteId: number) =>
  (await t.db.selectFrom('domains').select('web_revision').where('id', '=', siteId).executeTakeFirstOrThrow()).web_revision;

async function addSite(name: string): Promise<number> {
  const answer = await admin.call({ method: 'POST', url: '/api/host/domain', payload: { name, owner_id: customer.user.id } });
  expect(answer.statusCode, answer.body).toBe(201);
  return answer.json().data.id as number;
}

beforeAll(async () => {
  t = await createTestApp();
  if (!t.databaseUrl) throw new Error('the daemon tests run on PostgreSQL (BERTH_TEST_DB=postgres)');
  const tenant = await addTenant(t, 'Alpha Hosting', 'alpha.test');
  admin = await addUser(t, tenant, 'owner@alpha.test', 'host_admin');
  customer = await addUser(t, tenant, 'customer@alpha.test');
  dir = mkdtempSync(path.join(tmpdir(), 'berth-web-'));
  // nginx's workers (www-data when it starts as root) pass through to the sites and pages.
  chmodSync(dir, 0o755);
  settings = {
    databaseUrl: t.databaseUrl,
    serverName: 'web1',
    address: '127.0.0.1',
    httpPort: await freePort(),
    httpsPort: await freePort(),
    runDir: path.join(dir, 'run'),
    webRoot: path.join(dir, 'www'),
  };
  const { settingsFile } = await prepareWeb(t.db, settings);
  agent = spawn(process.execPath, [path.join(repoRoot, 'agent/src/main.ts'), settingsFile], { stdio: ['ignore', 'pipe', 'pipe'] });
  for (const stream of [agent.stdout, agent.stderr]) stream?.on('data', (chunk: Buffer) => (agentLog += chunk.toString()));
  const conf = path.join(settings.runDir, 'nginx.conf');
  await within(15_000, async () => expect(existsSync(conf), agentLog).toBe(true));
  nginx = spawn('nginx', ['-c', conf, '-g', 'daemon off;'], { stdio: 'ignore' });
  await within(15_000, async () => expect((await get('unknown.test')).status).toBe(404));
}, 120_000);

afterAll(async () => {
  if (process.env.BERTH_TEST_SHOW_AGENT) process.stdout.write(agentLog);
  nginx?.kill('SIGQUIT');
  agent?.kill('SIGTERM');
  await t?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('a domain on the panel is a website nginx serves', () => {
  it('answers a new site with its placeholder within a second, and says live at the revision applied', async () => {
    const siteId = await addSite('first-site.example');
    const took = await within(1_000, async () => {
      const page = await get('first-site.example');
      expect(page.status).toBe(200);
      expect(page.body).toContain('This website is ready');
    });
    expect(took).toBeLessThan(1_000);
    expect((await get('www.first-site.example')).status).toBe(200);
    await within(1_000, async () =>
      expect(await statusOf(siteId)).toMatchObject({ state: 'live', revision: await revisionOf(siteId), error: '' }),
    );
    // The placeholder sits in the site's document root under the customer's home.
    const placeholder = path.join(settings.webRoot, String(customer.user.id), 'first-site.example', 'public_html', 'index.html');
    expect(readFileSync(placeholder, 'utf8')).toContain('first-site.example');
    // A file the customer uploads is served as it is.
    writeFileSync(path.join(path.dirname(placeholder), 'hello.txt'), 'hello from the customer\n');
    expect(await get('first-site.example', '/hello.txt')).toEqual({ status: 200, body: 'hello from the customer\n' });
  });

  it('serves another folder when the setting changes, and replaces a file edited by hand on the next pass', async () => {
    const siteId = await addSite('moving.example');
    await within(1_000, async () => expect((await get('moving.example')).status).toBe(200));
    const changed = await customer.call({
      method: 'PATCH',
      url: `/api/host/domain/${siteId}`,
      payload: { settings: { document_root: 'web/current' } },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const root = path.join(settings.webRoot, String(customer.user.id), 'moving.example', 'web/current');
    await within(1_000, async () => expect(existsSync(path.join(root, 'index.html'))).toBe(true));
    writeFileSync(path.join(root, 'index.html'), 'the new folder\n');
    await within(1_000, async () => expect((await get('moving.example')).body).toBe('the new folder\n'));

    const file = path.join(settings.runDir, 'sites', `${siteId}.conf`);
    writeFileSync(file, readFileSync(file, 'utf8').replace('web/current', 'elsewhere'));
    await addSite('nudge.example'); // any change makes a pass
    await within(1_000, async () => expect(readFileSync(file, 'utf8')).toContain('web/current'));
  });

  it('answers 503 with the suspended page while the owner is locked, and serves again once unlocked', async () => {
    const siteId = await addSite('locked-owner.example');
    await within(1_000, async () => expect((await get('locked-owner.example')).status).toBe(200));
    const locked = await admin.call({ method: 'POST', url: `/api/system/customers/${customer.user.id}/lock` });
    expect(locked.statusCode, locked.body).toBe(200);
    await within(1_000, async () => {
      const page = await get('locked-owner.example');
      expect(page.status).toBe(503);
      expect(page.body).toContain('This website is suspended');
      expect(page.body).toContain('Alpha Hosting');
    });
    const unlocked = await admin.call({ method: 'POST', url: `/api/system/customers/${customer.user.id}/unlock` });
    expect(unlocked.statusCode, unlocked.body).toBe(200);
    await within(1_000, async () => expect((await get('locked-owner.example')).status).toBe(200));
    await within(1_000, async () => expect((await statusOf(siteId))?.state).toBe('live'));
  });

  it('refuses what would reach nginx unchecked: every such character in the folder setting gets its own field error', async () => {
    const siteId = await addSite('checked.example');
    for (const bad of ['a;b', 'a{b', 'a}b', 'a\nb', 'a"b', "a'b", '../up', 'a/../../b', 'a b']) {
      const answer = await customer.call({
        method: 'PATCH',
        url: `/api/host/domain/${siteId}`,
        payload: { settings: { document_root: bad } },
      });
      expect(answer.statusCode, bad).toBe(422);
      expect(Object.keys(answer.json().errors)).toEqual(['settings.document_root']);
    }
    const stored = await t.db.selectFrom('domains').select('settings').where('id', '=', siteId).executeTakeFirstOrThrow();
    expect(stored.settings).toMatchObject({ document_root: 'public_html' });
  });

  it('keeps serving the other sites when one cannot be applied, and says why on the failing one', async () => {
    const good = await addSite('good-neighbour.example');
    const bad = await addSite('bad-row.example');
    await within(1_000, async () => expect((await get('bad-row.example')).status).toBe(200));
    // A value the panel would never store, written behind its back: the agent checks every row again.
    await sql`update domains set settings = settings || '{"document_root": "x;} server { listen 1"}'::jsonb where id = ${bad}`.execute(
      t.db,
    );
    await within(1_000, async () => expect(await statusOf(bad)).toMatchObject({ state: 'error', error: 'invalid setting: document_root' }));
    // Its last good configuration stays; the neighbour is untouched and still served.
    expect((await get('bad-row.example')).status).toBe(200);
    expect((await get('good-neighbour.example')).status).toBe(200);
    expect((await statusOf(good))?.state).toBe('live');

    // A document root that leads out of the site through a symlink is not served at all.
    const escape = await addSite('escape.example');
    await within(1_000, async () => expect((await get('escape.example')).status).toBe(200));
    const root = path.join(settings.webRoot, String(customer.user.id), 'escape.example', 'public_html');
    rmSync(root, { recursive: true });
    symlinkSync('/etc', root);
    await addSite('nudge-two.example');
    await within(1_000, async () =>
      expect(await statusOf(escape)).toMatchObject({ state: 'error', error: 'the document root leads outside the site' }),
    );
    // nginx's reload is graceful: the old workers finish what they hold first.
    await within(1_000, async () => expect((await get('escape.example', '/hostname')).status).toBe(404));
    expect((await get('good-neighbour.example')).status).toBe(200);
  });

  it('takes a deleted site off at once', async () => {
    const siteId = await addSite('short-lived.example');
    await within(1_000, async () => expect((await get('short-lived.example')).status).toBe(200));
    const gone = await admin.call({ method: 'DELETE', url: `/api/host/domain/${siteId}?confirm=short-lived.example` });
    expect(gone.statusCode, gone.body).toBe(200);
    await within(1_000, async () => expect((await get('short-lived.example')).status).toBe(404));
    expect(existsSync(path.join(settings.runDir, 'sites', `${siteId}.conf`))).toBe(false);
  });
});
