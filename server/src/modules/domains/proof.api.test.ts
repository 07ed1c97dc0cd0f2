import { sql } from 'kysely';
import { DOMAIN_PROOF_DAYS } from '@berth/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDnsWorld, type DnsWorld } from '../../../test/dns-world.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { addTenant, addUser, type Caller } from '../../../test/hosting.ts';
import type { UserRow } from '../users/queries.ts';

// A customer's own domain (a name registered elsewhere) is served once a TXT record proves it is
// theirs; the lookup asks a real DNS server on loopback (test/dns-world.ts) through DNS_RESOLVERS.

let t: TestApp;
let world: DnsWorld;
let admin: { user: UserRow; call: Caller };
let alice: { user: UserRow; call: Caller };
let bob: { user: UserRow; call: Caller };

beforeAll(async () => {
  world = await startDnsWorld();
  t = await createTestApp({ env: { DNS_RESOLVERS: world.address } });
  const tenant = await addTenant(t, 'Alpha Hosting', 'alpha.test', ['ns1.alpha.test', 'ns2.alpha.test']);
  admin = await addUser(t, tenant, 'admin@alpha.test', 'host_admin');
  alice = await addUser(t, tenant, 'alice@alpha.test', 'customer', ['Alice', 'Adams']);
  bob = await addUser(t, tenant, 'bob@alpha.test');
}, 120_000);
afterAll(async () => {
  await t?.close();
  await world?.close();
});

const verify = (call: Caller, id: number) => call({ method: 'POST', url: `/api/host/domain/${id}/verify` });

/** What the daemons read: PowerDNS's zones and records, Postfix's domains, Dovecot's mailboxes. */
async function served(name: string) {
  const count = async (query: ReturnType<typeof sql<{ n: number }>>) => Number((await query.execute(t.db)).rows[0]?.n ?? 0);
  return {
    zone: await count(sql<{ n: number }>`select count(*) as n from pdns.domains where name = ${name}`),
    records: await count(sql<{ n: number }>`select count(*) as n from pdns.records where name = ${name}`),
    mailDomain: await count(sql<{ n: number }>`select count(*) as n from mail.domains where domain = ${name}`),
    mailboxes: await count(sql<{ n: number }>`select count(*) as n from mail.mailboxes where domain = ${name}`),
    forwarders: await count(sql<{ n: number }>`select count(*) as n from mail.aliases where source like ${`%@${name}`}`),
  };
}

async function addMail(call: Caller, id: number, name: string) {
  const mailbox = await call({
    method: 'POST',
    url: `/api/host/domain/${id}/users`,
    payload: {
      uid: `info@${name}`,
      password: 'a long mailbox passphrase 7',
      password_confirmation: 'a long mailbox passphrase 7',
      quota_mb: 100,
    },
  });
  expect(mailbox.statusCode, mailbox.body).toBe(201);
  const forwarder = await call({
    method: 'POST',
    url: `/api/host/domain/${id}/aliases`,
    payload: { local_part: 'sales', destination: 'alice@example.org' },
  });
  expect(forwarder.statusCode, forwarder.body).toBe(201);
}

const auditedProofs = async (id: number) =>
  (
    await t.db
      .selectFrom('audit_log')
      .select('action')
      .where('action', '=', 'domain.verified')
      .where('target_type', '=', 'domain')
      .where('target_id', '=', String(id))
      .execute()
  ).length;

describe("a customer's own domain", () => {
  let id: number;
  let record: string;
  let value: string;

  it('is added awaiting proof: the record to publish is shown, and nothing of it is served', async () => {
    const answer = await alice.call({ method: 'POST', url: '/api/host/domain', payload: { name: 'alice-own.example' } });
    expect(answer.statusCode, answer.body).toBe(201);
    const body = answer.json();
    expect(body.message).toContain('TXT record');
    expect(body.data.awaiting_proof).toBe(true);
    expect(body.data.proof.record).toBe('_domain-verification.alice-own.example');
    expect(body.data.proof.value).toMatch(/^domain-verification=[0-9a-f]{32}$/);
    ({ id } = body.data);
    ({ record, value } = body.data.proof);

    await addMail(alice.call, id, 'alice-own.example');
    // The zone and its mail exist in the panel (ready for the day it is proven) but are not served.
    const detail = (await alice.call({ method: 'GET', url: `/api/host/domain/${id}` })).json().data;
    expect(detail.counts.dns_records).toBeGreaterThan(0);
    expect(await served('alice-own.example')).toEqual({ zone: 0, records: 0, mailDomain: 0, mailboxes: 0, forwarders: 0 });

    const listed = (await alice.call({ method: 'GET', url: '/api/host/domain' })).json().data;
    expect(listed.find((d: { id: number }) => d.id === id)).toMatchObject({ awaiting_proof: true });
  });

  it('is not proven without the record, nor by a record with another value; each check says what is missing', async () => {
    const missing = await verify(alice.call, id);
    expect(missing.statusCode, missing.body).toBe(409);
    expect(missing.json().message).toBe(
      `No TXT record ${record} with the value ${value} was found yet. Changes at your DNS provider can take up to an hour to show.`,
    );

    world.setTxt(record, ['domain-verification=00000000000000000000000000000000']);
    const wrong = await verify(alice.call, id);
    expect(wrong.statusCode, wrong.body).toBe(409);
    expect(wrong.json().message).toContain(value);
    expect(world.questions()).toBeGreaterThanOrEqual(2);
    expect((await alice.call({ method: 'GET', url: `/api/host/domain/${id}` })).json().data.awaiting_proof).toBe(true);
    expect(await auditedProofs(id)).toBe(0);
  });

  it('is checked only by whoever sees the domain: another customer gets a 404', async () => {
    expect((await verify(bob.call, id)).statusCode).toBe(404);
  });

  it('is proven once by 30 simultaneous checks after the record is published; then DNS and mail are served', async () => {
    world.setTxt(record, ['v=spf1 -all', value]);
    const answers = await Promise.all(Array.from({ length: 30 }, () => verify(alice.call, id)));
    expect(answers.map((a) => a.statusCode)).toEqual(Array.from({ length: 30 }, () => 200));
    expect(answers[0]?.json()).toMatchObject({
      data: { awaiting_proof: false, proof: null },
      message: 'The domain alice-own.example is proven to be yours: its DNS and mail are served now.',
    });
    expect(await auditedProofs(id)).toBe(1);
    const now = await served('alice-own.example');
    // The forwarder, and postmaster@, abuse@ and hostmaster@ to the owner (migration 0022).
    expect(now).toMatchObject({ zone: 1, mailDomain: 1, mailboxes: 1, forwarders: 4 });
    expect(now.records).toBeGreaterThanOrEqual(1);

    // Proven stays proven: the record may go away again.
    world.setTxt(record, []);
    expect((await verify(alice.call, id)).statusCode).toBe(200);
  });

  it("needs no proof when an admin adds it: admins vouch for their tenant's names", async () => {
    const answer = await admin.call({
      method: 'POST',
      url: '/api/host/domain',
      payload: { name: 'vouched.example', owner_id: alice.user.id },
    });
    expect(answer.statusCode, answer.body).toBe(201);
    expect(answer.json()).toMatchObject({
      data: { awaiting_proof: false, proof: null },
      message: 'The domain vouched.example has been added.',
    });
    expect((await served('vouched.example')).zone).toBe(1);
  });

  it('tells when the name servers do not answer', async () => {
    const second = (await alice.call({ method: 'POST', url: '/api/host/domain', payload: { name: 'alice-two.example' } })).json().data;
    await world.close();
    const answer = await verify(alice.call, second.id);
    expect(answer.statusCode, answer.body).toBe(409);
    expect(answer.json().message).toBe('The name servers of alice-two.example did not answer. Try again in a few minutes.');
  });
});

describe('an unproven claim', () => {
  const add = (call: Caller, name: string) => call({ method: 'POST', url: '/api/host/domain', payload: { name } });
  const DAY = 86_400_000;

  it(`holds its name for ${DOMAIN_PROOF_DAYS} days; then 30 simultaneous adds by its real holder make one domain, and the claimant is told`, async () => {
    const claimedAt = t.clock.now();
    const claim = await add(bob.call, 'squatted.example');
    expect(claim.statusCode, claim.body).toBe(201);
    expect(claim.json().data.proof.held_until).toBe(new Date(claimedAt.getTime() + DOMAIN_PROOF_DAYS * DAY).toISOString());
    const refused = await add(alice.call, 'squatted.example');
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors.name).toEqual(['This domain already exists in the panel.']);

    t.clock.advance(DOMAIN_PROOF_DAYS * DAY - 60_000);
    expect((await add(alice.call, 'squatted.example')).statusCode).toBe(422);

    t.clock.advance(120_000);
    const answers = await Promise.all(Array.from({ length: 30 }, () => add(alice.call, 'squatted.example')));
    const codes = answers.map((answer) => answer.statusCode).sort();
    expect(codes.filter((code) => code === 201)).toHaveLength(1);
    expect(codes.filter((code) => code === 422)).toHaveLength(29);
    const rows = await t.db
      .selectFrom('domains')
      .select(['owner_id', 'verification_token'])
      .where('name', '=', 'squatted.example')
      .execute();
    expect(rows).toEqual([{ owner_id: alice.user.id, verification_token: expect.stringMatching(/^domain-verification=/) }]);
    const told = await t.db.selectFrom('notifications').select(['type', 'text']).where('user_id', '=', bob.user.id).execute();
    expect(told).toEqual([
      {
        type: 'warning',
        text: `Your domain squatted.example was removed: it was not proven within ${DOMAIN_PROOF_DAYS} days, and somebody else has now added it. Add it again if it is yours.`,
      },
    ]);
  });

  it('a lapsed claim does not keep the name from the shop either; a served domain never lapses', async () => {
    const check = async (name: string) => (await alice.call({ method: 'GET', url: `/api/shop/domain-check?name=${name}` })).json().data;
    await add(bob.call, 'lapsing-claim.com');
    expect(await check('lapsing-claim.com')).toMatchObject({ available: false, reason: 'taken' });
    const vouched = await admin.call({
      method: 'POST',
      url: '/api/host/domain',
      payload: { name: 'kept-claim.com', owner_id: bob.user.id },
    });
    expect(vouched.statusCode, vouched.body).toBe(201);
    t.clock.advance((DOMAIN_PROOF_DAYS + 1) * DAY);
    // The tenant's shop sells .com (modules/shop/defaults.ts).
    expect(await check('lapsing-claim.com')).toMatchObject({ available: true, reason: null });
    expect(await check('kept-claim.com')).toMatchObject({ available: false, reason: 'taken' });
    expect((await add(alice.call, 'kept-claim.com')).statusCode).toBe(422);
  });
});
