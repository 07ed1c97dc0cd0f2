import type { TenantBankAccount } from '@berth/contracts';
import type { Db } from '../../db/connection.ts';
import { HttpError } from '../../http/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Actor, AuditService } from '../audit/service.ts';
import { findTenantById } from '../tenants/queries.ts';
import { administers, assertAdmin } from '../tenants/scope.ts';
import type { UserRow } from '../users/queries.ts';
import { paymentQrPng, paymentQrSvg } from './payment-qr.ts';
import type { PaymentInstructionsView } from '@berth/contracts';
import type { InvoiceToPay, PaymentProvider, PaymentStart } from './provider.ts';
import { deleteTenantBankAccount, findTenantBankAccount, upsertTenantBankAccount } from './queries.ts';

type BankTransferInstructions = Extract<PaymentInstructionsView, { kind: 'bank_transfer' }>;

const qrInput = (account: TenantBankAccount, invoice: Pick<InvoiceToPay, 'total' | 'currency' | 'payment_reference'>) => ({
  accountName: account.account_name,
  iban: account.iban,
  bic: account.bic,
  amount: invoice.total,
  currency: invoice.currency,
  reference: invoice.payment_reference,
});

/**
 * Bank transfer: offered when the tenant has a bank account. The invoice stays unpaid; the payer
 * transfers the amount quoting the invoice's payment reference (a QR code fills it in), and an
 * admin marks it paid or a bank statement import matches it (confirmation.ts).
 */
export class BankTransferProvider implements PaymentProvider {
  readonly id = 'bank_transfer' as const;
  private readonly db: Db;

  constructor(db: Db) {
    this.db = db;
  }

  async enabled(tenantId: number): Promise<boolean> {
    return (await findTenantBankAccount(this.db, tenantId)) !== undefined;
  }

  async start(trx: Db, invoice: InvoiceToPay): Promise<PaymentStart> {
    const instructions = await this.instructions(trx, invoice);
    if (!instructions)
      throw new HttpError(422, 'payments.bank_transfer_unavailable', {
        fields: { payment: [{ key: 'payments.bank_transfer_unavailable' }] },
      });
    return { status: 'pending', instructions };
  }

  /** How to pay an invoice by transfer, or null when the tenant has no bank account (any more). */
  async instructions(
    db: Db,
    invoice: Pick<InvoiceToPay, 'tenant_id' | 'total' | 'currency' | 'payment_reference'>,
  ): Promise<BankTransferInstructions | null> {
    const account = await findTenantBankAccount(db, invoice.tenant_id);
    if (!account) return null;
    return {
      kind: 'bank_transfer',
      account_name: account.account_name,
      iban: account.iban,
      bic: account.bic,
      reference: invoice.payment_reference,
      amount: invoice.total,
      currency: invoice.currency,
      qr_svg: await paymentQrSvg(qrInput(account, invoice)),
    };
  }

  /** The same payment QR code as PNG, for the invoice PDF; null without a bank account. */
  async qrPng(
    db: Db,
    invoice: Pick<InvoiceToPay, 'tenant_id' | 'total' | 'currency' | 'payment_reference'>,
  ): Promise<{ png: Buffer; account: TenantBankAccount } | null> {
    const account = await findTenantBankAccount(db, invoice.tenant_id);
    if (!account) return null;
    return { png: await paymentQrPng(qrInput(account, invoice)), account };
  }
}

/** The tenant's bank account as its admins set it (super admins for any tenant, host admins for theirs). */
export class TenantBankAccounts {
  private readonly deps: { db: Db; clock: Clock; audit: AuditService };

  constructor(deps: TenantBankAccounts['deps']) {
    this.deps = deps;
  }

  async get(viewer: UserRow, tenantId: number): Promise<TenantBankAccount | null> {
    await this.assertAdministers(viewer, tenantId);
    return (await findTenantBankAccount(this.deps.db, tenantId)) ?? null;
  }

  async set(
    actor: Actor,
    tenantId: number,
    input: { account_name: string; iban: string; bic?: string | null | undefined },
  ): Promise<TenantBankAccount> {
    await this.assertAdministers(actor.user, tenantId);
    const account = { account_name: input.account_name, iban: input.iban, bic: input.bic ?? null };
    await upsertTenantBankAccount(this.deps.db, { tenant_id: tenantId, ...account, updated_at: this.deps.clock.now() });
    await this.deps.audit.recordAction(
      actor,
      'tenant.bank_account_set',
      tenantId,
      { type: 'tenant', id: tenantId },
      { iban_end: account.iban.slice(-4) },
    );
    return account;
  }

  async remove(actor: Actor, tenantId: number): Promise<void> {
    await this.assertAdministers(actor.user, tenantId);
    const result = await deleteTenantBankAccount(this.deps.db, tenantId);
    if (Number(result.numDeletedRows) > 0)
      await this.deps.audit.recordAction(actor, 'tenant.bank_account_removed', tenantId, { type: 'tenant', id: tenantId });
  }

  private async assertAdministers(viewer: UserRow, tenantId: number): Promise<void> {
    assertAdmin(viewer);
    if (!administers(viewer, tenantId) || !(await findTenantById(this.deps.db, tenantId))) throw new HttpError(404, 'http.not_found');
  }
}

/** Test details for the demo data (a valid IBAN that is nobody's real account); kept when one is set. */
export async function seedDemoBankAccount(db: Db, tenantId: number, accountName: string, now: Date): Promise<void> {
  if (!(await findTenantById(db, tenantId)) || (await findTenantBankAccount(db, tenantId))) return;
  await upsertTenantBankAccount(db, {
    tenant_id: tenantId,
    account_name: accountName,
    iban: 'CZ6508000000192000145399',
    bic: 'GIBACZPX',
    updated_at: now,
  });
}
