import type { WebhookAllowedRanges } from '@berth/contracts';
import type { Db } from '../../db/connection.ts';
import { fieldError } from '../../http/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Actor, AuditService } from '../audit/service.ts';
import { parseRanges } from './address-guard.ts';
import { listAllowedRanges, replaceAllowedRanges } from './queries.ts';

/**
 * The private, loopback or link-local ranges webhooks may be delivered to (an automation host on
 * the operator's network), as the super admin sets them on the webhooks page; the operator's
 * WEBHOOK_ALLOWED_RANGES apply beside them. The address guard reads the list at each delivery.
 */
export class WebhookAllowedRangeList {
  private readonly deps: { db: Db; clock: Clock; audit: AuditService; environment: string | undefined };

  constructor(deps: WebhookAllowedRangeList['deps']) {
    this.deps = deps;
  }

  /** What the guard adds to the environment's ranges. */
  ranges(): Promise<string[]> {
    return listAllowedRanges(this.deps.db);
  }

  async get(): Promise<WebhookAllowedRanges> {
    return { ranges: await this.ranges(), environment: splitRanges(this.deps.environment) };
  }

  async set(actor: Actor, ranges: string[]): Promise<WebhookAllowedRanges> {
    // The guard's own parser has the last word: what it cannot read is refused on its line.
    ranges.forEach((range, index) => {
      try {
        parseRanges(range);
      } catch {
        throw fieldError(`ranges.${index}`, 'webhooks.range_invalid');
      }
    });
    const unique = [...new Set(ranges.map((range) => range.toLowerCase()))];
    const before = await this.ranges();
    await this.deps.db.transaction().execute((trx) => replaceAllowedRanges(trx, unique, this.deps.clock.now()));
    await this.deps.audit.recordAction(
      actor,
      'webhooks.allowed_ranges_set',
      actor.user.tenant_id,
      { type: 'tenant', id: actor.user.tenant_id },
      {
        added: unique.filter((range) => !before.includes(range)).join(', '),
        removed: before.filter((range) => !unique.includes(range)).join(', '),
      },
    );
    return this.get();
  }
}

export const splitRanges = (text: string | undefined): string[] =>
  (text ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
