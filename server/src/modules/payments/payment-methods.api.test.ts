import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { addTenant, addUser, superAdmin, type Caller } from '../../../test/hosting.ts';
import { purchasingTenant, VALID_CZ_IBAN, VALID_IBAN } from '../../../test/payments.ts';

let t: TestApp;
let shop: number;
let buyer: { user: { id: number }; call: Caller };
let other: { user: { id: number }; call: Caller };

const URL = '/api/account/payment-methods';
const bank = (iban: string, extra: Record<string, unknown> = {}) => ({
  kind: 'bank_transfer',
  account_name: 'Cleo Customer',
  iban,
  ...extra,
});

beforeAll(async () => {
  t = await createTestApp();
  shop = await purchasingTenant(t, 'Shop Hosting', 'shop.test');
  buyer = await addUser(t, shop, 'buyer@shop.test');
  other = await addUser(t, shop, 'other@shop.test');
});
afterAll(async () => t.close());

async function defaults(userId: number) {
  return t.db.selectFrom('payment_methods').select('id').where('user_id', '=', userId).where('is_default', '=', true).execute();
}

describe('who has payment methods', () => {
  it('refuses users of tenants that do not sell through the panel', async () => {
    const plain = await addTenant(t, 'Plain Hosting', 'plain.test');
    const { call } = await addUser(t, plain, 'user@plain.test');
    expect((await call({ method: 'GET', url: URL })).statusCode).toBe(403);
    expect((await call({ method: 'POST', url: URL, payload: bank(VALID_IBAN) })).statusCode).toBe(403);
  });

  it('lets super admins in, offering bank accounts only while Stripe is not configured', async () => {
    const { call } = await superAdmin(t);
    const response = await call({ method: 'GET', url: URL });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ data: [], available_kinds: ['bank_transfer'] });
  });

  it('has no Stripe webhook while Stripe is not configured', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/payments/stripe/webhook',
      payload: '{}',
      headers: { 'content-type': 'application/json' },
    });
    expect(response.statusCode).toBe(404);
  });

  it('needs a signed-in user', async () => {
    expect((await t.app.inject({ method: 'GET', url: URL })).statusCode).toBe(401);
  });
});

describe('adding', () => {
  it('checks the IBAN checksum, the BIC and the name per field', async () => {
    const response = await buyer.call({
      method: 'POST',
      url: URL,
      payload: { kind: 'bank_transfer', account_name: '', iban: 'DE88370400440532013000', bic: 'NOPE' },
    });
    expect(response.statusCode).toBe(422);
    const { errors } = response.json<{ errors: Record<string, string[]> }>();
    expect(errors.iban).toEqual(['Enter a valid IBAN, e.g. DE89 3704 0044 0532 0130 00.']);
    expect(errors.bic?.[0]).toContain('BIC');
    expect(errors.account_name).toBeDefined();
  });

  it('refuses a card while Stripe is not configured', async () => {
    const response = await buyer.call({ method: 'POST', url: URL, payload: { kind: 'card', stripe_payment_method_id: 'pm_card_visa' } });
    expect(response.statusCode).toBe(422);
    expect(Object.keys(response.json<{ errors: object }>().errors)).toEqual(['kind']);
  });

  it('refuses unknown kinds and card numbers', async () => {
    const response = await buyer.call({ method: 'POST', url: URL, payload: { kind: 'card', number: '4242424242424242' } });
    expect(response.statusCode).toBe(422);
    expect((await buyer.call({ method: 'POST', url: URL, payload: { kind: 'cash' } })).statusCode).toBe(422);
  });

  it('saves the first method as the default, normalised, and audits it', async () => {
    const response = await buyer.call({ method: 'POST', url: URL, payload: bank('de89 3704 0044 0532 0130 00', { bic: 'cobadeffxxx' }) });
    expect(response.statusCode).toBe(201);
    const { data } = response.json<{ data: Record<string, unknown> }>();
    expect(data).toMatchObject({
      kind: 'bank_transfer',
      is_default: true,
      iban: VALID_IBAN,
      bic: 'COBADEFFXXX',
      account_name: 'Cleo Customer',
    });
    const audit = await t.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'payment_method.added')
      .where('user_id', '=', buyer.user.id)
      .execute();
    expect(audit).toHaveLength(1);
    expect(JSON.stringify(audit[0]?.data)).not.toContain(VALID_IBAN);
  });

  it('refuses the same account twice however it is written', async () => {
    const response = await buyer.call({ method: 'POST', url: URL, payload: bank('DE89 3704 0044 0532 0130 00') });
    expect(response.statusCode).toBe(422);
    expect(response.json<{ errors: Record<string, string[]> }>().errors.iban).toEqual(['This payment method is already saved.']);
  });

  it('keeps the default when a later method is added, unless asked', async () => {
    const second = await buyer.call({ method: 'POST', url: URL, payload: bank(VALID_CZ_IBAN) });
    expect(second.json<{ data: { is_default: boolean } }>().data.is_default).toBe(false);
    const third = await buyer.call({ method: 'POST', url: URL, payload: bank('GB82WEST12345698765432', { make_default: true }) });
    expect(third.json<{ data: { is_default: boolean } }>().data.is_default).toBe(true);
    expect(await defaults(buyer.user.id)).toHaveLength(1);
    const list = (await buyer.call({ method: 'GET', url: URL })).json<{ data: { iban: string; is_default: boolean }[] }>().data;
    expect(list.map((m) => [m.iban, m.is_default])).toEqual([
      ['GB82WEST12345698765432', true],
      [VALID_IBAN, false],
      [VALID_CZ_IBAN, false],
    ]);
  });
});

/** A valid German IBAN for an account number (check digits computed as ISO 13616 says). */
function germanIban(account: number): string {
  const bban = `37040044${String(account).padStart(10, '0')}`;
  const digits = `${bban}131400`; // "DE00" moved to the end, letters as numbers
  let remainder = 0;
  for (const digit of digits) remainder = (remainder * 10 + Number(digit)) % 97;
  return `DE${String(98 - remainder).padStart(2, '0')}${bban}`;
}

describe('concurrent adds', () => {
  it('make exactly one default', async () => {
    const { user, call } = await addUser(t, shop, 'racer@shop.test');
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => call({ method: 'POST', url: URL, payload: bank(germanIban(1000 + i)) })),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(10).fill(201));
    expect(await defaults(user.id)).toHaveLength(1);
    expect(answers.filter((a) => a.json<{ data: { is_default: boolean } }>().data.is_default)).toHaveLength(1);
  });
});

describe('default and removal', () => {
  it('moves the default, keeping exactly one', async () => {
    const list = (await buyer.call({ method: 'GET', url: URL })).json<{ data: { id: number }[] }>().data;
    const target = list[2]!.id;
    const response = await buyer.call({ method: 'PATCH', url: `${URL}/${target}/default` });
    expect(response.statusCode).toBe(200);
    expect(response.json<{ data: { id: number; is_default: boolean } }>().data).toMatchObject({ id: target, is_default: true });
    expect(await defaults(buyer.user.id)).toEqual([{ id: target }]);
  });

  it('keeps exactly one default under concurrent changes', async () => {
    const ids = (await buyer.call({ method: 'GET', url: URL })).json<{ data: { id: number }[] }>().data.map((m) => m.id);
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => buyer.call({ method: 'PATCH', url: `${URL}/${ids[i % ids.length]}/default` })),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(12).fill(200));
    expect(await defaults(buyer.user.id)).toHaveLength(1);
  });

  it("answers 404 for another user's method, and changes nothing", async () => {
    const [mine] = (await buyer.call({ method: 'GET', url: URL })).json<{ data: { id: number }[] }>().data;
    expect((await other.call({ method: 'PATCH', url: `${URL}/${mine!.id}/default` })).statusCode).toBe(404);
    expect((await other.call({ method: 'DELETE', url: `${URL}/${mine!.id}` })).statusCode).toBe(404);
    expect((await other.call({ method: 'DELETE', url: `${URL}/999999` })).statusCode).toBe(404);
    expect(await t.db.selectFrom('payment_methods').select('id').where('id', '=', mine!.id).executeTakeFirst()).toBeDefined();
  });

  it('answers 422 for an id that is not one', async () => {
    expect((await buyer.call({ method: 'DELETE', url: `${URL}/abc` })).statusCode).toBe(422);
    expect((await buyer.call({ method: 'PATCH', url: `${URL}/99999999999/default` })).statusCode).toBe(422);
  });

  it('removing the default makes the oldest remaining one the default', async () => {
    const before = (await buyer.call({ method: 'GET', url: URL })).json<{ data: { id: number; is_default: boolean }[] }>().data;
    const current = before.find((m) => m.is_default)!;
    const oldestOther = before.filter((m) => m.id !== current.id).sort((a, b) => a.id - b.id)[0]!;
    const response = await buyer.call({ method: 'DELETE', url: `${URL}/${current.id}` });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: 'The payment method has been removed.' });
    expect(await defaults(buyer.user.id)).toEqual([{ id: oldestOther.id }]);
    const audit = await t.db
      .selectFrom('audit_log')
      .select(['action', 'target_id'])
      .where('action', '=', 'payment_method.removed')
      .execute();
    expect(audit).toEqual([{ action: 'payment_method.removed', target_id: String(current.id) }]);
  });

  it('removing the last method leaves none', async () => {
    for (const method of (await buyer.call({ method: 'GET', url: URL })).json<{ data: { id: number }[] }>().data) {
      expect((await buyer.call({ method: 'DELETE', url: `${URL}/${method.id}` })).statusCode).toBe(200);
    }
    expect((await buyer.call({ method: 'GET', url: URL })).json<{ data: unknown[] }>().data).toEqual([]);
  });
});

describe("another user's payment method", () => {
  it('is refused on payment_method_id at checkout and at top-up, not silently ignored', async () => {
    const saved = await other.call({ method: 'POST', url: URL, payload: bank(VALID_IBAN) });
    expect(saved.statusCode).toBe(201);
    const othersId: number = saved.json().data.id;
    const checkout = await buyer.call({
      method: 'POST',
      url: '/api/shop/checkout',
      payload: { payment: 'credit', idempotency_key: 'foreign-method-1', payment_method_id: othersId },
    });
    expect(checkout.statusCode).toBe(422);
    expect(checkout.json().errors.payment_method_id).toEqual(['This payment method is not one of yours.']);
    const topUp = await buyer.call({
      method: 'POST',
      url: '/api/credit/top-up',
      payload: { amount: 2000, payment: 'bank_transfer', payment_method_id: othersId },
    });
    expect(topUp.statusCode).toBe(422);
    expect(topUp.json().errors.payment_method_id).toBeDefined();
    const orders = await t.db.selectFrom('orders').select('id').where('user_id', '=', buyer.user.id).execute();
    expect(orders).toEqual([]);
  });
});
