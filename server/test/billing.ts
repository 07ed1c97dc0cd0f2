import { expect } from 'vitest';
import { JobQueue } from '../src/modules/jobs/queue.ts';
import type { TestApp } from './harness.ts';
import type { Caller } from './hosting.ts';

const DAY = 24 * 60 * 60 * 1000;

/** A domain of `ownerId` that the tenant's admin adds, expiring `days` from the test clock's now; answers its id. */
export async function domainExpiringIn(t: TestApp, admin: Caller, ownerId: number, name: string, days: number): Promise<number> {
  const answer = await admin({
    method: 'POST',
    url: '/api/host/domain',
    payload: { name, owner_id: ownerId, expire_at: new Date(t.clock.now().getTime() + days * DAY).toISOString() },
  });
  expect(answer.statusCode, answer.body).toBe(201);
  return answer.json().data.id;
}

/**
 * Suspends `ownerId` the way the business does it (modules/billing): the tenant's admin adds them a
 * .com domain expiring in 10 days, the billing pass renews it with no credit to pay from (an unpaid
 * invoice), and a pass past the grace period suspends them. The clock goes back afterwards, so the
 * sessions of the test stay valid. Answers the unpaid invoice.
 */
export async function suspendForNonPayment(t: TestApp, admin: Caller, ownerId: number, renewable: string): Promise<number> {
  // The tenant's prices (.com among them) exist once its shop is read.
  expect((await admin({ method: 'GET', url: '/api/shop/domain-check?name=probe.com' })).statusCode).toBe(200);
  const start = t.clock.now();
  const created = await admin({
    method: 'POST',
    url: '/api/host/domain',
    payload: { name: renewable, owner_id: ownerId, expire_at: new Date(start.getTime() + 10 * DAY).toISOString() },
  });
  expect(created.statusCode, created.body).toBe(201);
  await t.services.billing.runOnce();
  // The renewal itself is a job.
  await JobQueue.idleAll();
  const invoice = await t.db
    .selectFrom('invoices')
    .select(['id', 'due_at'])
    .where('user_id', '=', ownerId)
    .where('status', '=', 'unpaid')
    .where('due_at', 'is not', null)
    .executeTakeFirstOrThrow();
  t.clock.set(new Date(new Date(invoice.due_at as Date).getTime() + 15 * DAY));
  try {
    await t.services.billing.runOnce();
  } finally {
    t.clock.set(start);
  }
  await JobQueue.idleAll();
  const owner = await t.db.selectFrom('users').select('suspended_at').where('id', '=', ownerId).executeTakeFirstOrThrow();
  expect(owner.suspended_at).not.toBeNull();
  return invoice.id;
}

/** The tenant's admin confirms the invoice paid (money received by transfer): the suspension ends with it. */
export async function confirmPaid(admin: Caller, invoiceId: number): Promise<void> {
  const paid = await admin({ method: 'POST', url: `/api/system/invoices/${invoiceId}/mark-paid` });
  expect(paid.statusCode, paid.body).toBe(200);
  expect(paid.json().data.settled).toBe(true);
}
