import { createRequire } from 'node:module';
import path from 'node:path';
import PDFDocument from 'pdfkit';
import type { EInvoiceFormat, LanguageCode } from '@berth/contracts';
import { formatIban } from '@berth/contracts';
import type { Db } from '../../db/connection.ts';
import type { BuyerDetails, SellerDetails } from '../../db/schema.ts';
import { HttpError } from '../../http/errors.ts';
import { translate, type MessageKey } from '../../i18n/messages.ts';
import type { Clock } from '../../lib/clock.ts';
import { formatMoney } from '../shop/money.ts';
import type { UserRow } from '../users/queries.ts';
import type { BankTransferProvider } from './bank-transfer.ts';
import type { PaymentConfirmation } from './confirmation.ts';
import { eInvoiceProblem, embedFacturX, renderEInvoiceXml, type EInvoiceSource } from './e-invoice.ts';
import { findInvoice, findInvoiceParties, findTenantBankAccount, listInvoiceLines, type InvoiceRow } from './queries.ts';

// DejaVu covers Latin, Greek and Cyrillic: the PDF's built-in fonts cannot print "ř" or "ő".
const fontDir = path.join(path.dirname(createRequire(import.meta.url).resolve('dejavu-fonts-ttf/package.json')), 'ttf');
const FONT = path.join(fontDir, 'DejaVuSans.ttf');
const FONT_BOLD = path.join(fontDir, 'DejaVuSans-Bold.ttf');

export interface InvoiceDocument {
  invoice: InvoiceRow;
  lines: { title: string; period_months: number | null; net: number; discount: number }[];
  seller: string;
  /** The seller's legal name, address and VAT ID as issued (empty when the tenant set none). */
  sellerLines: string[];
  /** Name and e-mail, then the billing lines (company, address, country, VAT ID) as issued. */
  buyer: { name: string; email: string; lines: string[] };
  /** For an unpaid bank-transfer invoice: the account and its payment QR code (PNG). */
  transfer: { accountName: string; iban: string; bic: string | null; qrPng: Buffer } | null;
  lang: LanguageCode;
  createdAt: Date;
}

const GREY = '#5f6b7a';
const INK = '#1d2530';
const RULE = '#d7dde4';

/** A one-page A4 invoice: seller and buyer, number and dates, lines, net/VAT/gross, how to pay. */
export function renderInvoicePdf(input: InvoiceDocument): Promise<Buffer> {
  const { invoice, lang } = input;
  const t = (key: MessageKey, params?: Record<string, string | number>) => translate(lang, key, params);
  const money = (amount: number) => formatMoney(amount, invoice.currency, lang);
  const date = (value: Date | string) => new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(value));
  const title = `${t('invoice_pdf.title')} ${invoice.number}`;

  const doc = new PDFDocument({
    size: 'A4',
    margin: 50,
    info: { Title: title, Author: input.seller, Subject: invoice.number, CreationDate: input.createdAt },
    lang,
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  doc.registerFont('regular', FONT);
  doc.registerFont('bold', FONT_BOLD);

  const left = doc.page.margins.left;
  const width = doc.page.width - left - doc.page.margins.right;
  const right = left + width;

  // Heading: seller left, "Invoice <number>" right.
  doc
    .font('bold')
    .fontSize(18)
    .fillColor(INK)
    .text(input.seller, left, 50, { width: width / 2 });
  doc
    .font('bold')
    .fontSize(18)
    .text(t('invoice_pdf.title'), left + width / 2, 50, { width: width / 2, align: 'right' });
  doc
    .font('regular')
    .fontSize(10)
    .fillColor(GREY)
    .text(invoice.number, left + width / 2, 74, { width: width / 2, align: 'right' });

  // Parties and dates.
  let y = 115;
  const label = (text: string, x: number, top: number, w: number) =>
    doc.font('regular').fontSize(8).fillColor(GREY).text(text.toUpperCase(), x, top, { width: w });
  const value = (text: string, x: number, top: number, w: number, bold = false) =>
    doc
      .font(bold ? 'bold' : 'regular')
      .fontSize(10)
      .fillColor(INK)
      .text(text, x, top, { width: w });
  const column = width / 3;
  label(t('invoice_pdf.seller'), left, y, column - 10);
  value(input.seller, left, y + 12, column - 10, true);
  input.sellerLines.forEach((line, i) => value(line, left, y + 26 + i * 14, column - 10));
  label(t('invoice_pdf.buyer'), left + column, y, column - 10);
  value(input.buyer.name, left + column, y + 12, column - 10, true);
  value(input.buyer.email, left + column, y + 26, column - 10);
  input.buyer.lines.forEach((line, i) => value(line, left + column, y + 40 + i * 14, column - 10));
  const meta: [string, string][] = [
    [t('invoice_pdf.number'), invoice.number],
    [t('invoice_pdf.issued'), date(invoice.issued_at)],
    [t('invoice_pdf.status'), t(`invoice_pdf.status_${invoice.status}`)],
    ...(invoice.paid_at ? ([[t('invoice_pdf.paid_at'), date(invoice.paid_at)]] as [string, string][]) : []),
  ];
  meta.forEach(([name, text], i) => {
    label(name, left + 2 * column, y + i * 26, column);
    value(text, left + 2 * column, y + 10 + i * 26, column);
  });

  // Lines.
  y = Math.max(y + 26 + meta.length * 26, y + 40 + Math.max(input.sellerLines.length, input.buyer.lines.length) * 14, 200);
  const amountWidth = 110;
  doc.moveTo(left, y).lineTo(right, y).strokeColor(RULE).stroke();
  label(t('invoice_pdf.item'), left, y + 6, width - amountWidth);
  doc
    .font('regular')
    .fontSize(8)
    .fillColor(GREY)
    .text(t('invoice_pdf.net').toUpperCase(), right - amountWidth, y + 6, { width: amountWidth, align: 'right' });
  y += 22;
  for (const line of input.lines) {
    const caption = line.period_months ? `${line.title} · ${t('invoice_pdf.period', { months: line.period_months })}` : line.title;
    doc.font('regular').fontSize(10).fillColor(INK);
    const height = doc.heightOfString(caption, { width: width - amountWidth - 10 });
    doc.text(caption, left, y, { width: width - amountWidth - 10 });
    doc.text(money(line.net), right - amountWidth, y, { width: amountWidth, align: 'right' });
    y += height + 4;
    if (line.discount !== 0) {
      doc.fillColor(GREY).text(t('invoice_pdf.discount'), left + 12, y, { width: width - amountWidth - 22 });
      doc.text(money(-line.discount), right - amountWidth, y, { width: amountWidth, align: 'right' });
      y += 16;
    }
    y += 4;
  }
  doc.moveTo(left, y).lineTo(right, y).strokeColor(RULE).stroke();

  // Totals.
  y += 10;
  const totalsX = right - 260;
  const total = (name: string, amount: number, bold = false) => {
    doc
      .font(bold ? 'bold' : 'regular')
      .fontSize(bold ? 12 : 10)
      .fillColor(INK);
    doc.text(name, totalsX, y, { width: 150 });
    doc.text(money(amount), right - amountWidth, y, { width: amountWidth, align: 'right' });
    y += bold ? 20 : 16;
  };
  if (invoice.discount !== 0) {
    total(t('invoice_pdf.net'), invoice.subtotal);
    total(invoice.promo_code ? t('invoice_pdf.promo', { code: invoice.promo_code }) : t('invoice_pdf.discount'), -invoice.discount);
  }
  total(t('invoice_pdf.net'), invoice.net);
  total(
    t('invoice_pdf.vat', { rate: new Intl.NumberFormat(lang, { maximumFractionDigits: 2 }).format(invoice.vat_rate_bp / 100) }),
    invoice.vat,
  );
  doc.moveTo(totalsX, y).lineTo(right, y).strokeColor(RULE).stroke();
  y += 6;
  total(t('invoice_pdf.total'), invoice.gross, true);

  // Payment.
  y += 14;
  label(t('invoice_pdf.reference'), left, y, width / 2);
  value(invoice.payment_reference, left, y + 10, width / 2, true);
  y += 36;
  if (input.transfer) {
    const qrSize = 130;
    doc
      .font('bold')
      .fontSize(12)
      .fillColor(INK)
      .text(t('invoice_pdf.pay_by_transfer'), left, y, { width: width - qrSize - 20 });
    const rows: [string, string][] = [
      [t('invoice_pdf.account'), input.transfer.accountName],
      ['IBAN', formatIban(input.transfer.iban)],
      ...(input.transfer.bic ? ([['BIC', input.transfer.bic]] as [string, string][]) : []),
      [t('invoice_pdf.amount'), money(invoice.gross)],
      [t('invoice_pdf.reference'), invoice.payment_reference],
    ];
    rows.forEach(([name, text], i) => {
      label(name, left, y + 22 + i * 24, 120);
      value(text, left, y + 32 + i * 24, width - qrSize - 20);
    });
    doc.image(input.transfer.qrPng, right - qrSize, y, { width: qrSize, height: qrSize });
    doc
      .font('regular')
      .fontSize(8)
      .fillColor(GREY)
      .text(t('invoice_pdf.scan'), right - qrSize, y + qrSize + 4, { width: qrSize, align: 'center' });
  }

  doc.end();
  return done;
}

/** Invoice PDFs (Factur-X when the seller's details allow) and e-invoice XML for their buyer and the tenant's admins. */
export class InvoicePdfs {
  private readonly deps: { db: Db; clock: Clock; bankTransfer: BankTransferProvider; confirmation: PaymentConfirmation };

  constructor(deps: InvoicePdfs['deps']) {
    this.deps = deps;
  }

  async forBuyer(viewer: UserRow, invoiceId: number, lang: LanguageCode): Promise<{ pdf: Buffer; number: string }> {
    const invoice = await this.buyersInvoice(viewer, invoiceId);
    return { pdf: await this.render(invoice, lang), number: invoice.number };
  }

  async forAdmin(viewer: UserRow, invoiceId: number, lang: LanguageCode): Promise<{ pdf: Buffer; number: string }> {
    const invoice = await this.deps.confirmation.administeredInvoice(viewer, invoiceId);
    return { pdf: await this.render(invoice, lang), number: invoice.number };
  }

  async eInvoiceForBuyer(
    viewer: UserRow,
    invoiceId: number,
    format: EInvoiceFormat,
    lang: LanguageCode,
  ): Promise<{ xml: string; number: string }> {
    const invoice = await this.buyersInvoice(viewer, invoiceId);
    return { xml: await this.xml(invoice, format, lang), number: invoice.number };
  }

  async eInvoiceForAdmin(
    viewer: UserRow,
    invoiceId: number,
    format: EInvoiceFormat,
    lang: LanguageCode,
  ): Promise<{ xml: string; number: string }> {
    const invoice = await this.deps.confirmation.administeredInvoice(viewer, invoiceId);
    return { xml: await this.xml(invoice, format, lang), number: invoice.number };
  }

  private async buyersInvoice(viewer: UserRow, invoiceId: number): Promise<InvoiceRow> {
    const invoice = await findInvoice(this.deps.db, invoiceId);
    if (!invoice || invoice.user_id !== viewer.id) throw new HttpError(404, 'http.not_found');
    return invoice;
  }

  private async xml(invoice: InvoiceRow, format: EInvoiceFormat, lang: LanguageCode): Promise<string> {
    const { source, seller } = await this.source(invoice);
    const problem = eInvoiceProblem(seller, format);
    if (problem || !source)
      throw new HttpError(409, problem === 'seller_contact' ? 'payments.e_invoice_contact_missing' : 'payments.e_invoice_unavailable');
    return renderEInvoiceXml(source, format, lang);
  }

  /** What an e-invoice of the invoice says, or no source when the seller's details are missing. */
  private async source(invoice: InvoiceRow) {
    const { db } = this.deps;
    const [lines, parties, account] = await Promise.all([
      listInvoiceLines(db, invoice.id),
      findInvoiceParties(db, invoice.tenant_id, invoice.user_id),
      findTenantBankAccount(db, invoice.tenant_id),
    ]);
    // The seller as the invoice was issued; one issued before the tenant set its details is no e-invoice.
    const seller = invoice.seller_details;
    const fallbackBuyer = {
      name: parties.buyer ? [parties.buyer.given_name, parties.buyer.sn].filter(Boolean).join(' ') : '',
      email: parties.buyer?.email ?? '',
    };
    const source: EInvoiceSource | null =
      seller && !eInvoiceProblem(seller, 'factur-x')
        ? {
            invoice,
            lines,
            seller,
            buyer: invoice.buyer_details,
            fallbackBuyer,
            transfer: account ? { accountName: account.account_name, iban: account.iban, bic: account.bic } : null,
          }
        : null;
    return { source, seller, lines, parties };
  }

  private async render(invoice: InvoiceRow, lang: LanguageCode): Promise<Buffer> {
    const { db } = this.deps;
    const [{ source, seller, lines, parties }, qr] = await Promise.all([
      this.source(invoice),
      invoice.status === 'unpaid' && invoice.payment_provider === 'bank_transfer'
        ? this.deps.bankTransfer.qrPng(db, {
            tenant_id: invoice.tenant_id,
            total: invoice.gross,
            currency: invoice.currency,
            payment_reference: invoice.payment_reference,
          })
        : Promise.resolve(null),
    ]);
    const pdf = await renderInvoicePdf({
      invoice,
      lines,
      seller: parties.tenant?.title ?? '',
      sellerLines: seller ? sellerOnInvoice(seller, lang) : [],
      buyer: buyerOnInvoice(invoice.buyer_details, parties.buyer, lang),
      transfer: qr ? { accountName: qr.account.account_name, iban: qr.account.iban, bic: qr.account.bic, qrPng: qr.png } : null,
      lang,
      createdAt: this.deps.clock.now(),
    });
    // With the seller's details the PDF is also the e-invoice: Factur-X carries its XML inside.
    return source ? embedFacturX(pdf, source, lang) : pdf;
  }
}

const countryName = (code: string, lang: LanguageCode) =>
  code ? (new Intl.DisplayNames([lang], { type: 'region' }).of(code) ?? code) : '';

/** The seller block under the tenant's name: legal name, address, VAT ID. */
function sellerOnInvoice(seller: SellerDetails, lang: LanguageCode): string[] {
  return [
    seller.legal_name,
    seller.street,
    [seller.postal_code, seller.city].filter(Boolean).join(' '),
    countryName(seller.country, lang),
    seller.vat_id ? translate(lang, 'invoice_pdf.vat_id', { vat_id: seller.vat_id }) : '',
  ].filter(Boolean);
}

/**
 * The buyer block: the details stored when the invoice was issued; invoices from before
 * migration 0016 have none and show the account's name and e-mail.
 */
function buyerOnInvoice(
  issued: BuyerDetails | null,
  account: { given_name: string; sn: string; email: string } | undefined,
  lang: LanguageCode,
): InvoiceDocument['buyer'] {
  if (!issued) {
    const name = account ? [account.given_name, account.sn].filter(Boolean).join(' ') || account.email : '';
    return { name, email: account?.email ?? '', lines: [] };
  }
  const country = countryName(issued.country, lang);
  const lines = [
    issued.company && issued.name ? issued.name : '',
    issued.street,
    [issued.postal_code, issued.city].filter(Boolean).join(' '),
    country,
    issued.vat_id ? translate(lang, 'invoice_pdf.vat_id', { vat_id: issued.vat_id }) : '',
  ].filter(Boolean);
  return { name: issued.company || issued.name || issued.email, email: issued.email, lines };
}
