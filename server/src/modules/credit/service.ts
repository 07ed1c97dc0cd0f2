import type { EventSink } from '../webhooks/events.ts';
import type {
  CreditAdjustmentPayload,
  CreditAnswer,
  CreditEntry,
  CreditExportQuery,
  CreditQuery,
  Invoice,
  TopUpPayload,
} from '@berth/contracts';
import { z } from 'zod';
import type { Db } from '../../db/connection.ts';
import { decodeCursor, encodeCursor, pageOfRows } from '../../db/keyset.ts';
import { fieldError, HttpError } from '../../http/errors.ts';
import { translate } from '../../i18n/messages.ts';
import type { Clock } from '../../lib/clock.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import type { Actor, AuditService } from '../audit/service.ts';
import { createInvoice, invoiceToPay, type InvoiceReader } from '../invoices/service.ts';
import { setInvoiceInstructions } from '../invoices/queries.ts';
import { settleInTransaction } from '../invoices/settlement.ts';
import { assertOwnPaymentMethod } from '../payments/methods.ts';
import type { PaymentProviders } from '../payments/registry.ts';
import { formatMoney, money } from '../shop/money.ts';
import { languageOf } from '../shop/language.ts';
import { ensureShop } from '../shop/queries.ts';
import { administers, assertAdmin, iso } from '../tenants/scope.ts';
import { findUserById, type UserRow } from '../users/queries.ts';
import { post } from './ledger.ts';
import { balanceOf, listEntries, type CreditEntryRow } from './queries.ts';
import { csvCell } from '../../lib/csv.ts';

const DAY = 24 * 60 * 60 * 1000;
/** The CSV export's ceiling: years of a busy partner's ledger. */
export const CREDIT_EXPORT_MAX = 50_000;
const entryCursor = z.tuple([z.iso.datetime(), z.number().int()]);

/** `to` as a date includes that whole day. */
const rangeOf = (query: Pick<CreditQuery, 'from' | 'to'>) => ({
  from: query.from ? new Date(query.from) : undefined,
  to: query.to ? new Date(new Date(query.to).getTime() + (query.to.length === 10 ? DAY : 0)) : undefined,
});

const presentEntry = (row: CreditEntryRow, language: string): CreditEntry => ({
  id: row.id,
  type: row.type,
  amount: money(Number(row.amount), row.currency, language),
  description: row.description,
  invoice_id: row.invoice_id,
  created_at: iso(row.created_at),
});

/** A CSV cell: quoted, and text that a spreadsheet would run as a formula is defused. */

/** The credit balance: history, export, top-up by a payment provider, admins' manual entries. */
export class CreditService {
  private readonly deps: {
    db: Db;
    clock: Clock;
    audit: AuditService;
    providers: PaymentProviders;
    invoices: InvoiceReader;
    secrets: SecretBox;
    events?: EventSink;
  };

  constructor(deps: CreditService['deps']) {
    this.deps = deps;
  }

  /**
   * The user an admin may see and change the credit of: super admins any user, host admins the
   * users of their tenant but no super admin. Customers get 403; anyone else is 404 (existence
   * never shows).
   */
  async administeredUser(viewer: UserRow, userId: number): Promise<UserRow> {
    assertAdmin(viewer);
    const target = await findUserById(this.deps.db, userId);
    if (!target || !administers(viewer, target.tenant_id) || (viewer.role !== 'super_admin' && target.role === 'super_admin')) {
      throw new HttpError(404, 'http.not_found');
    }
    return target;
  }

  /**
   * Whose credit an admin may change: a customer of a tenant they administer, never their own
   * account nor another admin's (an admin crediting themselves could spend it at checkout). A
   * refused try is audited; another tenant's user stays hidden (404).
   */
  private async adjustableUser(actor: Actor, userId: number): Promise<UserRow> {
    const target = await findUserById(this.deps.db, userId);
    const refused =
      target?.id === actor.user.id || (actor.user.role !== 'super_admin' && target !== undefined && target.role !== 'customer');
    if (target && refused && administers(actor.user, target.tenant_id)) {
      await this.deps.audit.recordAction(
        actor,
        'credit.adjust_refused',
        target.tenant_id,
        { type: 'user', id: target.id },
        { reason: target.id === actor.user.id ? 'own_account' : 'not_a_customer' },
      );
      throw new HttpError(403, 'credit.adjust_forbidden');
    }
    return this.administeredUser(actor.user, userId);
  }

  /** GET /api/system/credit/{userId}: an admin reads a user's balance and ledger (not audited). */
  async viewFor(viewer: UserRow, userId: number, query: CreditQuery, language: string): Promise<CreditAnswer> {
    return this.view(await this.administeredUser(viewer, userId), query, language);
  }

  /** GET /api/system/credit/{userId}/export.csv */
  async exportCsvFor(viewer: UserRow, userId: number, query: CreditExportQuery, language: string): Promise<string> {
    return this.exportCsv(await this.administeredUser(viewer, userId), query, language);
  }

  /** The balance and ledger of `owner` (the signed-in user, or a user an admin was allowed to see). */
  async view(owner: UserRow, query: CreditQuery, language: string): Promise<CreditAnswer> {
    const { db } = this.deps;
    const settings = await ensureShop(db, owner.tenant_id);
    const before = query.cursor ? decodeCursor(query.cursor, 'credit', entryCursor) : undefined;
    const [account, rows] = await Promise.all([
      balanceOf(db, owner.id),
      listEntries(db, {
        userId: owner.id,
        ...rangeOf(query),
        type: query.type,
        before: before ? { createdAt: new Date(before[0]), id: before[1] } : undefined,
        limit: query.limit + 1,
      }),
    ]);
    const page = pageOfRows(rows, query.limit, (row) => encodeCursor('credit', [iso(row.created_at), row.id]));
    const currency = account.currency ?? settings.currency;
    return {
      data: {
        balance: money(account.balance, currency, language),
        top_up: {
          min: money(Number(settings.top_up_min), settings.currency, language),
          max: money(Number(settings.top_up_max), settings.currency, language),
        },
        entries: page.rows.map((row) => presentEntry(row, language)),
      },
      next_cursor: page.nextCursor,
    };
  }

  /** The ledger of `owner` as CSV, with the same filters as view. */
  async exportCsv(owner: UserRow, query: CreditExportQuery, language: string): Promise<string> {
    const rows = await listEntries(this.deps.db, { userId: owner.id, ...rangeOf(query), type: query.type, limit: CREDIT_EXPORT_MAX });
    const lines = [['date', 'type', 'description', 'amount', 'currency', 'amount_formatted', 'invoice_id'].join(',')];
    for (const row of rows) {
      const amount = Number(row.amount);
      lines.push(
        [
          iso(row.created_at),
          row.type,
          csvCell(row.description),
          (amount / 100).toFixed(2),
          row.currency,
          csvCell(formatMoney(amount, row.currency, language)),
          row.invoice_id === null ? '' : String(row.invoice_id),
        ].join(','),
      );
    }
    return `${lines.join('\r\n')}\r\n`;
  }

  /** Issues a credit invoice and starts its payment; the credit arrives when the payment is settled. */
  async topUp(actor: Actor, input: TopUpPayload, language: string): Promise<Invoice> {
    const { db, clock, providers } = this.deps;
    const user = actor.user;
    const settings = await ensureShop(db, user.tenant_id);
    await assertOwnPaymentMethod(db, user.id, input.payment_method_id);
    if (input.amount < Number(settings.top_up_min) || input.amount > Number(settings.top_up_max)) {
      throw fieldError('amount', 'credit.top_up_range', {
        min: formatMoney(Number(settings.top_up_min), settings.currency, language),
        max: formatMoney(Number(settings.top_up_max), settings.currency, language),
      });
    }
    const provider = providers.get(input.payment);
    if (!provider || !(await provider.enabled(user.tenant_id))) throw fieldError('payment', 'checkout.payment_unavailable');
    const invoice = await db.transaction().execute(async (trx) => {
      const now = clock.now();
      // Credit is a prepayment: no VAT on the top-up; purchases paid from it carry their own VAT.
      const created = await createInvoice(
        trx,
        {
          tenantId: user.tenant_id,
          userId: user.id,
          kind: 'credit',
          orderId: null,
          currency: settings.currency,
          vatRateBp: 0,
          lines: [
            { kind: 'credit', title: translate(languageOf(user), 'shop.line.credit'), period_months: null, net: input.amount, discount: 0 },
          ],
          totals: { subtotal: input.amount, discount: 0, net: input.amount, vat: 0, gross: input.amount },
          promoCode: null,
          provider: provider.id,
          now,
        },
        this.deps.events,
      );
      const start = await provider.start(trx, invoiceToPay(created), { paymentMethodId: input.payment_method_id ?? null });
      if (start.status === 'paid') {
        await settleInTransaction(
          trx,
          {
            tenantId: created.tenant_id,
            invoiceId: created.id,
            provider: provider.id,
            reference: start.reference,
            amount: input.amount,
            actorId: user.id,
          },
          now,
          this.deps.secrets,
          this.deps.events,
        );
      } else {
        await setInvoiceInstructions(trx, created.id, start.instructions);
      }
      return created;
    });
    await this.deps.audit.recordAction(
      actor,
      'credit.top_up_requested',
      user.tenant_id,
      { type: 'invoice', id: invoice.id },
      {
        number: invoice.number,
        amount: input.amount,
        payment: input.payment,
      },
    );
    return this.deps.invoices.getInvoiceForUser(user, invoice.id, language);
  }

  /** An admin credits or debits a user of a tenant they administer (never below zero). */
  async adjust(
    actor: Actor,
    input: CreditAdjustmentPayload,
    language: string,
  ): Promise<{ user_id: number; balance: ReturnType<typeof money>; entry: CreditEntry }> {
    const { db, clock } = this.deps;
    const target = await this.adjustableUser(actor, input.user_id);
    const settings = await ensureShop(db, target.tenant_id);
    const now = clock.now();
    const result = await db.transaction().execute((trx) =>
      post(trx, {
        tenantId: target.tenant_id,
        userId: target.id,
        amount: input.amount,
        currency: settings.currency,
        type: 'manual',
        description: input.description,
        reference: `manual:${crypto.randomUUID()}`,
        actorId: actor.user.id,
        now,
      }),
    );
    if (result.status === 'insufficient')
      throw fieldError('amount', 'credit.below_zero', { balance: formatMoney(result.balance, settings.currency, language) });
    if (result.status !== 'posted') throw new Error('a fresh manual reference cannot repeat');
    await this.deps.audit.recordAction(
      actor,
      'credit.adjusted',
      target.tenant_id,
      { type: 'user', id: target.id },
      {
        amount: input.amount,
        currency: settings.currency,
        description: input.description,
        balance: result.balance,
      },
    );
    return { user_id: target.id, balance: money(result.balance, settings.currency, language), entry: presentEntry(result.entry, language) };
  }
}
