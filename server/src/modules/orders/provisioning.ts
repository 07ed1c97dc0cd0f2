import { DEFAULT_DOMAIN_SETTINGS } from '@berth/contracts';
import type { Db } from '../../db/connection.ts';
import { translate } from '../../i18n/messages.ts';
import { post } from '../credit/ledger.ts';
import { createDefaultZone, sealedDkimKey } from '../dns/service.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import { tenantZoneDefaults } from '../dns/queries.ts';
import type { ZoneDefaults } from '../dns/default-zone.ts';
import { releaseLapsedClaim } from '../domains/claims.ts';
import { findDomainById, findDomainByName, insertDomain, updateDomain, lockDomainExpiry } from '../domains/queries.ts';
import type { EventSink } from '../webhooks/events.ts';
import { addMonths, vatOf } from '../shop/money.ts';
import { languageOf } from '../shop/language.ts';
import { findUserById } from '../users/queries.ts';
import {
  cancelOtherPendingRenewals,
  extendSubscription,
  insertSubscription,
  lockSubscriptionForRenewal,
  listOrderItems,
  lockOrder,
  markItemProvisioned,
  markOrderPaid,
  type OrderItemRow,
  type OrderRow,
} from './queries.ts';

/**
 * Delivers a paid order inside the settlement transaction: register/transfer → the domain is
 * created (with its DNS zone) and expires after the period; renew → see renewedExpiry; hosting → a subscription. An item that can no
 * longer be delivered (the name was taken meanwhile, the renewed domain deleted) is refunded to the
 * buyer's credit. Runs once: items already delivered are skipped.
 */
export async function provisionOrder(
  trx: Db,
  orderId: number,
  now: Date,
  secrets: SecretBox,
  invoiceNumber: string,
  events?: EventSink,
): Promise<void> {
  const order = await lockOrder(trx, orderId);
  if (!order || order.status !== 'pending') return;
  const items = await listOrderItems(trx, order.id);
  const zoneDefaults = await tenantZoneDefaults(trx, order.tenant_id);
  for (const item of items) {
    if (item.provisioned_at) continue;
    const delivered = await deliver(trx, order, item, zoneDefaults, now, secrets);
    if (delivered === undefined) await refund(trx, order, item, now);
    else {
      await markItemProvisioned(trx, item.id, now, delivered);
      if (delivered !== null) await announce(trx, order, item, delivered, invoiceNumber, events);
    }
  }
  await markOrderPaid(trx, order.id, now);
}

/** A domain bought or renewed, to the tenant's webhooks, in the transaction that delivered it. */
async function announce(trx: Db, order: OrderRow, item: OrderItemRow, domainId: number, invoiceNumber: string, events?: EventSink) {
  if (!events) return;
  const domain = await findDomainById(trx, domainId);
  if (!domain) return;
  if (item.kind === 'domain_renew' && domain.expire_at !== null) {
    await events.emit(trx, order.tenant_id, 'domain.renewed', {
      domain: { id: domain.id, name: domain.name, owner_id: domain.owner_id, expire_at: new Date(domain.expire_at).toISOString() },
      invoice_number: invoiceNumber,
    });
  } else if (item.kind !== 'domain_renew') {
    await events.emit(trx, order.tenant_id, 'domain.created', { domain: { id: domain.id, name: domain.name, owner_id: domain.owner_id } });
  }
}

/**
 * A renewal extends from the old expiry, as registries do, also for a domain that has just
 * expired: renewing on Nov 24 a domain that expired on Oct 7 for a year ends on Oct 7 next year.
 * When even that end has passed (the domain was left expired for longer than the period), the
 * period starts now, so a paid renewal always leaves the domain running.
 */
export function renewedExpiry(oldExpiry: Date | string | null, periodMonths: number, now: Date): Date {
  if (oldExpiry === null) return addMonths(now, periodMonths);
  const extended = addMonths(new Date(oldExpiry), periodMonths);
  return extended > now ? extended : addMonths(now, periodMonths);
}

/** The domain id delivered (null for hosting), or undefined when the item cannot be delivered. */
async function deliver(
  trx: Db,
  order: OrderRow,
  item: OrderItemRow,
  zoneDefaults: ZoneDefaults,
  now: Date,
  secrets: SecretBox,
): Promise<number | null | undefined> {
  switch (item.kind) {
    case 'hosting': {
      if (item.subscription_id !== null) {
        // A renewal: the plan runs on from its end, as a domain does (renewedExpiry); what is refunded
        // on a later cancellation is reckoned from this payment (shop/subscriptions.ts).
        const renewed = await lockSubscriptionForRenewal(trx, item.subscription_id, order.user_id);
        if (!renewed) return undefined;
        await extendSubscription(trx, renewed.id, {
          expires_at: renewedExpiry(renewed.expires_at, item.period_months, now),
          order_item_id: item.id,
        });
        await cancelOtherPendingRenewals(trx, { subscriptionId: renewed.id }, order.id);
        return null;
      }
      await insertSubscription(trx, {
        tenant_id: order.tenant_id,
        user_id: order.user_id,
        plan_id: item.plan_id,
        title: item.title,
        order_item_id: item.id,
        starts_at: now,
        expires_at: addMonths(now, item.period_months),
      });
      return null;
    }
    case 'domain_register':
    case 'domain_transfer': {
      if (!item.domain_name) return undefined;
      await releaseLapsedClaim(trx, item.domain_name, now);
      if (await findDomainByName(trx, item.domain_name)) return undefined;
      const domain = await insertDomain(trx, {
        tenant_id: order.tenant_id,
        owner_id: order.user_id,
        name: item.domain_name,
        expire_at: addMonths(now, item.period_months),
        notes: '',
        settings: { ...DEFAULT_DOMAIN_SETTINGS },
        created_at: now,
        updated_at: now,
      });
      // The same complete zone as a domain an admin adds (domains/editor.ts), DKIM key included.
      await createDefaultZone(trx, domain, zoneDefaults, now, await sealedDkimKey(secrets, now));
      return domain.id;
    }
    case 'domain_renew': {
      if (item.domain_id === null) return undefined;
      const domain = await lockDomainExpiry(trx, item.domain_id);
      if (!domain) return undefined;
      // A renewed domain is served again at once (billing: lapsed_at).
      await updateDomain(trx, domain.id, {
        expire_at: renewedExpiry(domain.expire_at, item.period_months, now),
        lapsed_at: null,
        updated_at: now,
      });
      await cancelOtherPendingRenewals(trx, { domainId: domain.id }, order.id);
      return domain.id;
    }
  }
}

async function refund(trx: Db, order: OrderRow, item: OrderItemRow, now: Date): Promise<void> {
  const net = Number(item.net) - Number(item.discount);
  const amount = net + vatOf(net, order.vat_rate_bp);
  if (amount <= 0) return;
  const buyer = await findUserById(trx, order.user_id);
  await post(trx, {
    tenantId: order.tenant_id,
    userId: order.user_id,
    amount,
    currency: order.currency,
    type: 'refund',
    description: translate(languageOf(buyer), 'credit.entry.refund', { title: item.title }),
    reference: `refund:order-item:${item.id}`,
    now,
  });
}
