import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAIL_ALIASES_PER_DOMAIN } from '@berth/contracts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { addTenant, addUser, type Caller } from '../../../test/hosting.ts';
import type { UserRow } from '../users/queries.ts';

let t: TestApp;
let owner: { user: UserRow; call: Caller };
let stranger: { user: UserRow; call: Caller };
let admin: { user: UserRow; call: Caller };
let domainId: number;
const PASS = 'mailbox passphrase 2026';

beforeAll(async () => {
  t = await createTestApp();
  const tenant = await addTenant(t, 'Alpha', 'alpha.test');
  owner = await addUser(t, tenant, 'owner@alpha.test');
  stranger = await addUser(t, tenant, 'stranger@alpha.test');
  admin = await addUser(t, tenant, 'admin@alpha.test', 'host_admin');
  domainId = (await owner.call({ method: 'POST', url: '/api/host/domain', payload: { name: 'forward.example' } })).json().data.id;
  const mailbox = await owner.call({
    method: 'POST',
    url: `/api/host/domain/${domainId}/users`,
    payload: { uid: 'info', password: PASS, password_confirmation: PASS },
  });
  expect(mailbox.statusCode).toBe(201);
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const url = (suffix = '') => `/api/host/domain/${domainId}/aliases${suffix}`;
const add = (call: Caller, payload: Record<string, unknown>) => call({ method: 'POST', url: url(), payload });

describe('/api/host/domain/:id/aliases', () => {
  it('adds a forwarder from a local part or a whole address, lists and removes it, in the audit log', async () => {
    const answer = await add(owner.call, { local_part: 'Sales', destination: 'Team@Elsewhere.example' });
    expect(answer.statusCode, answer.body).toBe(201);
    expect(answer.json().data).toMatchObject({
      address: 'sales@forward.example',
      destination: 'team@elsewhere.example',
      domain_id: domainId,
    });
    expect(answer.json().message).toBe('sales@forward.example now forwards to team@elsewhere.example.');
    const second = await add(admin.call, { local_part: 'sales@forward.example', destination: 'info@forward.example' });
    expect(second.statusCode, second.body).toBe(201);

    const list = await owner.call({ method: 'GET', url: url() });
    expect(list.json().data.map((a: { destination: string }) => a.destination)).toEqual(['info@forward.example', 'team@elsewhere.example']);
    // What Postfix reads: one row per destination.
    const view = await t.db.selectFrom('mail_aliases').select(['local_part', 'destination']).where('domain_id', '=', domainId).execute();
    expect(view).toHaveLength(2);

    const removed = await owner.call({ method: 'DELETE', url: url(`/${answer.json().data.id}`) });
    expect(removed.statusCode).toBe(200);
    expect((await owner.call({ method: 'GET', url: url() })).json().data).toHaveLength(1);
    const actions = await t.db.selectFrom('audit_log').select('action').where('action', 'like', 'mail_alias.%').execute();
    expect(actions.map((a) => a.action).sort()).toEqual(['mail_alias.created', 'mail_alias.created', 'mail_alias.deleted']);
  });

  it.each([
    [{ local_part: 'bad local', destination: 'a@b.example' }, 'local_part', 'Enter an address like sales or sales@forward.example'],
    [{ local_part: 'x@other.example', destination: 'a@b.example' }, 'local_part', 'Enter an address like sales'],
    [{ local_part: 'info', destination: 'a@b.example' }, 'local_part', 'A mailbox has this address'],
    [{ local_part: 'loop', destination: 'loop@forward.example' }, 'destination', 'cannot send mail back to its own address'],
    [{ local_part: 'ok', destination: 'not an address' }, 'destination', 'Enter the e-mail address mail should go on to'],
  ])('refuses %j on its field, writing nothing', async (payload, field, text) => {
    const before = (await owner.call({ method: 'GET', url: url() })).json().data.length;
    const answer = await add(owner.call, payload);
    expect(answer.statusCode).toBe(422);
    expect(answer.json().errors[field]?.[0]).toContain(text);
    expect((await owner.call({ method: 'GET', url: url() })).json().data.length).toBe(before);
  });

  it('refuses a forwarder that closes a loop through other forwarders, on its field', async () => {
    expect((await add(owner.call, { local_part: 'ping', destination: 'pong@forward.example' })).statusCode).toBe(201);
    expect((await add(owner.call, { local_part: 'pong', destination: 'relay@forward.example' })).statusCode).toBe(201);
    const closing = await add(owner.call, { local_part: 'relay', destination: 'Ping@forward.example' });
    expect(closing.statusCode).toBe(422);
    expect(closing.json().errors.destination[0]).toContain('directly or through other forwarders');
    // Not a loop: the same chain ending outside.
    expect((await add(owner.call, { local_part: 'relay', destination: 'desk@elsewhere.example' })).statusCode).toBe(201);
  });

  it('sends postmaster@, abuse@ and hostmaster@ to the owner unless the domain has its own', async () => {
    // Served once proven (a customer's own domain, migration 0019).
    await t.db.updateTable('domains').set({ verification_token: null }).where('id', '=', domainId).execute();
    const forwards = async (source: string) =>
      (
        await t.db
          .selectFrom('mail.aliases' as 'mail_aliases')
          .select('destination')
          .where('source' as 'local_part', '=', source)
          .execute()
      ).map((row) => row.destination);
    expect(await forwards('postmaster@forward.example')).toEqual(['owner@alpha.test']);
    expect(await forwards('abuse@forward.example')).toEqual(['owner@alpha.test']);
    expect(await forwards('hostmaster@forward.example')).toEqual(['owner@alpha.test']);
    expect((await add(owner.call, { local_part: 'abuse', destination: 'security@elsewhere.example' })).statusCode).toBe(201);
    expect(await forwards('abuse@forward.example')).toEqual(['security@elsewhere.example']);
  });

  it('refuses the same forwarder twice, and another customer of the tenant sees none of it', async () => {
    expect((await add(owner.call, { local_part: 'dup', destination: 'x@y.example' })).statusCode).toBe(201);
    const again = await add(owner.call, { local_part: 'dup', destination: 'x@y.example' });
    expect(again.statusCode).toBe(422);
    expect(again.json().errors.destination[0]).toContain('already forwards');
    expect((await stranger.call({ method: 'GET', url: url() })).statusCode).toBe(404);
    expect((await add(stranger.call, { local_part: 'mine', destination: 'x@y.example' })).statusCode).toBe(404);
    const id = (await owner.call({ method: 'GET', url: url() })).json().data[0].id;
    expect((await stranger.call({ method: 'DELETE', url: url(`/${id}`) })).statusCode).toBe(404);
  });

  it(`holds the limit of ${MAIL_ALIASES_PER_DOMAIN} forwarders per domain when 30 requests arrive at once`, async () => {
    const existing = (await owner.call({ method: 'GET', url: url() })).json().data.length as number;
    const fill = MAIL_ALIASES_PER_DOMAIN - existing - 10;
    await t.db
      .insertInto('mail_aliases')
      .values(
        Array.from({ length: fill }, (_, i) => ({
          tenant_id: owner.user.tenant_id,
          domain_id: domainId,
          local_part: `bulk${i}`,
          destination: 'x@y.example',
        })),
      )
      .execute();
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => add(owner.call, { local_part: `race${i}`, destination: 'x@y.example' })),
    );
    expect(answers.filter((a) => a.statusCode === 201)).toHaveLength(10);
    const refused = answers.filter((a) => a.statusCode === 422);
    expect(refused).toHaveLength(20);
    expect(refused[0]?.json().errors.local_part[0]).toBe(`A domain can hold at most ${MAIL_ALIASES_PER_DOMAIN} forwarders.`);
    expect((await owner.call({ method: 'GET', url: url() })).json().data).toHaveLength(MAIL_ALIASES_PER_DOMAIN);
  });
});
