import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { addTenant, addUser, type Caller } from '../../../test/hosting.ts';
import type { UserRow } from '../users/queries.ts';

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

const newDomain = async (name: string) => {
  const answer = await owner.call({ method: 'POST', url: '/api/host/domain', payload: { name } });
  expect(answer.statusCode, answer.body).toBe(201);
  return answer.json().data.id as number;
};
const importInto = (id: number, zoneFile: string, call = owner.call) =>
  call({ method: 'POST', url: `/api/host/domain/${id}/dns/import`, payload: { zone_file: zoneFile } });
const zoneOf = async (id: number) => (await owner.call({ method: 'GET', url: `/api/host/domain/${id}/dns` })).json().data;
const lines = (zone: { records: { name: string; type: string; content: string; ttl: number }[] }) =>
  zone.records.map((r) => `${r.name} ${r.ttl} ${r.type} ${r.content.slice(0, 30)}`);

/** A zone as another DNS host hands it out. */
const OLD_HOST = `$ORIGIN moving.example.
$TTL 7200
@ IN SOA ns1.oldhost.net. hostmaster.oldhost.net. ( 2024010101 7200 3600 1209600 300 )
  IN NS ns1.oldhost.net.
  IN NS ns2.oldhost.net.
  IN MX 10 mail                 ; the same MX the zone starts with
  IN A 192.0.2.80
www 300 IN CNAME @
shop IN A 192.0.2.81
google._domainkey IN TXT ( "v=DKIM1; k=rsa; "
   "p=MIIBIjANBg" )
_sip._tcp IN SRV 10 5 5060 sip
@ IN CAA 0 issue "letsencrypt.org"
`;

describe('POST /api/host/domain/{id}/dns/import', () => {
  it('adds the records of a BIND file: names made relative, TTLs kept, what the zone has left out', async () => {
    const id = await newDomain('moving.example');
    const before = await zoneOf(id);
    const answer = await importInto(id, OLD_HOST);
    expect(answer.statusCode, answer.body).toBe(200);
    // SOA, 2 apex NS and the MX the zone already had: 4 left out.
    expect(answer.json()).toMatchObject({
      data: { added: 6, skipped: 4 },
      message: 'Imported 6 records; 4 were already in the zone or are kept by the zone itself (SOA, name servers).',
      soa: { serial: before.soa.serial + 1, mname: 'ns1.alpha.test' },
    });
    const after = await zoneOf(id);
    expect(lines(after)).toEqual(
      expect.arrayContaining([
        '@ 7200 A 192.0.2.80',
        '@ 7200 CAA 0 issue "letsencrypt.org"',
        'www 300 CNAME moving.example',
        'shop 7200 A 192.0.2.81',
        'google._domainkey 7200 TXT v=DKIM1; k=rsa; p=MIIBIjANBg',
        '_sip._tcp 7200 SRV 5 5060 sip.moving.example',
      ]),
    );
    expect(after.records).toHaveLength(before.records.length + 6);
    expect(after.records.filter((r: { type: string }) => r.type === 'NS').map((r: { content: string }) => r.content)).toEqual([
      'ns1.alpha.test',
    ]);
    const audit = await t.db.selectFrom('audit_log').selectAll().where('action', '=', 'dns.zone_imported').executeTakeFirstOrThrow();
    expect(audit).toMatchObject({ target_type: 'domain', target_id: String(id), user_id: owner.user.id });

    // The same file again adds nothing and leaves the serial alone.
    const again = await importInto(id, OLD_HOST);
    expect(again.json()).toMatchObject({ data: { added: 0, skipped: 10 }, soa: { serial: after.soa.serial } });
  });

  it('refuses the whole file when a line is wrong, naming each line in the reader language', async () => {
    const id = await newDomain('broken.example');
    const before = await zoneOf(id);
    const file = [
      'ok IN A 192.0.2.1',
      'bad IN A 300.1.1.1',
      'ptr IN PTR x.example.',
      'fast 5 IN A 192.0.2.2',
      'ok IN CNAME elsewhere.net.',
    ].join('\n');
    const answer = await importInto(id, file);
    expect(answer.statusCode).toBe(422);
    expect(answer.json().errors.zone_file).toEqual([
      'Line 2: Enter an IPv4 address, e.g. 192.0.2.10.',
      'Line 3: Records of type PTR cannot be kept here (A, AAAA, CNAME, MX, TXT, SRV, CAA and NS can).',
      expect.stringMatching(/^Line 4: .*60/),
    ]);
    // The owner reads Czech: the line and its problem both come in Czech.
    await t.db.updateTable('users').set({ language: 'cs' }).where('id', '=', owner.user.id).execute();
    const czech = await importInto(id, 'bad IN A 300.1.1.1');
    await t.db.updateTable('users').set({ language: 'en' }).where('id', '=', owner.user.id).execute();
    expect(czech.json().errors.zone_file).toEqual([expect.stringMatching(/^Řádek 1: Zadejte/)]);
    // A CNAME beside another record of its name is found once the lines themselves are fine.
    const conflict = await importInto(id, 'ok IN A 192.0.2.1\nok IN CNAME elsewhere.net.');
    expect(conflict.json().errors.zone_file).toEqual([
      'Line 2: A CNAME must be the only record of its name: remove the other records or the CNAME first.',
    ]);
    const after = await zoneOf(id);
    expect(after.records).toHaveLength(before.records.length);
    expect(after.soa.serial).toBe(before.soa.serial);

    expect((await importInto(id, '; only a comment\n')).json().errors.zone_file).toEqual(['The file holds no records to import.']);
    expect((await importInto(id, '')).statusCode).toBe(422);
  });

  it('adds a file once when 30 imports of it arrive at the same instant', async () => {
    const id = await newDomain('race.example');
    const before = await zoneOf(id);
    const file = Array.from({ length: 20 }, (_, i) => `host${i} IN A 192.0.2.${i + 1}`).join('\n');
    const answers = await Promise.all(Array.from({ length: 30 }, () => importInto(id, file)));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(30).fill(200));
    expect(answers.reduce((sum, a) => sum + (a.json().data.added as number), 0)).toBe(20);
    const after = await zoneOf(id);
    expect(after.records).toHaveLength(before.records.length + 20);
    expect(after.soa.serial).toBe(before.soa.serial + 1);
  });

  it('keeps the zone within its record limit and shows no one else the zone', async () => {
    const id = await newDomain('full.example');
    const file = Array.from({ length: 500 }, (_, i) => `h${i} IN A 192.0.2.${(i % 250) + 1}`).join('\n');
    const answer = await importInto(id, file);
    expect(answer.statusCode).toBe(422);
    expect(answer.json().errors.zone_file).toEqual(['A zone can hold at most 500 records.']);
    expect((await importInto(id, 'x IN A 192.0.2.1', stranger.call)).statusCode).toBe(404);
  });
});
