import { BANK_STATEMENT_LINE_STATUSES, type BankStatementLine, type BankStatementLineStatus } from '@berth/contracts';
import type { Db } from '../../db/connection.ts';
import { HttpError } from '../../http/errors.ts';
import type { Actor, AuditService } from '../audit/service.ts';
import { findTenantById } from '../tenants/queries.ts';
import { administers, adminTenantScope, assertAdmin } from '../tenants/scope.ts';
import type { UserRow } from '../users/queries.ts';
import { parseBankStatement, statementLineReference, type StatementLine } from './bank-statement.ts';
import type { InvoiceSettlement } from './provider.ts';
import { findInvoice, findInvoicesByReference, type InvoiceRow } from './queries.ts';

/**
 * Admins confirming money that arrived outside the panel: marking one invoice paid, or importing
 * a bank statement whose lines are matched to unpaid invoices by reference and exact amount.
 * Both settle through InvoiceSettlement, once per payment reference.
 */
export class PaymentConfirmation {
  private readonly deps: { db: Db; audit: AuditService; settlement: InvoiceSettlement };

  constructor(deps: PaymentConfirmation['deps']) {
    this.deps = deps;
  }

  /** An invoice the viewer administers (host admins: their tenant's; super admins: any), else 404. */
  async administeredInvoice(viewer: UserRow, invoiceId: number): Promise<InvoiceRow> {
    assertAdmin(viewer);
    const invoice = await findInvoice(this.deps.db, invoiceId);
    if (!invoice || !administers(viewer, invoice.tenant_id)) throw new HttpError(404, 'http.not_found');
    return invoice;
  }

  async markPaid(
    actor: Actor,
    invoiceId: number,
    bankReference: string | undefined,
  ): Promise<{ invoice: InvoiceRow; settled: boolean; alreadyPaid: boolean }> {
    const invoice = await this.administeredInvoice(actor.user, invoiceId);
    if (invoice.status === 'cancelled') throw new HttpError(422, 'payments.invoice_cancelled');
    if (invoice.status === 'paid') return { invoice, settled: false, alreadyPaid: true };
    const result = await this.deps.settlement.settle({
      tenantId: invoice.tenant_id,
      invoiceId: invoice.id,
      provider: invoice.payment_provider === 'stripe' ? 'stripe' : 'bank_transfer',
      // One manual confirmation per invoice; the bank's own reference goes to the audit log.
      reference: `manual:${invoice.tenant_id}:${invoice.id}`,
      amount: invoice.gross,
      actorId: actor.user.id,
    });
    if (result.settled) {
      await this.deps.audit.recordAction(
        actor,
        'invoice.marked_paid',
        invoice.tenant_id,
        { type: 'invoice', id: invoice.id },
        {
          number: invoice.number,
          amount: invoice.gross,
          currency: invoice.currency,
          bank_reference: bankReference ?? null,
        },
      );
    }
    return { invoice, settled: result.settled, alreadyPaid: result.alreadyPaid };
  }

  /** The tenant a statement is imported for: a host admin's own; a super admin's choice (or own). */
  async statementTenant(viewer: UserRow, requested: number | undefined): Promise<number> {
    assertAdmin(viewer);
    const tenantId = adminTenantScope(viewer, requested) ?? viewer.tenant_id;
    if (!(await findTenantById(this.deps.db, tenantId))) throw new HttpError(404, 'http.not_found');
    return tenantId;
  }

  /** Parses the CSV (StatementFormatError when it cannot) and settles each matching line, in file order. */
  async importStatement(
    actor: Actor,
    tenantId: number,
    file: Buffer,
  ): Promise<{ lines: BankStatementLine[]; counts: Record<BankStatementLineStatus, number> }> {
    const parsed = parseBankStatement(file);
    const lines: BankStatementLine[] = [];
    for (const line of parsed) lines.push(await this.matchLine(actor, tenantId, line));
    const counts = Object.fromEntries(
      BANK_STATEMENT_LINE_STATUSES.map((status) => [status, lines.filter((l) => l.status === status).length]),
    ) as Record<BankStatementLineStatus, number>;
    await this.deps.audit.recordAction(
      actor,
      'payments.bank_statement_imported',
      tenantId,
      { type: 'tenant', id: tenantId },
      { lines: lines.length, ...counts },
    );
    return { lines, counts };
  }

  private async matchLine(actor: Actor, tenantId: number, line: StatementLine): Promise<BankStatementLine> {
    const answer = (status: BankStatementLineStatus, invoice?: { id: number; number: string }): BankStatementLine => ({
      line: line.line,
      date: line.date,
      amount: line.amount,
      currency: line.currency,
      reference: line.reference,
      counterparty: line.counterparty,
      status,
      invoice_id: invoice?.id ?? null,
      invoice_number: invoice?.number ?? null,
    });
    if (line.amount === null || !/^[A-Z]{3}$/.test(line.currency)) return answer('invalid');
    // Outgoing payments and empty references are not payments of invoices.
    if (line.amount <= 0 || line.reference === '') return answer('ignored');
    const candidates = (await findInvoicesByReference(this.deps.db, tenantId, line.reference)).filter(
      (invoice) => invoice.status !== 'cancelled',
    );
    if (candidates.length === 0) return answer('no_match');
    const exact = candidates.find((invoice) => invoice.gross === line.amount && invoice.currency.toUpperCase() === line.currency);
    if (!exact) {
      const paid = candidates.find((invoice) => invoice.status === 'paid');
      const first = paid ?? candidates[0];
      return answer(paid ? 'already_paid' : 'amount_mismatch', first);
    }
    if (exact.status === 'paid') return answer('already_paid', exact);
    const result = await this.deps.settlement.settle({
      tenantId,
      invoiceId: exact.id,
      provider: 'bank_transfer',
      reference: statementLineReference(tenantId, line),
      amount: line.amount,
      actorId: actor.user.id,
    });
    if (!result.settled) return answer('already_paid', exact);
    await this.deps.audit.recordAction(
      actor,
      'invoice.paid_by_statement',
      tenantId,
      { type: 'invoice', id: exact.id },
      {
        number: exact.number,
        amount: line.amount,
        currency: line.currency,
        line: line.line,
        counterparty: line.counterparty.slice(0, 100),
      },
    );
    return answer('matched', exact);
  }
}
