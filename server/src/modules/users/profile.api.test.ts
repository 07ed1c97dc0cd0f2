import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { addTenant, addUser, type Caller } from '../../../test/hosting.ts';
import { issueInvoice } from '../../../test/payments.ts';
import type { UserRow } from './queries.ts';

let t: TestApp;
let tenant: number;
let customer: { user: UserRow; call: Caller };

const VALID = {
  given_name: 'Hana',
  sn: 'Nováková',
  phone: '+420 601 123 456',
  company: 'Nováková Design s.r.o.',
  vat_id: 'cz 123-456-78',
  street: 'Karlova 12',
  city: 'Praha 1',
  postal_code: '110 00',
  country: 'cz',
};

beforeAll(async () => {
  t = await createTestApp();
  tenant = await addTenant(t, 'Alpha', 'alpha.test');
  customer = await addUser(t, tenant, 'hana@alpha.test', 'customer', ['Hana', 'N']);
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const row = () =>
  t.db
    .selectFrom('users')
    .select(['given_name', 'sn', 'phones', 'company', 'vat_id', 'street', 'city', 'postal_code', 'country'])
    .where('id', '=', customer.user.id)
    .executeTakeFirstOrThrow();

describe('PATCH /api/user/profile', () => {
  it('keeps the name, phone and billing details, normalised, and answers the user with them', async () => {
    const answer = await customer.call({ method: 'PATCH', url: '/api/user/profile', payload: VALID });
    expect(answer.statusCode, answer.body).toBe(200);
    const user = answer.json<{ data: { contact: { display_name: string; phone: string[] }; billing: unknown } }>().data;
    expect(user.contact.display_name).toBe('Hana Nováková');
    expect(user.contact.phone).toEqual(['+420 601 123 456']);
    expect(user.billing).toEqual({
      company: 'Nováková Design s.r.o.',
      vat_id: 'CZ12345678',
      street: 'Karlova 12',
      city: 'Praha 1',
      postal_code: '110 00',
      country: 'CZ',
    });
    expect(await row()).toMatchObject({ sn: 'Nováková', vat_id: 'CZ12345678', country: 'CZ', phones: ['+420 601 123 456'] });
    const audit = await t.db
      .selectFrom('audit_log')
      .select(['data'])
      .where('action', '=', 'user.profile_updated')
      .where('user_id', '=', customer.user.id)
      .execute();
    expect(audit).toHaveLength(1);
    expect(String((audit[0]?.data as { fields: string }).fields)).toContain('vat_id');
  });

  it('refuses bad input field by field, and writes nothing', async () => {
    const before = await row();
    const answer = await customer.call({
      method: 'PATCH',
      url: '/api/user/profile',
      payload: { ...VALID, given_name: ' ', phone: 'call me', vat_id: 'XX', country: 'Czechia', postal_code: 'x'.repeat(21) },
    });
    expect(answer.statusCode).toBe(422);
    const errors = answer.json<{ errors: Record<string, string[]> }>().errors;
    expect(Object.keys(errors).sort()).toEqual(['country', 'given_name', 'phone', 'postal_code', 'vat_id']);
    expect(errors.vat_id).toEqual(['Enter a VAT ID with its country prefix, e.g. CZ12345678.']);
    expect(errors.country).toEqual(['Choose a country from the list.']);
    expect(await row()).toEqual(before);
    expect((await t.app.inject({ method: 'PATCH', url: '/api/user/profile', payload: VALID })).statusCode).toBe(401);
  });

  it('prints the details on invoices issued afterwards; an issued invoice keeps what it was issued with', async () => {
    const invoice = await issueInvoice(t, { tenantId: tenant, userId: customer.user.id, gross: 1210 });
    expect(invoice.buyer_details).toEqual({
      name: 'Hana Nováková',
      email: 'hana@alpha.test',
      company: 'Nováková Design s.r.o.',
      vat_id: 'CZ12345678',
      street: 'Karlova 12',
      city: 'Praha 1',
      postal_code: '110 00',
      country: 'CZ',
    });
    const moved = await customer.call({ method: 'PATCH', url: '/api/user/profile', payload: { ...VALID, street: 'Nerudova 3' } });
    expect(moved.statusCode).toBe(200);
    const stored = await t.db.selectFrom('invoices').select('buyer_details').where('id', '=', invoice.id).executeTakeFirstOrThrow();
    expect(stored.buyer_details?.street).toBe('Karlova 12');
    const pdf = await customer.call({ method: 'GET', url: `/api/account/invoices/${invoice.id}/pdf` });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toContain('application/pdf');
  });
});

describe('the profile picture', () => {
  /** A multipart body with one file field, as a browser's FormData sends it. */
  const multipart = (field: string, name: string, type: string, content: Buffer) => {
    const boundary = '----berth-test-boundary';
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${name}"\r\nContent-Type: ${type}\r\n\r\n`;
    return {
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: Buffer.concat([Buffer.from(head), content, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    };
  };
  const custom = async () => (await customer.call({ method: 'GET', url: '/api/user' })).json().data.user.image.custom;

  it('says whether one was uploaded, so only an uploaded picture is offered for removal', async () => {
    expect(await custom()).toBe(false);
    const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#336699' } })
      .png()
      .toBuffer();
    const uploaded = await customer.call({ method: 'POST', url: '/api/user/avatar', ...multipart('image', 'me.png', 'image/png', png) });
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    expect(uploaded.json().data.image.custom).toBe(true);
    expect(await custom()).toBe(true);
    const picture = await customer.call({ method: 'GET', url: uploaded.json().data.image.url });
    expect(picture.headers['content-type']).toBe('image/webp');

    const removed = await customer.call({ method: 'DELETE', url: '/api/user/avatar' });
    expect(removed.json().data.image.custom).toBe(false);
    expect(await custom()).toBe(false);
    const initials = await customer.call({ method: 'GET', url: removed.json().data.image.url });
    expect(initials.headers['content-type']).toMatch(/^image\/svg\+xml/);
  });

  it('refuses what is not an image with a field error, and keeps no picture', async () => {
    const sent = await customer.call({
      method: 'POST',
      url: '/api/user/avatar',
      ...multipart('image', 'me.png', 'image/png', Buffer.from('not an image')),
    });
    expect(sent.statusCode).toBe(422);
    expect(sent.json().errors.image).toBeDefined();
    expect(await custom()).toBe(false);
  });
});
