import { expect } from 'vitest';
import type { Caller } from './hosting.ts';
import { addTenant, addUser } from './hosting.ts';
import type { TestApp } from './harness.ts';

/** Shop fixtures: a tenant with a host admin (the partner) and customers, through the real API. */
export async function shopTenant(t: TestApp, name: string, options: { customers?: number; hostPurchases?: boolean } = {}) {
  const tenantId = await addTenant(t, `${name} Hosting`, `${name}.test`);
  if (options.hostPurchases) {
    await t.db
      .updateTable('tenants')
      .set({ host_purchases: `https://shop.${name}.test/cart` })
      .where('id', '=', tenantId)
      .execute();
  }
  const admin = await addUser(t, tenantId, `admin@${name}.test`, 'host_admin', ['Pat', 'Partner']);
  const customers = [];
  for (let i = 0; i < (options.customers ?? 1); i++)
    customers.push(await addUser(t, tenantId, `c${i}@${name}.test`, 'customer', ['Cus', `Tomer${i}`]));
  return { tenantId, admin, customers, customer: customers[0] as (typeof customers)[number] };
}

export async function ok(call: Caller, options: Parameters<Caller>[0], status = 200) {
  const answer = await call(options);
  expect(answer.statusCode, answer.body).toBe(status);
  return answer.json();
}

export const addToCart = (call: Caller, payload: Record<string, unknown>) => call({ method: 'POST', url: '/api/cart/items', payload });

export const checkout = (call: Caller, payment: string, key: string, extra: Record<string, unknown> = {}) =>
  call({ method: 'POST', url: '/api/shop/checkout', payload: { payment, idempotency_key: key, ...extra } });

/** An admin's manual credit to a user (the same API partners use). */
export async function giveCredit(adminCall: Caller, userId: number, amount: number) {
  await ok(
    adminCall,
    { method: 'POST', url: '/api/system/credit/adjustments', payload: { user_id: userId, amount, description: 'test credit' } },
    201,
  );
}

export async function balance(call: Caller): Promise<number> {
  return (await ok(call, { method: 'GET', url: '/api/credit' })).data.balance.amount;
}

/** Turns bank transfer on for a tenant (the payments route). */
export async function enableBankTransfer(adminCall: Caller, tenantId: number) {
  await ok(adminCall, {
    method: 'PUT',
    url: `/api/system/tenants/${tenantId}/bank-account`,
    payload: { account_name: 'Harbor Hosting s.r.o.', iban: 'DE89370400440532013000' },
  });
}

/** The ledger's own sum and the cached balance agree, and neither is negative. */
export async function ledgerConsistent(t: TestApp, userId: number) {
  const sum = await t.db
    .selectFrom('credit_ledger')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<string>('amount'), eb.val('0')).as('total'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  const account = await t.db.selectFrom('credit_accounts').select('balance').where('user_id', '=', userId).executeTakeFirst();
  const total = Number(sum.total);
  expect(Number(account?.balance ?? 0)).toBe(total);
  expect(total).toBeGreaterThanOrEqual(0);
  return total;
}
