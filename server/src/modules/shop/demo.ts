import type { Db } from '../../db/connection.ts';
import { post } from '../credit/ledger.ts';
import { insertPromo } from '../promo/queries.ts';
import { ensureShop } from './queries.ts';

/**
 * The demo's shop: the default catalogue for the demo and operator tenants, a welcome code, and
 * some credit for the first customer so a purchase can be tried at once.
 */
export async function seedDemoShop(
  trx: Db,
  tenantId: number,
  operatorTenantId: number,
  firstCustomerId: number | undefined,
  now: Date,
): Promise<void> {
  const settings = await ensureShop(trx, tenantId);
  await ensureShop(trx, operatorTenantId);
  await insertPromo(trx, {
    tenant_id: tenantId,
    code: 'WELCOME10',
    kind: 'percent',
    value: 10,
    once_per_customer: true,
    kinds: [],
    plan_ids: [],
    tlds: [],
    created_at: now,
    updated_at: now,
  });
  if (firstCustomerId === undefined) return;
  await post(trx, {
    tenantId,
    userId: firstCustomerId,
    amount: 10_000,
    currency: settings.currency,
    type: 'manual',
    description: 'Demo credit',
    reference: `demo:credit:${firstCustomerId}`,
    now,
  });
}
