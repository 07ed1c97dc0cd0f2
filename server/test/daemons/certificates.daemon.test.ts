import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import { connect as connectTcp, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { connect } from 'node:tls';
import { promisify } from 'node:util';
import acme from 'acme-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { preparePowerDns, startPowerDns, type PowerDnsSettings } from '../../src/daemons/powerdns.ts';
import { prepareMail, startMail, type MailSettings, type RunningMail } from '../../src/daemons/mail.ts';
import { mailHostSettings, mailLogTail, presentedCertificate } from '../mail-host.ts';
import { prepareWeb, webPrograms, type WebSettings } from '../../src/daemons/web.ts';
import { supervisor, type Supervisor } from '../../src/daemons/supervisor.ts';
import { within } from '../within.ts';
import { JobQueue } from '../../src/modules/jobs/queue.ts';
import { RETRY_AFTER_MINUTES, startCertificateJob } from '../../src/modules/certificates/service.ts';
import { CERTIFICATE_KEYS_PURPOSE } from '../../src/modules/certificates/keys.ts';
import { freePort } from '../faults/processes.ts';
import { createTestApp, type TestApp } from '../harness.ts';
import { addTenant, addUser, callerFor } from '../hosting.ts';
import { mailsTo } from '../outbox.ts';
import { startDnsWorld, type DnsWorld } from '../dns-world.ts';
import { startOcspResponder, type OcspResponder } from '../ocsp-responder.ts';
import { ownChain } from '../own-certificate.ts';
import { startPebble, type Pebble } from '../pebble.ts';
import { startRenewalInfo, type RenewalInfo } from '../renewal-info.ts';

// Certificates from Debian's Pebble with validation on: it asks Berth's PowerDNS (reading this
// test's PostgreSQL database) for the DNS-01 answers the panel writes into its own zones.

/** BERTH_PUBLIC_URL's host and webmail's (webmail.<panel host>): the panel's own certificate's names. */
const PLATFORM_NAMES = ['panel.secure.example', 'webmail.panel.secure.example'];

let t: TestApp;
let dir: string;
let pdns: ChildProcess;
let pebble: Pebble;
let world: DnsWorld;
let tenant: number;
let web: WebSettings;
let agent: ChildProcess;
let nginx: ChildProcess;
/**
 * pure-certd and Pure-FTPd as npm run services starts them (daemons/ftp.ts), under supervisord: the
 * web agent restarts Pure-FTPd's master when the default certificate changes.
 */
let ftp: Supervisor | undefined;
let earlyFtpSession: Socket | undefined;
let agentLog = '';
/** The mail host (Postfix, Dovecot and the mail agent), as npm run services starts it. */
let mailHost: MailSettings;
let mail: RunningMail;
type Someone = Awaited<ReturnType<typeof addUser>>;
let admin: Someone;
let customer: Someone;
let stranger: Someone;
/** New sessions for everyone: the clock's jumps (a certificate's lifetime) outlast the ones logged in at the start. */
async function logInAgain() {
  for (const someone of [admin, customer, stranger]) someone.call = await callerFor(t, someone.user);
}
const delivered: { type: string; data: Record<string, unknown> }[] = [];
let receiver: Server;
let ocspResponder: OcspResponder;
let renewalInfo: RenewalInfo;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'berth-acme-'));
  const dnsPort = await freePort();
  // Pebble asks HTTP-01 questions of the web server's HTTP port, at the address Berth's zone gives.
  const httpPort = await freePort();
  // Pebble runs no OCSP responder: this one answers for what Pebble issued, as Pebble's management API says.
  ocspResponder = await startOcspResponder(
    dir,
    () => pebble.intermediate(),
    async (serial) => {
      const status = await pebble.certificateStatus(serial).catch(() => '');
      return status === 'Valid' ? 'good' : status === 'Revoked' ? 'revoked' : 'unknown';
    },
  );
  pebble = await startPebble(dir, { dnsServer: `127.0.0.1:${dnsPort}`, httpPort, ocspResponderURL: ocspResponder.url });
  // Pebble's directory with ACME Renewal Information added (Pebble 2.4 has none of its own).
  renewalInfo = await startRenewalInfo(pebble.directoryUrl, readFileSync(pebble.caFile, 'utf8'));
  // The public DNS Berth asks where a name is delegated (a domain whose DNS is elsewhere).
  world = await startDnsWorld();
  t = await createTestApp({
    env: {
      ACME_DIRECTORY_URL: renewalInfo.directoryUrl,
      ACME_CA_FILE: pebble.caFile,
      ACME_EMAIL: 'hostmaster@berth.test',
      // The panel's own names, in the zone of the first domain below (its certificate is the daemons' default).
      BERTH_PUBLIC_URL: `https://${PLATFORM_NAMES[0]}/`,
      WEBHOOK_ALLOWED_RANGES: '127.0.0.1/32',
      DNS_RESOLVERS: world.address,
    },
  });
  if (!t.databaseUrl) throw new Error('the daemon tests run on PostgreSQL (BERTH_TEST_DB=postgres)');
  const settings: PowerDnsSettings = { databaseUrl: t.databaseUrl, address: '127.0.0.1', port: dnsPort, runDir: path.join(dir, 'pdns') };
  await preparePowerDns(t.db, settings);
  pdns = await startPowerDns(settings);
  mailHost = await mailHostSettings(t.databaseUrl, { prefix: 'berth-acme-mail-', rspamdDns: `127.0.0.1:${dnsPort}` });
  // The mail agent writes each domain's certificate (and the panel's) with the key derived for certificate keys.
  mailHost.certificateKeys = t.services.secrets.derive(CERTIFICATE_KEYS_PURPOSE).exportKeys();
  await prepareMail(t.db, mailHost);
  mail = await startMail(mailHost);
  tenant = await addTenant(t, 'Alpha', 'alpha.test', ['ns1.alpha.test', 'ns2.alpha.test']);
  admin = await addUser(t, tenant, 'admin@alpha.test', 'host_admin');
  customer = await addUser(t, tenant, 'customer@alpha.test');
  stranger = await addUser(t, tenant, 'stranger@alpha.test');
  receiver = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      delivered.push(JSON.parse(body) as { type: string; data: Record<string, unknown> });
      response.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  // The web server: Berth's agent writes each site's certificate where nginx reads it at the handshake.
  chmodSync(dir, 0o755);
  web = {
    databaseUrl: t.databaseUrl,
    serverName: 'web1',
    address: '127.0.0.1',
    httpPort,
    httpsPort: await freePort(),
    runDir: path.join(dir, 'web'),
    webRoot: path.join(dir, 'www'),
    userPrefix: `bt${Math.random().toString(36).slice(2, 8).replace(/[0-9]/g, 'x')}`,
    ftpPort: await freePort(),
    passivePorts: [0, 0],
    certificateKeys: t.services.secrets.derive(CERTIFICATE_KEYS_PURPOSE).exportKeys(),
  };
  // Pure-FTPd's passive range (nothing here transfers files; it will not start without one).
  const passive = await freePort();
  web.passivePorts = [passive, passive + 9];
  const { settingsFile } = await prepareWeb(t.db, web);
  agent = spawn(process.execPath, [path.join(import.meta.dirname, '../../../agent/src/main.ts'), settingsFile], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, BERTH_AGENT_SWEEP_MS: '500' },
  });
  for (const stream of [agent.stdout, agent.stderr]) stream?.on('data', (chunk: Buffer) => (agentLog += chunk.toString()));
  const conf = path.join(web.runDir, 'nginx.conf');
  await within(15_000, async () => expect(existsSync(conf), agentLog).toBe(true));
  nginx = spawn('nginx', ['-c', conf, '-g', 'daemon off;'], { stdio: 'ignore' });
  await within(15_000, async () => expect((await plainGet('unknown.test')).status).toBe(404));
  const ftpPrograms = webPrograms(web).filter((candidate) => ['pure-certd', 'pure-ftpd'].includes(candidate.name));
  const supervisorDir = path.join(dir, 'supervisor');
  mkdirSync(supervisorDir, { mode: 0o700 });
  ftp = supervisor(supervisorDir, ftpPrograms);
  await ftp.start();
  for (const program of ftpPrograms) await within(10_000, async () => expect(await program.ready()).toBe(true));
  // A session opened before the panel has its certificate: it must outlive Pure-FTPd's restart.
  earlyFtpSession = connectTcp({ host: '127.0.0.1', port: web.ftpPort });
  await ftpReply(earlyFtpSession, '220');
  const endpoint = await admin.call({
    method: 'POST',
    url: '/api/system/webhooks',
    payload: { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`, events: ['certificate.failed'] },
  });
  expect(endpoint.statusCode, endpoint.body).toBe(201);
}, 120_000);
afterAll(async () => {
  if (process.env.BERTH_TEST_SHOW_AGENT) process.stdout.write(agentLog);
  nginx?.kill('SIGQUIT');
  earlyFtpSession?.destroy();
  await ftp?.stop();
  agent?.kill('SIGTERM');
  if (process.getuid?.() === 0 && web?.userPrefix) {
    const users = readFileSync('/etc/passwd', 'utf8')
      .split('\n')
      .map((line) => line.split(':')[0] ?? '');
    for (const name of users.filter((user) => user.startsWith(web.userPrefix!)))
      await new Promise((resolve) => spawn('userdel', [name]).on('exit', resolve));
  }
  await mail?.stop();
  if (mailHost?.runDir) rmSync(mailHost.runDir, { recursive: true, force: true });
  pebble?.stop();
  await ocspResponder?.close();
  await renewalInfo?.close();
  await world?.close();
  pdns?.kill('SIGKILL');
  await t?.close();
  await new Promise((resolve) => receiver?.close(resolve));
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function addDomain(name: string): Promise<number> {
  const answer = await admin.call({ method: 'POST', url: '/api/host/domain', payload: { name, owner_id: customer.user.id } });
  expect(answer.statusCode, answer.body).toBe(201);
  return answer.json().data.id;
}
/** A pass as main.ts runs it, and the orders it queued run to their end. */
/** One certificate pass and the orders it started; `revoked` is asked for where a test expects it. */
async function pass() {
  const { ordered } = await t.services.certificates.runOnce();
  await JobQueue.idleAll();
  return { ordered };
}
const certificateOf = async (id: number, caller = customer) => {
  const answer = await caller.call({ method: 'GET', url: `/api/host/domain/${id}/certificate` });
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json().data;
};
const rowOf = (id: number) => t.db.selectFrom('certificates').selectAll().where('domain_id', '=', id).executeTakeFirstOrThrow();
const ordersOf = (id: number) => t.db.selectFrom('acme_orders').selectAll().where('domain_id', '=', id).orderBy('id').execute();

/** The leaf and its chain check out against Pebble's root of this run, for these names. */
async function expectChain(pem: string, names: string[]) {
  const [leaf, ...chain] = pem
    .split(/(?<=-----END CERTIFICATE-----)\s*/)
    .filter((part) => part.includes('BEGIN CERTIFICATE'))
    .map((part) => new X509Certificate(part));
  const root = new X509Certificate(await pebble.root());
  expect(chain.length).toBeGreaterThanOrEqual(1);
  let signed = leaf!;
  for (const issuer of [...chain, root]) {
    expect(signed.verify(issuer.publicKey), `${signed.subject} signed by ${issuer.subject}`).toBe(true);
    signed = issuer;
  }
  for (const name of names) expect(leaf!.subjectAltName).toContain(`DNS:${name}`);
  return leaf!;
}

/** GET http://<name>/ on the web server's HTTP port: status and the redirect's address. */
function plainGet(name: string, at = '/'): Promise<{ status: number; location: string | undefined }> {
  return new Promise((resolve, reject) => {
    request({ host: '127.0.0.1', port: web.httpPort, path: at, headers: { host: name } }, (response) => {
      response.resume();
      response.on('end', () => resolve({ status: response.statusCode ?? 0, location: response.headers.location }));
    })
      .on('error', reject)
      .end();
  });
}

/** A TLS handshake with nginx asking for `name` (SNI), trusting Pebble's root only: whether it verifies, and the certificate's serial. */
async function handshake(name: string): Promise<{ authorized: boolean; serial: string; error: string | null; hsts: string | undefined }> {
  const ca = await pebble.root();
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port: web.httpsPort, servername: name, ca, rejectUnauthorized: false }, () => {
      const serial = socket.getPeerCertificate().serialNumber;
      const authorized = socket.authorized;
      const error = socket.authorizationError ? String(socket.authorizationError) : null;
      socket.write(`GET / HTTP/1.1\r\nHost: ${name}\r\nConnection: close\r\n\r\n`);
      let head = '';
      socket.on('data', (chunk: Buffer) => (head += chunk.toString('latin1')));
      socket.on('end', () => resolve({ authorized, serial, error, hsts: /strict-transport-security: ([^\r\n]+)/i.exec(head)?.[1] }));
    });
    socket.on('error', reject);
  });
}

/** The certificate a TLS port presents for `sni` (or no name): its serial, and whether it is valid for `host` against Pebble's root. */
async function presented(port: number, sni: string | undefined, host = sni ?? '', starttls = false) {
  return presentedCertificate(port, { sni, host, starttls, ca: await pebble.root() });
}

/** Waits for Pure-FTPd's reply with `code` on a plain control connection. */
function ftpReply(socket: Socket, code: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let text = '';
    const onData = (chunk: Buffer) => {
      text += chunk.toString('latin1');
      if (new RegExp(`^${code} `, 'm').test(text)) {
        socket.off('data', onData);
        resolve();
      }
    };
    socket.on('data', onData);
    socket.once('error', reject);
  });
}

/** Pure-FTPd's certificate for `name` after AUTH TLS (explicit FTPS), trusting Pebble's root only. */
async function ftpsHandshake(name: string | undefined): Promise<{ authorized: boolean; serial: string }> {
  const ca = await pebble.root();
  const plain: Socket = connectTcp({ host: '127.0.0.1', port: web.ftpPort });
  await ftpReply(plain, '220');
  plain.write('AUTH TLS\r\n');
  await ftpReply(plain, '234');
  return new Promise((resolve, reject) => {
    const socket = connect({ socket: plain, ...(name ? { servername: name } : {}), ca, rejectUnauthorized: false }, () => {
      const answer = { authorized: socket.authorized, serial: socket.getPeerCertificate().serialNumber };
      socket.end();
      resolve(answer);
    });
    socket.on('error', reject);
  });
}

/** The OCSP answer nginx staples in a handshake for `name`, or null when it staples none. */
function stapled(name: string): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    let answer: Buffer | null = null;
    const socket = connect({ host: '127.0.0.1', port: web.httpsPort, servername: name, requestOCSP: true, rejectUnauthorized: false });
    socket.on('OCSPResponse', (response: Buffer) => (answer = response));
    socket.on('secureConnect', () => {
      socket.end();
      resolve(answer);
    });
    socket.on('error', reject);
  });
}

/** What openssl says of a stapled answer, checked against Pebble's intermediate: "good" when it is signed and says so. */
async function ocspStatus(answer: Buffer, leafPem: string): Promise<string> {
  const work = mkdtempSync(path.join(dir, 'staple-'));
  const { certificate } = await pebble.intermediate();
  writeFileSync(path.join(work, 'answer.der'), answer);
  writeFileSync(path.join(work, 'issuer.pem'), certificate);
  writeFileSync(path.join(work, 'leaf.pem'), leafPem);
  const file = (name: string) => path.join(work, name);
  const { stdout, stderr } = await promisify(execFile)('openssl', [
    ...['ocsp', '-respin', file('answer.der'), '-issuer', file('issuer.pem'), '-cert', file('leaf.pem')],
    ...['-VAfile', file('issuer.pem'), '-no_nonce'],
  ]);
  rmSync(work, { recursive: true, force: true });
  return `${/Response verify OK/.test(stderr) ? 'verified' : 'unverified'} ${/: (good|revoked|unknown)/.exec(stdout)?.[1] ?? '?'}`;
}

describe('a domain whose zone Berth serves', () => {
  let id: number;

  it('gets a certificate for its name and wildcard by DNS-01, validated by Pebble through PowerDNS', async () => {
    id = await addDomain('secure.example');
    expect(await certificateOf(id)).toMatchObject({ state: 'pending', names: [] });
    expect(await pass()).toEqual({ ordered: 1 });

    const shown = await certificateOf(id);
    expect(shown).toMatchObject({ state: 'valid', names: ['secure.example', '*.secure.example'], method: 'dns-01', problem: null });
    expect(shown.issuer).toMatch(/Pebble/);
    const lifetime = new Date(shown.not_after).getTime() - new Date(shown.not_before).getTime();
    expect(new Date(shown.renew_at).getTime()).toBe(new Date(shown.not_before).getTime() + Math.round((lifetime * 2) / 3));

    const row = await rowOf(id);
    const leaf = await expectChain(row.cert_pem!, ['secure.example', '*.secure.example']);
    // The key is sealed in the database, and it is the certificate's.
    expect(row.key_sealed).not.toContain('PRIVATE KEY');
    expect(leaf.checkPrivateKey(createPrivateKey(t.services.secrets.derive(CERTIFICATE_KEYS_PURPOSE).open(row.key_sealed!)))).toBe(true);
    // The server's own key does not open it: only the box for certificate keys does.
    expect(() => t.services.secrets.open(row.key_sealed!)).toThrow();
    // The answers are gone from the zone; one platform account, its key sealed.
    expect(await t.db.selectFrom('acme_dns_challenges').selectAll().execute()).toEqual([]);
    const accounts = await t.db.selectFrom('acme_accounts').selectAll().execute();
    expect(accounts).toHaveLength(1);
    expect(accounts[0]!.key_sealed).not.toContain('PRIVATE KEY');
    // Nothing more is due: the next pass orders nothing.
    expect(await pass()).toEqual({ ordered: 0 });

    // nginx serves it for the name and any name below it, verified against Pebble's root; HTTP goes to HTTPS.
    await within(15_000, async () => expect(await handshake('secure.example')).toMatchObject({ authorized: true, serial: row.serial }));
    // Right after a reload an old worker may still take a connection for a moment: asked until the new ones answer.
    await within(5_000, async () =>
      expect(await handshake('www.secure.example')).toMatchObject({ authorized: true, serial: row.serial, hsts: undefined }),
    );
    await within(5_000, async () =>
      expect(await plainGet('secure.example')).toEqual({ status: 301, location: `https://secure.example:${web.httpsPort}/` }),
    );
    // Except a CA's HTTP-01 question, answered over HTTP (the agent knows no such token: 404), never sent to HTTPS.
    expect(await plainGet('secure.example', '/.well-known/acme-challenge/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA')).toEqual({
      status: 404,
      location: undefined,
    });
    expect((await plainGet('secure.example', '/index.php?a=1')).location).toBe(`https://secure.example:${web.httpsPort}/index.php?a=1`);
    // A name without a certificate of its own gets the server's default one, which Pebble's root does not vouch for.
    expect((await handshake('unknown.test')).authorized).toBe(false);
    // HSTS once its owner switches it on (the site's settings).
    const hsts = await customer.call({ method: 'PATCH', url: `/api/host/domain/${id}`, payload: { settings: { hsts: true } } });
    expect(hsts.statusCode, hsts.body).toBe(200);
    await within(5_000, async () => expect((await handshake('secure.example')).hsts).toBe('max-age=31536000'));
    // Pure-FTPd hands out the same certificate for the name and any name below it (pure-certd),
    // and its default one for a name without its own.
    await within(5_000, async () => expect(await ftpsHandshake('secure.example')).toEqual({ authorized: true, serial: row.serial }));
    expect(await ftpsHandshake('ftp.secure.example')).toEqual({ authorized: true, serial: row.serial });
    expect((await ftpsHandshake('unknown.test')).authorized).toBe(false);
    // Dovecot (IMAPS) and Postfix (STARTTLS on 25 and on submission) present it for the domain's mail names.
    await within(10_000, async () =>
      expect(await presented(mailHost.imapsPort, 'mail.secure.example'), mailLogTail(mailHost)).toEqual({
        serial: row.serial,
        authorized: true,
      }),
    );
    expect(await presented(mailHost.smtpPort, 'secure.example', undefined, true)).toEqual({ serial: row.serial, authorized: true });
    expect(await presented(mailHost.submissionPort, 'smtp.secure.example', undefined, true)).toEqual({
      serial: row.serial,
      authorized: true,
    });
    // The key nginx reads: mode 0600, readable by nginx's workers only.
    const keyFile = path.join(web.runDir, 'certificates', `${id}.key`);
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
  });

  it("gives the panel's own names (BERTH_PUBLIC_URL, webmail) a certificate by DNS-01, which nginx and Pure-FTPd present by default", async () => {
    // Ordered in the same pass as secure.example, the zone that holds the panel's names.
    const row = await t.db.selectFrom('platform_certificates').selectAll().executeTakeFirstOrThrow();
    expect(row).toMatchObject({ state: 'valid', method: 'dns-01', names: PLATFORM_NAMES, problem: null, attempts: 0 });
    const leaf = await expectChain(row.cert_pem!, PLATFORM_NAMES);
    expect(leaf.checkPrivateKey(createPrivateKey(t.services.secrets.derive(CERTIFICATE_KEYS_PURPOSE).open(row.key_sealed!)))).toBe(true);
    const orders = await t.db.selectFrom('acme_orders').selectAll().where('domain_id', 'is', null).execute();
    expect(orders.map((order) => [order.names, order.outcome])).toEqual([[PLATFORM_NAMES, 'valid']]);
    // A client that names nothing, or a name no site has, gets it: valid for the panel's names
    // against Pebble's root (before, the self-signed default no root vouches for).
    for (const name of [undefined, 'unknown.test']) {
      await within(10_000, async () => expect((await presented(web.httpsPort, name)).serial).toBe(row.serial));
      expect(await presented(web.httpsPort, name, 'webmail.panel.secure.example')).toMatchObject({ authorized: true });
    }
    // Its names by themselves: panel.secure.example is covered by secure.example's wildcard (the
    // site's certificate); webmail.panel.secure.example, two labels below, gets the panel's.
    expect(await presented(web.httpsPort, PLATFORM_NAMES[1])).toEqual({ serial: row.serial, authorized: true });
    expect(await presented(web.httpsPort, PLATFORM_NAMES[0])).toMatchObject({ authorized: true });
    // Pure-FTPd asks pure-certd for a name a client sends; its own default, for a client that sends
    // none, it reads at its start: the web agent had supervisord start it again with the new one.
    await within(5_000, async () => expect((await ftpsHandshake('unknown.test')).serial).toBe(row.serial));
    await within(10_000, async () => expect((await ftpsHandshake(undefined)).serial).toBe(row.serial));
    // Once: the agent's later passes find the file as it is.
    expect(agentLog.split('Pure-FTPd restarted for the new default certificate')).toHaveLength(2);
    // The session opened before the restart still answers.
    earlyFtpSession!.write('NOOP\r\n');
    await ftpReply(earlyFtpSession!, '200');
    // Dovecot and Postfix: the same for a client that names nothing or a name no domain has.
    for (const name of [undefined, 'unknown.test']) {
      await within(10_000, async () =>
        expect(await presented(mailHost.imapsPort, name, PLATFORM_NAMES[0]), mailLogTail(mailHost)).toEqual({
          serial: row.serial,
          authorized: true,
        }),
      );
      expect(await presented(mailHost.smtpPort, name, PLATFORM_NAMES[0], true)).toEqual({ serial: row.serial, authorized: true });
    }
    // Where the web agent wrote it: mode 0600.
    expect(statSync(path.join(web.runDir, 'certificates', 'default.key')).mode & 0o777).toBe(0o600);
    // Due again only at its renewal time: the next pass orders nothing for it.
    await pass();
    expect(await t.db.selectFrom('acme_orders').select('id').where('domain_id', 'is', null).execute()).toHaveLength(1);
  });

  it("has its CA's OCSP answer stapled by nginx, checked against the chain; one's own certificate's responder is never asked", async () => {
    const row = await rowOf(id);
    const leafPem = row.cert_pem!.slice(0, row.cert_pem!.indexOf('-----END CERTIFICATE-----') + 25);
    expect(new X509Certificate(leafPem).infoAccess).toContain(`OCSP - URI:${ocspResponder.url}`);
    // The agent asks the responder once the files are written; nginx staples the answer within seconds.
    await within(20_000, async () => {
      const answer = await stapled('secure.example');
      expect(answer, agentLog.slice(-2000)).not.toBeNull();
      expect(await ocspStatus(answer!, leafPem)).toBe('verified good');
    });
    expect(await ocspStatus((await stapled('www.secure.example'))!, leafPem)).toBe('verified good');
    // The answer nginx reads: mode 0600 like the key.
    expect(statSync(path.join(web.runDir, 'certificates', `${id}.ocsp`)).mode & 0o777).toBe(0o600);
    // A name with the default certificate gets nothing stapled.
    expect(await stapled('unknown.test')).toBeNull();
    // One's own certificate: the responder it names (any address its owner chose) is never asked.
    const own = await ownChain(dir, ['own-ocsp.example', '*.own-ocsp.example'], 'ocsp', `${ocspResponder.url}/own`);
    // openssl dated it from now, which the platform's clock must have reached to take it.
    t.clock.set(new Date(Date.now() + 60_000));
    await logInAgain();
    const ownId = await addDomain('own-ocsp.example');
    const uploaded = await customer.call({
      method: 'PUT',
      url: `/api/host/domain/${ownId}/certificate`,
      payload: { certificate: own.leaf + own.intermediate + own.root, private_key: own.key },
    });
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    const asked = ocspResponder.requests();
    const ownSerial = new X509Certificate(own.leaf).serialNumber;
    await within(15_000, async () => expect((await handshake('own-ocsp.example')).serial).toBe(ownSerial));
    // Two of the agent's sweeps (500 ms each here) later: still not asked, nothing stapled.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(await stapled('own-ocsp.example')).toBeNull();
    expect(ocspResponder.requests()).toBe(asked);
    expect(existsSync(path.join(web.runDir, 'certificates', `${ownId}.ocsp`))).toBe(false);
  });

  it('is renewed at two thirds of its lifetime, by the controllable clock', async () => {
    const before = await rowOf(id);
    t.clock.set(new Date(new Date(before.renew_at!).getTime() - 60_000));
    expect(await pass()).toEqual({ ordered: 0 });
    t.clock.set(new Date(new Date(before.renew_at!).getTime() + 60_000));
    expect(await pass()).toEqual({ ordered: 1 });
    const after = await rowOf(id);
    expect(after.serial).not.toBe(before.serial);
    expect(after.state).toBe('valid');
    await expectChain(after.cert_pem!, ['secure.example', '*.secure.example']);
    expect(new Date(after.renew_at!).getTime()).toBeGreaterThan(new Date(before.renew_at!).getTime());
    // nginx hands out the new one within seconds, without a restart.
    await within(5_000, async () => expect(await handshake('secure.example')).toMatchObject({ authorized: true, serial: after.serial }));
  });

  it('is renewed by hand once however often "renew now" is pressed at the same instant; others see nothing of it', async () => {
    await logInAgain();
    const before = await rowOf(id);
    const answers = await Promise.all(
      Array.from({ length: 30 }, () => customer.call({ method: 'POST', url: `/api/host/domain/${id}/certificate/renew` })),
    );
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([202, ...Array(29).fill(409)]);
    expect(answers.find((answer) => answer.statusCode === 409)!.json().message).toMatch(/being ordered or waits/);
    await JobQueue.idleAll();
    expect((await rowOf(id)).serial).not.toBe(before.serial);
    expect((await stranger.call({ method: 'GET', url: `/api/host/domain/${id}/certificate` })).statusCode).toBe(404);
    expect((await stranger.call({ method: 'POST', url: `/api/host/domain/${id}/certificate/renew` })).statusCode).toBe(404);
  });
});

/** RFC 9773's identifier of a chain's leaf, from what openssl prints of it: issuer's key id, serial as a DER integer. */
async function renewalInfoIdOf(pem: string): Promise<string> {
  const file = path.join(dir, 'ari-leaf.pem');
  writeFileSync(file, pem.slice(0, pem.indexOf('-----END CERTIFICATE-----') + 25));
  const openssl = (what: string[]) => promisify(execFile)('openssl', ['x509', '-in', file, '-noout', ...what]);
  const keyId = /([0-9A-F]{2}(:[0-9A-F]{2})+)/.exec((await openssl(['-ext', 'authorityKeyIdentifier'])).stdout)![1]!.replaceAll(':', '');
  let serial = Buffer.from(/serial=([0-9A-F]+)/.exec((await openssl(['-serial'])).stdout)![1]!.padStart(2, '0'), 'hex');
  if (serial[0]! & 0x80) serial = Buffer.concat([Buffer.from([0]), serial]);
  return `${Buffer.from(keyId, 'hex').toString('base64url')}.${serial.toString('base64url')}`;
}

/**
 * The new-order requests the panel sends to the CA from now on (acme-client's own HTTP client,
 * in this process): each JWS payload, decoded.
 */
function newOrders(options: { refuseReplaces?: boolean } = {}): { payloads: Record<string, unknown>[]; stop(): void } {
  const payloads: Record<string, unknown>[] = [];
  const interceptor = acme.axios.interceptors.request.use(async (config) => {
    const body = (typeof config.data === 'string' ? JSON.parse(config.data) : config.data) as { payload?: string } | undefined;
    if (config.method?.toLowerCase() === 'post' && body?.payload) {
      const payload = JSON.parse(Buffer.from(body.payload, 'base64url').toString('utf8') || '{}') as Record<string, unknown>;
      if (Array.isArray(payload.identifiers)) payloads.push(payload);
      // What a CA with RFC 9773 says of a certificate replaced already (§5; Debian's Pebble 2.4
      // reads no `replaces`): the request goes no further.
      if (options.refuseReplaces && Array.isArray(payload.identifiers) && payload.replaces) {
        throw Object.assign(new Error('Request failed with status code 409'), {
          isAxiosError: true,
          config,
          response: {
            status: 409,
            headers: {},
            config,
            data: { type: 'urn:ietf:params:acme:error:alreadyReplaced', detail: 'the certificate was replaced already' },
          },
        });
      }
    }
    return config;
  });
  return { payloads, stop: () => acme.axios.interceptors.request.eject(interceptor) };
}

describe("the CA's renewal information (RFC 9773)", () => {
  it("moves the renewal into the CA's window and keeps it there; renews in the same pass when the CA says now", async () => {
    // Back to the real time the certificate in use was issued at (the tests above moved years ahead).
    t.clock.set(new Date());
    await logInAgain();
    const id = (await t.db.selectFrom('domains').select('id').where('name', '=', 'secure.example').executeTakeFirstOrThrow()).id;
    const before = await rowOf(id);
    const ariId = await renewalInfoIdOf(before.cert_pem!);
    const now = t.clock.now().getTime();
    const day = 24 * 60 * 60 * 1000;
    const window = { start: new Date(now + 10 * day), end: new Date(now + 11 * day) };
    // Well before two thirds of the lifetime: the CA's word counts.
    expect(new Date(before.renew_at!).getTime()).toBeGreaterThan(window.end.getTime());
    renewalInfo.setWindow(ariId, window);
    // Every certificate Berth ordered is due to be asked (the passes above asked some already).
    await t.db.updateTable('certificates').set({ renewal_info_at: null }).execute();
    const ordered = await t.db
      .selectFrom('certificates')
      .select('domain_id')
      .where('state', '=', 'valid')
      .where('method', 'in', ['dns-01', 'http-01'])
      .where('cert_pem', 'is not', null)
      .execute();
    expect(ordered.length).toBeGreaterThan(0);
    const [asked0, reads0] = [renewalInfo.asked.length, renewalInfo.directoryReads];
    expect(await pass()).toEqual({ ordered: 0 });
    expect(renewalInfo.asked).toContain(ariId);
    // Each is asked about; the directory is read once in the pass, not once per certificate.
    expect(renewalInfo.asked.length - asked0).toBe(ordered.length);
    expect(renewalInfo.directoryReads - reads0).toBe(1);
    const moved = await rowOf(id);
    const at = new Date(moved.renew_at!).getTime();
    expect(at).toBeGreaterThanOrEqual(window.start.getTime());
    expect(at).toBeLessThanOrEqual(window.end.getTime());
    // Asked again after its Retry-After (6 hours here), not at every pass.
    const asked = renewalInfo.asked.length;
    expect(await pass()).toEqual({ ordered: 0 });
    expect(renewalInfo.asked).toHaveLength(asked);
    // A minute before the moment: asked again (days later), the moment kept, nothing ordered.
    t.clock.set(new Date(at - 60_000));
    await logInAgain();
    expect(await pass()).toEqual({ ordered: 0 });
    expect(renewalInfo.asked.length).toBeGreaterThan(asked);
    expect(new Date((await rowOf(id)).renew_at!).getTime()).toBe(at);
    t.clock.set(new Date(at + 60_000));
    const orders = newOrders();
    try {
      expect(await pass()).toEqual({ ordered: 1 });
    } finally {
      orders.stop();
    }
    // The renewal named the certificate it replaces (RFC 9773 §5), and the CA took the order so.
    expect(orders.payloads).toEqual([expect.objectContaining({ replaces: ariId })]);
    const renewed = await rowOf(id);
    expect(renewed.serial).not.toBe(before.serial);
    // The CA wants the new one replaced already (its window has passed, as before a revocation):
    // asked at the next pass and ordered in the same one.
    const nowAgain = t.clock.now().getTime();
    renewalInfo.setWindow(await renewalInfoIdOf(renewed.cert_pem!), {
      start: new Date(nowAgain - 2 * 60 * 60_000),
      end: new Date(nowAgain - 60_000),
    });
    expect(await pass()).toEqual({ ordered: 1 });
    expect((await rowOf(id)).serial).not.toBe(renewed.serial);
  });

  it('orders the renewal without `replaces` when the CA refuses it for the certificate named', async () => {
    const id = (await t.db.selectFrom('domains').select('id').where('name', '=', 'secure.example').executeTakeFirstOrThrow()).id;
    const before = await rowOf(id);
    const now = t.clock.now().getTime();
    // Due now; the CA's window asked for already (so that only the renewal is sent).
    await t.db
      .updateTable('certificates')
      .set({ renew_at: new Date(now - 60_000), renewal_info_at: new Date(now + 24 * 60 * 60_000), next_try_at: null })
      .where('domain_id', '=', id)
      .execute();
    const orders = newOrders({ refuseReplaces: true });
    try {
      expect(await pass()).toEqual({ ordered: 1 });
    } finally {
      orders.stop();
    }
    // Refused with `replaces`, then the same names again without it, which the CA issued.
    const [refused, sent] = orders.payloads;
    expect(orders.payloads).toHaveLength(2);
    expect(refused).toEqual(expect.objectContaining({ replaces: await renewalInfoIdOf(before.cert_pem!) }));
    expect(sent).not.toHaveProperty('replaces');
    expect(sent?.identifiers).toEqual(refused?.identifiers);
    const renewed = await rowOf(id);
    expect(renewed.state).toBe('valid');
    expect(renewed.serial).not.toBe(before.serial);
  });
});

describe('a domain whose DNS is elsewhere', () => {
  it("gets a certificate for its name and www by HTTP-01, answered by the site's web server from the database", async () => {
    // Its zone (prepared in Berth) gives the web server's address; the public delegation names other servers.
    await t.db.updateTable('tenants').set({ hosting_ipv4: '127.0.0.1' }).where('id', '=', tenant).execute();
    world.setNs('outside.example', ['ns1.elsewhere.test', 'ns2.elsewhere.test']);
    const id = await addDomain('outside.example');
    expect(await pass()).toEqual({ ordered: 1 });
    const shown = await certificateOf(id);
    expect(shown, JSON.stringify(shown)).toMatchObject({
      state: 'valid',
      names: ['outside.example', 'www.outside.example'],
      method: 'http-01',
      problem: null,
    });
    const row = await rowOf(id);
    await expectChain(row.cert_pem!, ['outside.example', 'www.outside.example']);
    // The answers existed only while the order ran; a question now is not answered.
    expect(await t.db.selectFrom('acme_http_challenges').selectAll().execute()).toEqual([]);
    expect((await plainGet('outside.example', '/.well-known/acme-challenge/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA')).status).toBe(404);
    await within(15_000, async () => expect(await handshake('outside.example')).toMatchObject({ authorized: true, serial: row.serial }));

    // Aliases: one that points where the name does is added to the certificate by a new order; one
    // that points elsewhere is left out (asked for, it would fail the whole order), and is not
    // asked for again at every pass. The public DNS says where each points; Pebble asks the zone.
    world.setA('outside.example', () => ['127.0.0.1']);
    world.setA('shop.outside.example', () => ['127.0.0.1']);
    world.setA('old.outside.example', () => ['192.0.2.80']);
    const record = await customer.call({
      method: 'POST',
      url: `/api/host/domain/${id}/dns`,
      payload: { name: 'shop', type: 'A', content: '127.0.0.1' },
    });
    expect(record.statusCode, record.body).toBe(201);
    const patched = await customer.call({
      method: 'PATCH',
      url: `/api/host/domain/${id}`,
      payload: { settings: { aliases: ['shop', 'old'] } },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(await pass()).toEqual({ ordered: 1 });
    const shownWithAlias = await certificateOf(id);
    expect(shownWithAlias, JSON.stringify(shownWithAlias)).toMatchObject({
      state: 'valid',
      names: ['outside.example', 'www.outside.example', 'shop.outside.example'],
      method: 'http-01',
    });
    const withAlias = await rowOf(id);
    expect(withAlias.serial).not.toBe(row.serial);
    const leaf = await expectChain(withAlias.cert_pem!, ['outside.example', 'www.outside.example', 'shop.outside.example']);
    expect(leaf.subjectAltName).not.toContain('old.outside.example');
    expect(await pass()).toEqual({ ordered: 0 });
    await within(15_000, async () =>
      expect(await handshake('shop.outside.example')).toMatchObject({ authorized: true, serial: withAlias.serial }),
    );
    await t.db.updateTable('tenants').set({ hosting_ipv4: null }).where('id', '=', tenant).execute();
  });
});

describe("the panel's own names in a zone delegated elsewhere", () => {
  it('get their certificate by HTTP-01, answered by every web server; the names it was started with come back at the next pass', async () => {
    // First a name the CA cannot reach: the order fails, the certificate in use stays as it is, and
    // the other names stay due once the wait is over.
    const before = await t.db.selectFrom('platform_certificates').selectAll().executeTakeFirstOrThrow();
    const lost = t.services.certificates.platformWith(['lost.nowhere.example'])!;
    const start = t.clock.now().getTime();
    expect(await lost.claim(t.clock.now())).toBe(true);
    await lost.order();
    const failed = await t.db.selectFrom('platform_certificates').selectAll().executeTakeFirstOrThrow();
    expect(failed).toMatchObject({ state: 'valid', serial: before.serial, names: before.names, method: before.method, attempts: 1 });
    expect(failed.problem).toMatch(/lost\.nowhere\.example/);
    expect(await lost.claim(t.clock.now())).toBe(false);
    t.clock.set(new Date(start + (RETRY_AFTER_MINUTES[0] + 1) * 60_000));
    expect(await lost.claim(t.clock.now())).toBe(true);
    // That claim's lease over, as after a restart with other names: webmail.outside.example is in
    // a zone Berth holds but the public DNS delegates elsewhere.
    t.clock.set(new Date(start + (RETRY_AFTER_MINUTES[0] + 12) * 60_000));
    await logInAgain();
    const panel = t.services.certificates.platformWith(['webmail.outside.example'])!;
    expect(await panel.claim(t.clock.now())).toBe(true);
    await panel.order();
    const row = await t.db.selectFrom('platform_certificates').selectAll().executeTakeFirstOrThrow();
    expect(row, row.problem ?? '').toMatchObject({ state: 'valid', method: 'http-01', names: ['webmail.outside.example'], problem: null });
    await expectChain(row.cert_pem!, ['webmail.outside.example']);
    expect(await t.db.selectFrom('acme_platform_challenges').selectAll().execute()).toEqual([]);
    await within(10_000, async () => expect((await presented(web.httpsPort, 'unknown.test')).serial).toBe(row.serial));
    await pass();
    await JobQueue.idleAll();
    const back = await t.db.selectFrom('platform_certificates').selectAll().executeTakeFirstOrThrow();
    expect(back).toMatchObject({ state: 'valid', method: 'dns-01', names: PLATFORM_NAMES });
    await within(10_000, async () =>
      expect(await presented(web.httpsPort, undefined, PLATFORM_NAMES[0])).toEqual({ authorized: true, serial: back.serial }),
    );
  });
});

describe('a deleted domain', () => {
  it('has the certificate Berth ordered for it revoked at the CA, once', async () => {
    const gone = await addDomain('leaving.example');
    expect(await pass()).toEqual({ ordered: 1 });
    const { serial } = await rowOf(gone);
    expect(await pebble.certificateStatus(serial!)).toBe('Valid');
    const deleted = await customer.call({ method: 'DELETE', url: `/api/host/domain/${gone}?confirm=leaving.example` });
    expect(deleted.statusCode, deleted.body).toBe(200);
    // Two passes at once: one revocation.
    const passes = await Promise.all([t.services.certificates.runOnce(), t.services.certificates.runOnce()]);
    expect(passes.map((done) => done.revoked).sort()).toEqual([0, 1]);
    expect(await pebble.certificateStatus(serial!)).toBe('Revoked');
    const left = await t.db.selectFrom('certificate_revocations').selectAll().where('serial', '=', serial!).execute();
    expect(left).toMatchObject([{ attempts: 1, problem: null }]);
    expect(left[0]!.revoked_at).not.toBeNull();
    expect((await t.services.certificates.runOnce()).revoked).toBe(0);
  });
});

describe('a renewal that keeps failing near the end', () => {
  it('keeps the valid certificate in use and warns its owner once, 14 days before the end', async () => {
    await logInAgain();
    const id = (await t.db.selectFrom('domains').select('id').where('name', '=', 'secure.example').executeTakeFirstOrThrow()).id;
    const ns = await admin.call({
      method: 'POST',
      url: `/api/host/domain/${id}/dns`,
      payload: { name: '_acme-challenge', type: 'NS', content: 'ns.elsewhere.example' },
    });
    expect(ns.statusCode, ns.body).toBe(201);
    const before = await rowOf(id);
    const end = new Date(before.not_after!).getTime();
    for (const daysLeft of [20, 10, 9]) {
      t.clock.set(new Date(end - daysLeft * 24 * 60 * 60 * 1000));
      await pass();
    }
    const row = await rowOf(id);
    expect(row).toMatchObject({ state: 'valid', serial: before.serial, attempts: 3 });
    await logInAgain();
    expect(await certificateOf(id)).toMatchObject({ state: 'renewing', problem: 'No TXT records found for DNS challenge' });
    const mails = (await mailsTo(t.db, 'customer@alpha.test')).map((mail) => mail.subject);
    expect(mails).toEqual(['The certificate of secure.example at Alpha could not be renewed']);
    const notes = await t.db.selectFrom('notifications').select('text').where('user_id', '=', customer.user.id).execute();
    expect(notes.map((note) => note.text)).toEqual([
      expect.stringMatching(
        /^The certificate of secure\.example could not be renewed and ends on .*\. The CA says: No TXT records found for DNS challenge$/,
      ),
    ]);
    await within5s(() => delivered.some((event) => event.type === 'certificate.failed' && event.data.valid_until !== null));
    await admin.call({ method: 'DELETE', url: `/api/host/domain/${id}/dns/${ns.json().data.id}` });
  });
});

describe('a validation that fails', () => {
  it("shows the CA's reason, tells the tenant's webhooks, is retried later and not at once, and succeeds once fixed", async () => {
    await logInAgain();
    const id = await addDomain('delegated.example');
    // The customer delegated _acme-challenge elsewhere (as for another CA client): Berth's answer is not where the CA looks.
    const ns = await admin.call({
      method: 'POST',
      url: `/api/host/domain/${id}/dns`,
      payload: { name: '_acme-challenge', type: 'NS', content: 'ns.elsewhere.example' },
    });
    expect(ns.statusCode, ns.body).toBe(201);
    const started = t.clock.now();
    await pass();
    const failed = await certificateOf(id);
    expect(failed.state).toBe('failed');
    expect(failed.problem).toBe('No TXT records found for DNS challenge');
    expect(new Date(failed.next_try_at).getTime()).toBe(started.getTime() + RETRY_AFTER_MINUTES[0] * 60_000);
    // Not again before then, however many passes run.
    await Promise.all([pass(), pass()]);
    t.clock.set(new Date(started.getTime() + RETRY_AFTER_MINUTES[0] * 60_000 - 1000));
    await pass();
    expect(await ordersOf(id)).toHaveLength(1);
    // "Renew now" respects the wait too.
    const early = await customer.call({ method: 'POST', url: `/api/host/domain/${id}/certificate/renew` });
    expect(early.statusCode).toBe(409);

    const ours = (event: { type: string; data: Record<string, unknown> }) =>
      event.type === 'certificate.failed' && (event.data.domain as { id: number }).id === id;
    await within5s(() => delivered.some(ours));
    const event = delivered.find(ours)!;
    expect(event.data).toMatchObject({ domain: { id, name: 'delegated.example' }, attempts: 1, valid_until: null });

    await logInAgain();
    await admin.call({ method: 'DELETE', url: `/api/host/domain/${id}/dns/${ns.json().data.id}` });
    t.clock.set(new Date(started.getTime() + RETRY_AFTER_MINUTES[0] * 60_000 + 1000));
    await pass();
    expect(await certificateOf(id)).toMatchObject({ state: 'valid', problem: null, next_try_at: null });
    expect((await ordersOf(id)).map((order) => order.outcome)).toEqual(['failed', 'valid']);
  });
});

describe('a domain created while the panel runs', () => {
  it('has its certificate within seconds: the database wakes the pass, which otherwise runs hourly here', async () => {
    // As main.ts starts it, with a pass every hour: only the channel can make it run now.
    const job = startCertificateJob(t.services.certificates, t.app.log, {
      everyMs: 3_600_000,
      firstAfterMs: 3_600_000,
      databaseUrl: t.databaseUrl,
    });
    try {
      await new Promise((resolve) => setTimeout(resolve, 500));
      const created = Date.now();
      const id = await addDomain('at-once.example');
      await within(20_000, async () => {
        await JobQueue.idleAll();
        expect(await certificateOf(id)).toMatchObject({ state: 'valid', names: ['at-once.example', '*.at-once.example'] });
      });
      const row = await rowOf(id);
      await within(15_000, async () => expect(await handshake('at-once.example')).toMatchObject({ authorized: true, serial: row.serial }));
      process.stdout.write(`domain created to HTTPS with its certificate: ${Date.now() - created} ms\n`);
    } finally {
      await job.stop();
    }
  });
});

async function within5s(check: () => boolean): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('not within 5 s');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
