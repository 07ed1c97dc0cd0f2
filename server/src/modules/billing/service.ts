import type { FastifyBaseLogger } from 'fastify';
import type { CartAddPayload, NotificationEvent } from '@berth/contracts';
import type { Db } from '../../db/connection.ts';
import { HttpError } from '../../http/errors.ts';
import { translate, type MessageKey } from '../../i18n/messages.ts';
import { formatDate, REMINDER_DAYS } from '../expiry/service.ts';
import { startPeriodic } from '../../lib/periodic.ts';
import { claimReminder } from '../expiry/queries.ts';
import { languageOf } from '../shop/language.ts';
import type { Clock } from '../../lib/clock.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import type { Actor, AuditService } from '../audit/service.ts';
import { displayDomainName } from '../domains/names.ts';
import { invoiceToPay } from '../invoices/service.ts';
import { lockInvoice, type InvoiceRow } from '../invoices/queries.ts';
import { settleInTransaction } from '../invoices/settlement.ts';
import type { JobDefinition, JobQueue } from '../jobs/queue.ts';
import type { BillingNotice } from '../mail/templates.ts';
import type { Mailer } from '../mail/mailer.ts';
import { insertNotification } from '../notifications/queries.ts';
import { serviceNoticeMail } from './notice-mail.ts';
import type { CheckoutService } from '../orders/checkout.ts';
import type { PaymentProviders } from '../payments/registry.ts';
import type { SavedCardCharges } from '../payments/saved-card.ts';
import { formatMoney } from '../shop/money.ts';
import { publicBaseUrl } from '../tenants/links.ts';
import type { ResolvedTenant, TenantResolver } from '../tenants/service.ts';
import { findUserById, type UserRow } from '../users/queries.ts';
import { invoiceData, type EventSink } from '../webhooks/events.ts';
import {
  claimCardNotice,
  claimDunningStep,
  dueRenewals,
  dueSubscriptionRenewals,
  claimPlanReminder,
  plansDueForReminder,
  dueLapses,
  dueSuspensions,
  expiredUntold,
  lapseDomain,
  type ExpiredDomain,
  findDomainForRenewal,
  findSubscriptionForRenewal,
  planRenewalKey,
  overdueBeyondGrace,
  renewalKey,
  renewedItemOf,
  suspendUser,
  unpaidDueInvoices,
  unpaidRenewalsOf,
  type UnpaidDueInvoice,
} from './queries.ts';

const DAY = 24 * 60 * 60 * 1000;
/** An unpaid renewal is retried (from the credit) and its owner reminded 1, 3 and 7 days after it was issued. */
export const DUNNING_DAYS = [1, 3, 7] as const;
/** A domain renews for a year. */
export const RENEWAL_MONTHS = 12;
export const RENEWAL_JOB = 'auto_renewal';
export const PLAN_RENEWAL_JOB = 'auto_renewal_hosting';
const BATCH = 200;

export interface BillingDeps {
  db: Db;
  clock: Clock;
  checkout: CheckoutService;
  providers: PaymentProviders;
  mailer: Pick<Mailer, 'send'>;
  realtime: { notify(userId: number, event: NotificationEvent): void };
  tenants: Pick<TenantResolver, 'byId'>;
  audit: AuditService;
  secrets: SecretBox;
  events?: EventSink | undefined;
  jobs?: JobQueue | undefined;
  /** The owner's default saved card, charged when the credit does not cover a renewal (modules/payments). */
  cards?: Pick<SavedCardCharges, 'chargeable' | 'charge'> | undefined;
  log: FastifyBaseLogger;
  /** The panel's URL when a tenant has no public URL of its own. */
  fallbackUrl: string;
}

export interface RenewalJob {
  domainId: number;
  /** The expiry this renewal is for (ISO): a domain renewed meanwhile, by hand or otherwise, is left alone. */
  expireAt: string;
}

export interface PlanRenewalJob {
  subscriptionId: number;
  /** The end this renewal is for (ISO): a plan renewed or cancelled meanwhile is left alone. */
  expiresAt: string;
}

type Outcome = 'paid' | 'unpaid' | 'skipped';

/** What one renewal orders: a "buy now" item under a key that makes it happen once per end date. */
interface Renewal {
  ownerId: number;
  idempotencyKey: string;
  item: CartAddPayload;
  /** The end date: the invoice is due then. */
  dueAt: Date;
  /** How the mails and notices name it. */
  label: string;
}

/**
 * The business that runs itself (issue: auto-renewal, dunning, suspension): `runOnce` is safe on
 * any number of instances at once, because every step is claimed in the database — a renewal by
 * its order's idempotency key, a dunning step by its row, a suspension by the user's row.
 */
export class Billing {
  private readonly deps: BillingDeps;
  private readonly renewalJob: JobDefinition<RenewalJob> | undefined;
  private readonly planRenewalJob: JobDefinition<PlanRenewalJob> | undefined;

  constructor(deps: BillingDeps) {
    this.deps = deps;
    this.renewalJob = deps.jobs?.define<RenewalJob>(RENEWAL_JOB, async (data) => void (await this.renewDomain(data)), {
      describe: (data) => `domain #${data.domainId}`,
    });
    this.planRenewalJob = deps.jobs?.define<PlanRenewalJob>(PLAN_RENEWAL_JOB, async (data) => void (await this.renewPlan(data)), {
      describe: (data) => `hosting plan #${data.subscriptionId}`,
    });
  }

  /** One pass: renewals due are queued (or run, without a queue), unpaid renewals dunned, the overdue suspended. */
  async runOnce(now: Date = this.deps.clock.now()): Promise<{ renewals: number; reminders: number; suspended: number; lapsed: number }> {
    let renewals = 0;
    for (let afterId = 0; ;) {
      const due = await dueRenewals(this.deps.db, { now, afterId, limit: BATCH });
      for (const domain of due) {
        const job = { domainId: domain.id, expireAt: new Date(domain.expire_at as Date).toISOString() };
        if (this.renewalJob) await this.renewalJob.send(job);
        else await this.renewDomain(job);
        renewals++;
      }
      if (due.length < BATCH) break;
      afterId = due[due.length - 1]!.id;
    }
    for (let afterId = 0; ;) {
      const due = await dueSubscriptionRenewals(this.deps.db, { now, afterId, limit: BATCH });
      for (const plan of due) {
        const job = { subscriptionId: plan.id, expiresAt: new Date(plan.expires_at).toISOString() };
        if (this.planRenewalJob) await this.planRenewalJob.send(job);
        else await this.renewPlan(job);
        renewals++;
      }
      if (due.length < BATCH) break;
      afterId = due[due.length - 1]!.id;
    }
    let reminders = 0;
    for (let afterId = 0; ;) {
      const unpaid = await unpaidDueInvoices(this.deps.db, { now, afterId, limit: BATCH });
      for (const invoice of unpaid) if (await this.dun(invoice, now)) reminders++;
      if (unpaid.length < BATCH) break;
      afterId = unpaid[unpaid.length - 1]!.id;
    }
    let suspended = 0;
    for (const user of await dueSuspensions(this.deps.db, { now, limit: 1000 })) if (await this.suspend(user, now)) suspended++;
    // Expired domains: their owner is told once, and after the grace period they stop being served.
    for (const domain of await expiredUntold(this.deps.db, { now, limit: 1000 })) await this.tellExpired(domain, now);
    let lapsed = 0;
    for (const domain of await dueLapses(this.deps.db, { now, limit: 1000 })) if (await this.lapse(domain, now)) lapsed++;
    reminders += await this.remindPlans(now);
    return { renewals, reminders, suspended, lapsed };
  }

  /**
   * Hosting plans that will not renew by themselves (switched off, or their renewal did not go
   * through): their owner is told 30, 7 and 1 days before the end, once each per end date — as
   * domains are by modules/expiry.
   */
  private async remindPlans(now: Date): Promise<number> {
    let sent = 0;
    for (const [i, days] of REMINDER_DAYS.entries()) {
      const nextDays = REMINDER_DAYS[i + 1] ?? 0;
      const window = { after: new Date(now.getTime() + nextDays * DAY), until: new Date(now.getTime() + days * DAY), daysBefore: days };
      for (const plan of await plansDueForReminder(this.deps.db, { ...window, limit: 1000 })) {
        const owner = await findUserById(this.deps.db, plan.user_id);
        if (!owner) continue;
        const tenant = await this.deps.tenants.byId(owner.tenant_id);
        const expiresAt = new Date(plan.expires_at);
        const told = await this.deps.db.transaction().execute(async (trx) => {
          const claim = { subscription_id: plan.id, days_before: days, expires_at: expiresAt, sent_at: now };
          if (!(await claimPlanReminder(trx, claim))) return undefined;
          return this.notify(trx, owner, 'plan_ending', { item: plan.title, date: expiresAt }, tenant);
        });
        if (!told) continue;
        this.deps.realtime.notify(owner.id, told);
        sent++;
      }
    }
    return sent;
  }

  /** The renewal of one domain for one expiry (see `renew`); a domain renewed meanwhile is skipped. */
  async renewDomain(job: RenewalJob): Promise<Outcome> {
    const domain = await findDomainForRenewal(this.deps.db, job.domainId);
    if (!domain?.auto_renew || domain.expire_at === null || new Date(domain.expire_at).getTime() !== new Date(job.expireAt).getTime()) {
      return 'skipped';
    }
    return this.renew({
      ownerId: domain.owner_id,
      idempotencyKey: renewalKey(domain.id, domain.expire_at),
      item: { kind: 'domain_renew', domain_id: domain.id, period_months: RENEWAL_MONTHS },
      dueAt: new Date(domain.expire_at),
      label: displayDomainName(domain.name),
    });
  }

  /** The renewal of one hosting plan for one end date, for the months last paid; a plan renewed or ended meanwhile is skipped. */
  async renewPlan(job: PlanRenewalJob): Promise<Outcome> {
    const plan = await findSubscriptionForRenewal(this.deps.db, job.subscriptionId);
    if (!plan?.auto_renew || plan.plan_id === null || new Date(plan.expires_at).getTime() !== new Date(job.expiresAt).getTime()) {
      return 'skipped';
    }
    return this.renew({
      ownerId: plan.user_id,
      idempotencyKey: planRenewalKey(plan.id, plan.expires_at),
      item: { kind: 'hosting', plan_id: plan.plan_id, period_months: Number(plan.period_months), subscription_id: plan.id },
      dueAt: new Date(plan.expires_at),
      label: plan.title,
    });
  }

  /**
   * One renewal: an order and invoice paid from the owner's credit or, when the credit does not
   * cover it, charged to the owner's default saved card; failing both, an invoice due on the end
   * date (by bank transfer if the tenant takes it). Exactly once however often it runs: the order's
   * idempotency key names what is renewed and its end date, and the key is unique per owner; the
   * card is charged under a key naming the invoice.
   */
  private async renew(renewal: Renewal): Promise<Outcome> {
    const owner = await findUserById(this.deps.db, renewal.ownerId);
    if (!owner) return 'skipped';
    const actor: Actor = { user: owner, ip: 'system', impersonatorId: null };
    // Read before any transaction: the embedded database has one connection, which the transaction holds.
    const tenant = await this.deps.tenants.byId(owner.tenant_id);
    const byCard = (await this.deps.cards?.chargeable(owner.id)) ?? false;
    const language = languageOf(owner);
    const { dueAt, label } = renewal;
    const base = { paymentMethodId: null, idempotencyKey: renewal.idempotencyKey, item: renewal.item, dueAt };
    let told: NotificationEvent | undefined;
    const tell = async (trx: Db, outcome: { invoice: InvoiceRow; paid: boolean }) => {
      // With a card to charge, the owner hears how the charge went instead.
      if (!outcome.paid && byCard) return;
      told = await this.notify(
        trx,
        owner,
        outcome.paid ? 'renewed' : 'invoice_due',
        { invoice: outcome.invoice, item: label, date: dueAt },
        tenant,
      );
    };
    let result;
    try {
      result = await this.deps.checkout.checkout(actor, { ...base, payment: 'credit', inTransaction: tell }, language);
    } catch (error) {
      if (!(error instanceof HttpError) || error.key !== 'credit.insufficient') throw error;
      // The credit does not cover it: an invoice to pay by the end date, by bank transfer where the tenant takes it.
      const bank = this.deps.providers.get('bank_transfer');
      const byBank = bank !== undefined && (await bank.enabled(owner.tenant_id));
      result = await this.deps.checkout.checkout(
        actor,
        { ...base, payment: byBank ? 'bank_transfer' : 'credit', leaveUnpaid: !byBank, inTransaction: tell },
        language,
      );
    }
    if (result.result.status !== 'paid' && byCard) {
      // Charged with the owner away; a run after a crash charges under the same key (once).
      const charged = await this.tryCard(result.result.invoice.id, 0, owner, tenant, { item: label, date: dueAt });
      return charged ? 'paid' : 'unpaid';
    }
    if (!result.created) return result.result.status === 'paid' ? 'paid' : 'unpaid';
    // domain.renewed goes to the tenant's webhooks from the delivery itself (orders/provisioning.ts).
    if (told) this.deps.realtime.notify(owner.id, told);
    return result.result.status === 'paid' ? 'paid' : 'unpaid';
  }

  /**
   * Charges an unpaid renewal to the owner's default card (dunning step `step`, 0 at issue) and
   * tells the owner how it went, once per step; true when it is paid now.
   */
  private async tryCard(
    invoiceId: number,
    step: number,
    owner: UserRow,
    tenant: ResolvedTenant | undefined,
    about: { item: string; date: Date },
  ): Promise<boolean> {
    const cards = this.deps.cards;
    if (!cards) return false;
    const result = await cards.charge(invoiceId, step);
    if (result.outcome === 'none') return false;
    const told = await this.deps.db.transaction().execute(async (trx) => {
      // Told once per step, however often the charge's outcome is read again.
      if (!(await claimCardNotice(trx, invoiceId, step, this.deps.clock.now()))) return undefined;
      const invoice = await lockInvoice(trx, owner.tenant_id, invoiceId);
      if (!invoice) return undefined;
      return this.notify(trx, owner, result.outcome === 'paid' ? 'renewed_by_card' : 'card_declined', { invoice, ...about }, tenant);
    });
    if (told) this.deps.realtime.notify(owner.id, told);
    return result.outcome === 'paid';
  }

  /**
   * A dunning step of an unpaid renewal: the latest step due (1, 3 or 7 days after issue) is claimed
   * once; the credit is tried again first, and only if it still does not cover the invoice is the
   * owner reminded (mail and notification) and the tenant's webhooks told it is overdue.
   */
  private async dun(invoice: UnpaidDueInvoice, now: Date): Promise<boolean> {
    const age = now.getTime() - new Date(invoice.issued_at).getTime();
    const step = DUNNING_DAYS.filter((days) => age >= days * DAY).length;
    if (step === 0 || (invoice.last_step ?? 0) >= step) return false;
    if (await this.tryCredit(invoice.id, invoice.tenant_id, now)) return false;
    const owner = await findUserById(this.deps.db, invoice.user_id);
    if (!owner) return false;
    const tenant = await this.deps.tenants.byId(owner.tenant_id);
    // The saved card again; paid, the step needs no reminder (the renewal is delivered by the settlement).
    const cardResult = await this.deps.cards?.charge(invoice.id, step);
    if (cardResult?.outcome === 'paid') return false;
    const suspendAt = new Date(new Date(invoice.due_at as Date).getTime() + Number(invoice.grace_days) * DAY);
    const claimed = await this.deps.db.transaction().execute(async (trx) => {
      if (!(await claimDunningStep(trx, invoice.id, step, now))) return undefined;
      const row = await lockInvoice(trx, invoice.tenant_id, invoice.id);
      if (!row || row.status !== 'unpaid') return undefined;
      const told = await this.notify(
        trx,
        owner,
        'overdue',
        { invoice: row, item: displayDomainName(await renewedItemOf(trx, row.id)), date: suspendAt },
        tenant,
      );
      await this.deps.events?.emit(trx, row.tenant_id, 'invoice.overdue', {
        ...invoiceData(row),
        due_at: new Date(row.due_at as Date).toISOString(),
        step,
      });
      return told;
    });
    if (claimed) this.deps.realtime.notify(owner.id, claimed);
    return claimed !== undefined;
  }

  /** Pays an unpaid invoice from the owner's credit if it covers it now; false otherwise. */
  private async tryCredit(invoiceId: number, tenantId: number, now: Date): Promise<boolean> {
    try {
      await this.payInvoiceFromCredit(invoiceId, tenantId, null, now);
      return true;
    } catch (error) {
      if (error instanceof HttpError && error.status < 500) return false;
      throw error;
    }
  }

  /**
   * Pays an unpaid invoice of `owner` from their credit: the debit and the settlement (which
   * delivers the renewal and lifts a suspension it was the reason for) in one transaction. 422
   * `credit.insufficient` when the balance is short; 409 when the invoice is no longer unpaid.
   */
  async payFromCredit(payer: UserRow, invoiceId: number): Promise<InvoiceRow> {
    return this.payInvoiceFromCredit(invoiceId, payer.tenant_id, payer.id, this.deps.clock.now());
  }

  private async payInvoiceFromCredit(invoiceId: number, tenantId: number, payerId: number | null, now: Date): Promise<InvoiceRow> {
    const credit = this.deps.providers.get('credit');
    if (!credit) throw new HttpError(422, 'billing.not_payable');
    return this.deps.db.transaction().execute(async (trx) => {
      const invoice = await lockInvoice(trx, tenantId, invoiceId);
      // Someone else's invoice is not found (never "forbidden": its existence is not told).
      if (!invoice || (payerId !== null && invoice.user_id !== payerId)) throw new HttpError(404, 'http.not_found');
      if (invoice.status !== 'unpaid') throw new HttpError(409, 'billing.not_payable');
      if (invoice.kind !== 'order') throw new HttpError(422, 'billing.not_payable');
      const start = await credit.start(trx, invoiceToPay(invoice), { paymentMethodId: null });
      if (start.status !== 'paid') throw new HttpError(422, 'billing.not_payable');
      const settled = await settleInTransaction(
        trx,
        {
          tenantId,
          invoiceId,
          provider: 'credit',
          reference: start.reference,
          amount: Number(invoice.gross),
          actorId: payerId ?? invoice.user_id,
        },
        now,
        this.deps.secrets,
        this.deps.events,
      );
      return settled.invoice;
    });
  }

  /** Suspends a user with an unpaid renewal past its grace period, once: notice, mail, webhook, audit. */
  private async suspend(user: { id: number; tenant_id: number }, now: Date): Promise<boolean> {
    const userId = user.id;
    const tenant = await this.deps.tenants.byId(user.tenant_id);
    const done = await this.deps.db.transaction().execute(async (trx) => {
      const overdue = await overdueBeyondGrace(trx, userId, now);
      const first = overdue[0];
      if (!first) return undefined;
      const changed = await suspendUser(trx, userId, now);
      if (!changed) return undefined;
      const owner = await findUserById(trx, userId);
      const invoice = await lockInvoice(trx, changed.tenant_id, first.id);
      if (!owner || !invoice) return undefined;
      const told = await this.notify(
        trx,
        owner,
        'suspended',
        { invoice, item: displayDomainName(await renewedItemOf(trx, invoice.id)), date: now },
        tenant,
      );
      await this.deps.events?.emit(trx, changed.tenant_id, 'service.suspended', {
        customer: { id: changed.id, email: changed.email },
        invoices: overdue.map((row) => ({ id: row.id, number: row.number })),
      });
      return { user: changed, told, invoices: overdue.map((row) => row.number) };
    });
    if (!done) return false;
    this.deps.realtime.notify(userId, done.told);
    await this.deps.audit.record({
      action: 'customer.suspended',
      tenantId: done.user.tenant_id,
      userId: null,
      ip: null,
      target: { type: 'user', id: userId },
      data: { email: done.user.email, invoices: done.invoices.join(', ') },
    });
    return true;
  }

  /** Tells the owner once per expiry that their domain expired and until when it is still served. */
  private async tellExpired(domain: ExpiredDomain, now: Date): Promise<void> {
    const owner = await findUserById(this.deps.db, domain.owner_id);
    if (!owner) return;
    const tenant = await this.deps.tenants.byId(owner.tenant_id);
    const expireAt = new Date(domain.expire_at as Date);
    const until = new Date(expireAt.getTime() + Number(domain.grace_days) * DAY);
    const told = await this.deps.db.transaction().execute(async (trx) => {
      if (!(await claimReminder(trx, { domain_id: domain.id, days_before: 0, expire_at: expireAt, sent_at: now }))) return undefined;
      return this.notify(trx, owner, 'domain_expired', { domainId: domain.id, item: displayDomainName(domain.name), date: until }, tenant);
    });
    if (told) this.deps.realtime.notify(owner.id, told);
  }

  /** Stops serving an expired domain past its grace period (DNS, mail, web; migration 0033), once. */
  private async lapse(domain: ExpiredDomain, now: Date): Promise<boolean> {
    const owner = await findUserById(this.deps.db, domain.owner_id);
    const tenant = owner ? await this.deps.tenants.byId(owner.tenant_id) : undefined;
    const told = await this.deps.db.transaction().execute(async (trx) => {
      const lapsed = await lapseDomain(trx, domain.id, now);
      if (!lapsed) return undefined;
      await this.deps.events?.emit(trx, domain.tenant_id, 'domain.expired', {
        domain: {
          id: domain.id,
          name: domain.name,
          owner_id: domain.owner_id,
          expire_at: new Date(domain.expire_at as Date).toISOString(),
        },
      });
      return owner
        ? this.notify(trx, owner, 'domain_lapsed', { domainId: domain.id, item: displayDomainName(domain.name), date: now }, tenant)
        : null;
    });
    if (told === undefined) return false;
    if (told && owner) this.deps.realtime.notify(owner.id, told);
    await this.deps.audit.record({
      action: 'domain.lapsed',
      tenantId: domain.tenant_id,
      userId: null,
      ip: null,
      target: { type: 'domain', id: domain.id },
      data: { name: domain.name, expire_at: new Date(domain.expire_at as Date).toISOString() },
    });
    return true;
  }

  /** What the dashboard shows its viewer: whether they are suspended, and their unpaid renewals. */
  async stateOf(viewer: UserRow): Promise<{
    suspended_at: string | null;
    unpaid: { id: number; number: string; amount: string; due_at: string; overdue: boolean }[];
  }> {
    const now = this.deps.clock.now();
    const rows = await unpaidRenewalsOf(this.deps.db, viewer.id);
    return {
      suspended_at: viewer.suspended_at ? new Date(viewer.suspended_at).toISOString() : null,
      unpaid: rows.map((row) => ({
        id: row.id,
        number: row.number,
        amount: formatMoney(Number(row.gross), row.currency, viewer.language),
        due_at: new Date(row.due_at as Date).toISOString(),
        overdue: new Date(row.due_at as Date) <= now,
      })),
    };
  }

  /** A stored notification and a mail (a job, in `trx`) about an invoice of `owner`. */
  private async notify(
    trx: Db,
    owner: UserRow,
    notice: BillingNotice,
    about: { invoice?: InvoiceRow; domainId?: number; item: string; date: Date },
    tenant: ResolvedTenant | undefined,
  ): Promise<NotificationEvent> {
    const language = languageOf(owner);
    const amount = about.invoice ? formatMoney(Number(about.invoice.gross), about.invoice.currency, language) : '';
    const date = formatDate(about.date, language);
    const key: Record<BillingNotice, MessageKey> = {
      renewed: 'billing.renewed_notice',
      renewed_by_card: 'billing.renewed_by_card_notice',
      card_declined: 'billing.card_declined_notice',
      invoice_due: 'billing.invoice_due_notice',
      overdue: 'billing.overdue_notice',
      suspended: 'billing.suspended_notice',
      domain_expired: 'billing.domain_expired_notice',
      domain_lapsed: 'billing.domain_lapsed_notice',
      plan_ending: 'billing.plan_ending_notice',
      certificate_failing: 'certificates.failing_notice',
    };
    const number = about.invoice?.number ?? '';
    const told = {
      type:
        notice === 'renewed' || notice === 'renewed_by_card'
          ? 'info'
          : notice === 'suspended' || notice === 'domain_lapsed'
            ? 'error'
            : 'warning',
      text: translate(language, key[notice], { item: about.item, number, amount, date }),
    } as const;
    await insertNotification(trx, { tenant_id: owner.tenant_id, user_id: owner.id, ...told, created_at: this.deps.clock.now() });
    const base = publicBaseUrl(tenant, this.deps.fallbackUrl);
    await this.deps.mailer.send(
      serviceNoticeMail(owner, tenant, {
        notice,
        item: about.item,
        invoice: number,
        amount,
        date: about.date.toISOString(),
        link: about.invoice
          ? `${base}/account/invoices/${about.invoice.id}`
          : notice === 'plan_ending'
            ? `${base}/account/services`
            : `${base}/host/domain/${about.domainId ?? 0}/renew`,
      }),
      { db: trx },
    );
    return told;
  }
}

export const BILLING_EVERY_MS = 60 * 60 * 1000;

/** Runs the billing pass soon after start and then every hour; several instances may run it at once. */
export function startBillingJob(billing: Billing, log: FastifyBaseLogger, options: { everyMs?: number; firstAfterMs?: number } = {}) {
  return startPeriodic(
    () =>
      billing
        .runOnce()
        .then((done) => log.info(done, 'billing pass'))
        .catch((error: unknown) => log.error({ err: error }, 'billing pass failed')),
    { everyMs: options.everyMs ?? BILLING_EVERY_MS, firstAfterMs: options.firstAfterMs ?? 10_000 },
  );
}
