import type { Db } from '../../db/connection.ts';
import { fieldError } from '../../http/errors.ts';
import type { UserRow } from '../users/queries.ts';
import { lockPlanHolder, planLimitsOf, planUsage } from './queries.ts';

/** What a customer's plans include together; null is unlimited. */
export interface PlanAllowance {
  /** Whether any plan runs now; when none does, nothing more may be created. */
  active: boolean;
  domains: number | null;
  mailboxes: number | null;
  disk_mb: number | null;
}

const MB_PER_GB = 1024;

/** Several plans add up; one unlimited plan makes that limit unlimited. */
const together = (limits: (number | null)[]): number | null =>
  limits.some((limit) => limit === null) ? null : limits.reduce<number>((sum, limit) => sum + (limit ?? 0), 0);

/**
 * What the plans the user holds now include together, or null when they never bought one: a
 * customer an admin set up without a plan is not bound by one (as /api/host/domain always
 * allowed). Once all their plans have run out, nothing more can be created until one is renewed.
 */
export async function planAllowance(db: Db, userId: number, now: Date): Promise<PlanAllowance | null> {
  const bought = await planLimitsOf(db, userId);
  if (bought.length === 0) return null;
  const active = bought.filter((plan) => new Date(plan.starts_at) <= now && new Date(plan.expires_at) > now);
  // A plan deleted since it was bought no longer says what it included: it limits nothing.
  const known = active.map((plan) => (plan.plan_id === null ? { max_domains: null, max_mailboxes: null, disk_gb: null } : plan));
  return {
    active: active.length > 0,
    domains: together(known.map((plan) => plan.max_domains)),
    mailboxes: together(known.map((plan) => plan.max_mailboxes)),
    disk_mb: together(known.map((plan) => (plan.disk_gb === null ? null : plan.disk_gb * MB_PER_GB))),
  };
}

/** What one creation adds: a domain, a mailbox with its quota, or a quota change. */
export interface PlanGrowth {
  domains?: number;
  mailboxes?: number;
  disk_mb?: number;
}

/**
 * Takes the plan holder's lock ahead of the check, for a change that must read what it changes
 * (a mailbox's current quota) only once no other change of theirs is under way; a no-op whenever
 * assertWithinPlans checks nothing.
 */
export async function lockForPlanCheck(trx: Db, actor: UserRow, ownerId: number): Promise<void> {
  if (actor.role === 'customer' && actor.id === ownerId) await lockPlanHolder(trx, ownerId);
}

/**
 * Refuses, on the field the customer filled, what would take them past their plans. Checked only
 * when customers create for themselves: admins may go past a plan (as in Plesk and cPanel). Runs
 * inside the creating transaction after locking the customer's row, so 30 requests at once
 * cannot each see the last free place.
 */
export async function assertWithinPlans(
  trx: Db,
  actor: UserRow,
  ownerId: number,
  growth: PlanGrowth,
  now: Date,
  fields: { domains?: string; mailboxes?: string; disk_mb?: string },
): Promise<void> {
  if (actor.role !== 'customer' || actor.id !== ownerId) return;
  await lockPlanHolder(trx, ownerId);
  const allowance = await planAllowance(trx, ownerId, now);
  if (!allowance) return;
  if (!allowance.active) {
    // On the field of what is being created: the name of a domain, the mailbox, or its quota.
    const field = growth.domains
      ? (fields.domains ?? 'name')
      : growth.mailboxes
        ? (fields.mailboxes ?? 'uid')
        : (fields.disk_mb ?? 'quota_mb');
    throw fieldError(field, 'plan.expired');
  }
  const usage = await planUsage(trx, ownerId);
  if (growth.domains && allowance.domains !== null && usage.domains + growth.domains > allowance.domains)
    throw fieldError(fields.domains ?? 'name', 'plan.domains_used', { max: allowance.domains });
  if (growth.mailboxes && allowance.mailboxes !== null && usage.mailboxes + growth.mailboxes > allowance.mailboxes)
    throw fieldError(fields.mailboxes ?? 'uid', 'plan.mailboxes_used', { max: allowance.mailboxes });
  if (growth.disk_mb && allowance.disk_mb !== null && usage.disk_mb + growth.disk_mb > allowance.disk_mb)
    throw fieldError(fields.disk_mb ?? 'quota_mb', 'plan.disk_used', {
      max: allowance.disk_mb,
      free: Math.max(0, allowance.disk_mb - usage.disk_mb),
    });
}
