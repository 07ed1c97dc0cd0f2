import { createPublicKey, createVerify, createSign, createPrivateKey, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { addTenant, addUser, type Caller } from '../../../test/hosting.ts';
import { SecretBox } from '../../lib/secret-box.ts';
import { DKIM_KEYS_PURPOSE } from './dkim.ts';
import type { UserRow } from '../users/queries.ts';

// DKIM, SPF and DMARC for every domain: the key made with the domain, its TXT record in the zone,
// the checks the DNS page shows, and the action that makes a key for a domain without one.

let t: TestApp;
let owner: { user: UserRow; call: Caller };
let stranger: { user: UserRow; call: Caller };

beforeAll(async () => {
  t = await createTestApp();
  const tenant = await addTenant(t, 'Alpha', 'alpha.test', ['ns1.alpha.test']);
  owner = await addUser(t, tenant, 'owner@alpha.test');
  stranger = await addUser(t, tenant, 'stranger@alpha.test');
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const newDomain = async (name: string): Promise<number> => {
  const answer = await owner.call({ method: 'POST', url: '/api/host/domain', payload: { name } });
  expect(answer.statusCode, answer.body).toBe(201);
  return answer.json().data.id;
};
const zoneOf = async (id: number) => (await owner.call({ method: 'GET', url: `/api/host/domain/${id}/dns` })).json().data;
const stateOf = (zone: { mail: { checks: { kind: string; state: string }[] } }) =>
  Object.fromEntries(zone.mail.checks.map((c) => [c.kind, c.state]));

describe('mail records of a zone', () => {
  it('publishes a 2048-bit DKIM key with a new domain and keeps its private half sealed', async () => {
    const id = await newDomain('dkim.example');
    const zone = await zoneOf(id);
    const selector = zone.mail.dkim_selector as string;
    expect(selector).toMatch(/^berth\d{6}$/);
    const txt = zone.records.find((r: { name: string }) => r.name === `${selector}._domainkey`);
    expect(txt).toMatchObject({ type: 'TXT', fqdn: `${selector}._domainkey.dkim.example` });
    const p = /p=([A-Za-z0-9+/=]+)$/.exec(txt.content)?.[1] as string;
    const publicKey = createPublicKey({ key: Buffer.from(p, 'base64'), format: 'der', type: 'spki' });
    expect(publicKey.asymmetricKeyDetails?.modulusLength).toBe(2048);

    const stored = await t.db.selectFrom('dkim_keys').selectAll().where('domain_id', '=', id).executeTakeFirstOrThrow();
    expect(stored.private_key).not.toContain('PRIVATE KEY');
    // The sealed private key opens with the key derived for the signer (the mail agent holds that
    // one, not the server's) and signs what the published key verifies.
    const box = SecretBox.load({ key: t.config.BERTH_SECRET_KEY, dataDir: '' });
    expect(() => box.open(stored.private_key)).toThrow();
    const privateKey = createPrivateKey(box.derive(DKIM_KEYS_PURPOSE).open(stored.private_key));
    const signature = createSign('sha256').update('message').sign(privateKey);
    expect(createVerify('sha256').update('message').verify(publicKey, signature)).toBe(true);

    // The default MX, SPF and DMARC are there too; mail.<domain> waits for the tenant's address.
    expect(stateOf(zone)).toEqual({ mx: 'warning', spf: 'ok', dkim: 'ok', dmarc: 'ok' });
  });

  it("seals keys made before signing existed (under the server's key) for the signer once, at start", async () => {
    const id = await newDomain('older.example');
    const box = SecretBox.load({ key: t.config.BERTH_SECRET_KEY, dataDir: '' });
    const signer = box.derive(DKIM_KEYS_PURPOSE);
    const stored = await t.db.selectFrom('dkim_keys').select('private_key').where('domain_id', '=', id).executeTakeFirstOrThrow();
    const pem = signer.open(stored.private_key);
    await t.db
      .updateTable('dkim_keys')
      .set({ private_key: box.seal(pem) })
      .where('domain_id', '=', id)
      .execute();

    expect(await t.services.dns.sealDkimKeys()).toEqual({ sealed: 1, unreadable: 0 });
    const resealed = await t.db.selectFrom('dkim_keys').select('private_key').where('domain_id', '=', id).executeTakeFirstOrThrow();
    expect(signer.open(resealed.private_key)).toBe(pem);
    expect(await t.services.dns.sealDkimKeys()).toEqual({ sealed: 0, unreadable: 0 });

    // One sealed under a key this server does not hold (another instance's) is left as it is: the server starts all the same.
    const foreign = SecretBox.load({ key: randomBytes(32).toString('hex'), dataDir: '' }).seal(pem);
    await t.db.updateTable('dkim_keys').set({ private_key: foreign }).where('domain_id', '=', id).execute();
    expect(await t.services.dns.sealDkimKeys()).toEqual({ sealed: 0, unreadable: 1 });
    const kept = await t.db.selectFrom('dkim_keys').select('private_key').where('domain_id', '=', id).executeTakeFirstOrThrow();
    expect(kept.private_key).toBe(foreign);
  });

  it('turns each check green as its proposal is added', async () => {
    const id = await newDomain('proposals.example');
    // As a zone made before the mail records came with it: only NS and DKIM.
    await t.db
      .deleteFrom('dns_records')
      .where('domain_id', '=', id)
      .where((eb) => eb.or([eb('type', '=', 'MX'), eb.and([eb('type', '=', 'TXT'), eb('name', 'not like', '%._domainkey')])]))
      .execute();
    let zone = await zoneOf(id);
    expect(stateOf(zone)).toEqual({ mx: 'missing', spf: 'missing', dkim: 'ok', dmarc: 'missing' });
    for (const kind of ['mx', 'spf', 'dmarc']) {
      const proposal = zone.mail.checks.find((c: { kind: string }) => c.kind === kind).proposal;
      const added = await owner.call({ method: 'POST', url: `/api/host/domain/${id}/dns`, payload: { ...proposal, disabled: false } });
      expect(added.statusCode, added.body).toBe(201);
      zone = await zoneOf(id);
    }
    // The proposed MX is mail.<domain>: it needs an address before mail can reach it.
    expect(stateOf(zone)).toEqual({ mx: 'warning', spf: 'ok', dkim: 'ok', dmarc: 'ok' });
    const mx = zone.mail.checks.find((c: { kind: string }) => c.kind === 'mx');
    expect(mx).toMatchObject({ reason: 'mx_no_address', params: { host: 'mail.proposals.example' } });
    await owner.call({
      method: 'POST',
      url: `/api/host/domain/${id}/dns`,
      payload: { name: 'mail', type: 'A', content: '192.0.2.25', ttl: 3600, priority: null, disabled: false },
    });
    expect(stateOf(await zoneOf(id))).toEqual({ mx: 'ok', spf: 'ok', dkim: 'ok', dmarc: 'ok' });
  });

  it('makes a key for a domain without one once, however many ask at the same instant', async () => {
    const id = await newDomain('keyless.example');
    // As a domain bought in the shop or made before keys existed: no key, no record.
    await t.db.deleteFrom('dkim_keys').where('domain_id', '=', id).execute();
    await t.db.deleteFrom('dns_records').where('domain_id', '=', id).where('name', 'like', '%._domainkey').execute();
    const before = await zoneOf(id);
    expect(before.mail.dkim_selector).toBeNull();
    expect(before.mail.checks.find((c: { kind: string }) => c.kind === 'dkim')).toMatchObject({
      state: 'missing',
      reason: 'dkim_no_key',
      proposal: null,
    });

    const answers = await Promise.all(
      Array.from({ length: 30 }, () => owner.call({ method: 'POST', url: `/api/host/domain/${id}/dns/dkim` })),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(30).fill(200));
    expect(answers[0]?.json().message).toBe('The DKIM key is published in the zone.');
    const keys = await t.db.selectFrom('dkim_keys').select('selector').where('domain_id', '=', id).execute();
    expect(keys).toHaveLength(1);
    const zone = await zoneOf(id);
    expect(zone.records.filter((r: { name: string }) => r.name.endsWith('._domainkey'))).toHaveLength(1);
    expect(stateOf(zone).dkim).toBe('ok');
    const audit = await t.db.selectFrom('audit_log').select('action').where('action', '=', 'dns.dkim_published').execute();
    expect(audit).toHaveLength(1);

    // A deleted TXT record is published again from the same key.
    const txt = zone.records.find((r: { name: string }) => r.name.endsWith('._domainkey'));
    await owner.call({ method: 'DELETE', url: `/api/host/domain/${id}/dns/${txt.id}` });
    expect(stateOf(await zoneOf(id)).dkim).toBe('missing');
    const again = await owner.call({ method: 'POST', url: `/api/host/domain/${id}/dns/dkim` });
    expect(again.json().data.checks.find((c: { kind: string }) => c.kind === 'dkim').state).toBe('ok');
    expect(await t.db.selectFrom('dkim_keys').select('selector').where('domain_id', '=', id).execute()).toEqual(keys);
  });

  it('rotates the DKIM key: the new one is published at once, signs after the TTL, the old record goes a week later; one rotation at a time', async () => {
    const id = await newDomain('rotate.example');
    const before = await t.db.selectFrom('dkim_keys').selectAll().where('domain_id', '=', id).executeTakeFirstOrThrow();
    const txtAt = async (selector: string) =>
      (await zoneOf(id)).records.filter((r: { name: string; type: string }) => r.name === `${selector}._domainkey` && r.type === 'TXT');
    const url = `/api/host/domain/${id}/dns/dkim/rotate`;

    // 30 at the same instant: one rotation.
    const answers = await Promise.all(Array.from({ length: 30 }, () => owner.call({ method: 'POST', url })));
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, ...Array<number>(29).fill(409)]);
    const started = answers.find((answer) => answer.statusCode === 200)!.json();
    const next = started.data.dkim_rotation.next_selector as string;
    expect(next).not.toBe(before.selector);
    expect(started.data.dkim_selector).toBe(before.selector);
    expect(started.data.dkim_rotation.signs_at).toBe(new Date(t.clock.now().getTime() + 3600_000).toISOString());
    expect(await txtAt(next)).toHaveLength(1);
    expect(await txtAt(before.selector)).toHaveLength(1);
    expect(answers.find((answer) => answer.statusCode === 409)!.json().message).toMatch(/rotation is under way/);
    expect(await stranger.call({ method: 'POST', url })).toMatchObject({ statusCode: 404 });

    // Before the TTL has passed it still signs with the old key.
    t.clock.advance(3599_000);
    expect(await t.services.dns.runDkimRotations()).toBe(0);
    t.clock.advance(1_000);
    expect(await t.services.dns.runDkimRotations()).toBe(1);
    const switched = await t.db.selectFrom('dkim_keys').selectAll().where('domain_id', '=', id).executeTakeFirstOrThrow();
    expect(switched.selector).toBe(next);
    expect(switched.private_key).not.toBe(before.private_key);
    expect(switched.old_selector).toBe(before.selector);
    expect(await txtAt(before.selector)).toHaveLength(1);
    expect((await owner.call({ method: 'POST', url })).statusCode).toBe(409);

    // A week later the old record goes, and another rotation may start.
    t.clock.advance(7 * 86_400_000 - 1_000);
    expect(await t.services.dns.runDkimRotations()).toBe(0);
    t.clock.advance(1_000);
    expect(await t.services.dns.runDkimRotations()).toBe(1);
    expect(await txtAt(before.selector)).toHaveLength(0);
    expect(await txtAt(next)).toHaveLength(1);
    const zone = await zoneOf(id);
    expect(zone.mail).toMatchObject({ dkim_selector: next, dkim_rotation: null });
    expect(stateOf(zone).dkim).toBe('ok');
    expect((await owner.call({ method: 'POST', url })).statusCode).toBe(200);
  });

  it('refuses another customer and removes the key with the domain', async () => {
    const id = await newDomain('gone.example');
    expect((await stranger.call({ method: 'POST', url: `/api/host/domain/${id}/dns/dkim` })).statusCode).toBe(404);
    expect((await owner.call({ method: 'DELETE', url: `/api/host/domain/${id}?confirm=gone.example` })).statusCode).toBe(200);
    expect(await t.db.selectFrom('dkim_keys').select('selector').where('domain_id', '=', id).execute()).toEqual([]);
  });
});
