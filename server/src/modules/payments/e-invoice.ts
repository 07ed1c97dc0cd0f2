import { InvoiceService, type Invoice } from '@e-invoice-eu/core';
import type { EInvoiceFormat } from '@berth/contracts';
import type { BuyerDetails, SellerDetails } from '../../db/schema.ts';
import type { InvoiceRow } from './queries.ts';

/**
 * EN 16931 e-invoices of Berth's invoices, by `@e-invoice-eu/core` (decision
 * docs/decisions/0018-e-invoices.md): UBL 2.1, XRechnung (UBL) and UN/CEFACT CII as XML, and
 * Factur-X (profile EN 16931) as the invoice PDF with its CII XML embedded (PDF/A-3).
 *
 * One document describes what the PDF shows: a line per invoice line (quantity one, its price
 * net of VAT, a line discount as an allowance), the invoice's one VAT rate as its breakdown, what
 * was already paid as the prepaid amount.
 */
export interface EInvoiceSource {
  invoice: Pick<
    InvoiceRow,
    | 'id'
    | 'user_id'
    | 'number'
    | 'kind'
    | 'status'
    | 'currency'
    | 'vat_rate_bp'
    | 'net'
    | 'vat'
    | 'gross'
    | 'promo_code'
    | 'payment_provider'
    | 'payment_reference'
    | 'issued_at'
    | 'paid_at'
    | 'due_at'
  >;
  lines: { title: string; period_months: number | null; net: number; discount: number }[];
  seller: SellerDetails;
  /** As stored on the invoice; `fallback` names the account for invoices issued before buyer details were kept. */
  buyer: BuyerDetails | null;
  fallbackBuyer: { name: string; email: string };
  transfer: { accountName: string; iban: string; bic: string | null } | null;
}

/** The library's name of each syntax offered for download, and the Factur-X profile of the PDF. */
const LIBRARY_FORMATS: Record<EInvoiceFormat, string> = { ubl: 'UBL', 'xrechnung-ubl': 'XRECHNUNG-UBL', cii: 'CII' };
const FACTUR_X = 'Factur-X-EN16931';

/** Why an invoice cannot be an e-invoice in a format; null when it can. */
export function eInvoiceProblem(seller: SellerDetails | null, format: EInvoiceFormat | 'factur-x'): 'seller' | 'seller_contact' | null {
  if (!seller || !seller.legal_name || !seller.country || !seller.city || !seller.postal_code) return 'seller';
  // XRechnung requires the seller's contact point (BR-DE-2, BR-DE-5..7).
  if (format === 'xrechnung-ubl' && (!seller.email || !seller.phone)) return 'seller_contact';
  return null;
}

// Amounts are cents; the XML writes them as decimals with two places.
const amount = (cents: number) => (Number(cents) / 100).toFixed(2);
const day = (value: Date | string) => new Date(value).toISOString().slice(0, 10);

/** UNTDID 4461 payment means: SEPA credit transfer, bank card, or settled from prepaid credit (mutually defined). */
const PAYMENT_MEANS: Record<InvoiceRow['payment_provider'], { code: string; name: string }> = {
  bank_transfer: { code: '58', name: 'SEPA credit transfer' },
  stripe: { code: '48', name: 'Bank card' },
  credit: { code: 'ZZZ', name: 'Prepaid credit' },
};

/** The invoice in the library's internal format (UBL's element names as JSON keys). */
export function eInvoiceData(source: EInvoiceSource): Invoice {
  const { invoice, seller, transfer } = source;
  const currency = invoice.currency.toUpperCase();
  const rate = invoice.vat_rate_bp / 100;
  // Standard rate, or zero-rated when the shop charges no VAT.
  const category = { 'cbc:ID': rate > 0 ? 'S' : 'Z', 'cbc:Percent': String(rate), 'cac:TaxScheme': { 'cbc:ID': 'VAT' } };
  const money = (cents: number) => amount(cents);
  const buyer = source.buyer;
  const buyerName = buyer ? buyer.company || buyer.name || buyer.email : source.fallbackBuyer.name || source.fallbackBuyer.email;
  const paid = invoice.status === 'paid' ? Number(invoice.gross) : 0;
  const means = PAYMENT_MEANS[invoice.payment_provider];
  // The seller may name several tax registrations (a list), the buyer one.
  const taxScheme = (vatId: string) => ({ 'cbc:CompanyID': vatId, 'cac:TaxScheme': { 'cbc:ID': 'VAT' } });

  const data = {
    'ubl:Invoice': {
      'cbc:ID': invoice.number,
      'cbc:IssueDate': day(invoice.issued_at),
      'cbc:DueDate': day(invoice.due_at ?? invoice.issued_at),
      'cbc:InvoiceTypeCode': '380',
      'cbc:DocumentCurrencyCode': currency,
      // BT-10: the buyer's reference; Berth knows the buyer by their customer number.
      'cbc:BuyerReference': `customer-${invoice.user_id}`,
      'cac:AccountingSupplierParty': {
        'cac:Party': {
          ...(seller.email ? { 'cbc:EndpointID': seller.email, 'cbc:EndpointID@schemeID': 'EM' } : {}),
          'cac:PartyName': { 'cbc:Name': seller.legal_name },
          'cac:PostalAddress': {
            ...(seller.street ? { 'cbc:StreetName': seller.street } : {}),
            'cbc:CityName': seller.city,
            'cbc:PostalZone': seller.postal_code,
            'cac:Country': { 'cbc:IdentificationCode': seller.country },
          },
          ...(seller.vat_id ? { 'cac:PartyTaxScheme': [taxScheme(seller.vat_id)] } : {}),
          'cac:PartyLegalEntity': { 'cbc:RegistrationName': seller.legal_name },
          ...(seller.email || seller.phone
            ? {
                'cac:Contact': {
                  'cbc:Name': seller.legal_name,
                  ...(seller.phone ? { 'cbc:Telephone': seller.phone } : {}),
                  ...(seller.email ? { 'cbc:ElectronicMail': seller.email } : {}),
                },
              }
            : {}),
        },
      },
      'cac:AccountingCustomerParty': {
        'cac:Party': {
          ...((buyer?.email ?? source.fallbackBuyer.email)
            ? { 'cbc:EndpointID': buyer?.email ?? source.fallbackBuyer.email, 'cbc:EndpointID@schemeID': 'EM' }
            : {}),
          'cac:PartyName': { 'cbc:Name': buyerName },
          'cac:PostalAddress': {
            ...(buyer?.street ? { 'cbc:StreetName': buyer.street } : {}),
            ...(buyer?.city ? { 'cbc:CityName': buyer.city } : {}),
            ...(buyer?.postal_code ? { 'cbc:PostalZone': buyer.postal_code } : {}),
            // The buyer's country is required (BT-55); a buyer who gave none is taken to be in the seller's.
            'cac:Country': { 'cbc:IdentificationCode': buyer?.country || seller.country },
          },
          ...(buyer?.vat_id ? { 'cac:PartyTaxScheme': taxScheme(buyer.vat_id) } : {}),
          'cac:PartyLegalEntity': { 'cbc:RegistrationName': buyerName },
        },
      },
      // BT-72: a service is supplied when the invoice is issued (CII requires the delivery block).
      'cac:Delivery': { 'cbc:ActualDeliveryDate': day(invoice.issued_at) },
      'cac:PaymentMeans': [
        {
          'cbc:PaymentMeansCode': means.code,
          'cbc:PaymentMeansCode@name': means.name,
          'cbc:PaymentID': invoice.payment_reference,
          ...(transfer && invoice.payment_provider === 'bank_transfer'
            ? {
                'cac:PayeeFinancialAccount': {
                  'cbc:ID': transfer.iban,
                  'cbc:Name': transfer.accountName,
                  ...(transfer.bic ? { 'cac:FinancialInstitutionBranch': { 'cbc:ID': transfer.bic } } : {}),
                },
              }
            : {}),
        },
      ],
      'cac:PaymentTerms': { 'cbc:Note': `Payable by ${day(invoice.due_at ?? invoice.issued_at)}, reference ${invoice.payment_reference}.` },
      'cac:TaxTotal': [
        {
          'cbc:TaxAmount': money(invoice.vat),
          'cbc:TaxAmount@currencyID': currency,
          'cac:TaxSubtotal': [
            {
              'cbc:TaxableAmount': money(invoice.net),
              'cbc:TaxableAmount@currencyID': currency,
              'cbc:TaxAmount': money(invoice.vat),
              'cbc:TaxAmount@currencyID': currency,
              'cac:TaxCategory': category,
            },
          ],
        },
      ],
      'cac:LegalMonetaryTotal': {
        'cbc:LineExtensionAmount': money(invoice.net),
        'cbc:LineExtensionAmount@currencyID': currency,
        'cbc:TaxExclusiveAmount': money(invoice.net),
        'cbc:TaxExclusiveAmount@currencyID': currency,
        'cbc:TaxInclusiveAmount': money(invoice.gross),
        'cbc:TaxInclusiveAmount@currencyID': currency,
        ...(paid ? { 'cbc:PrepaidAmount': money(paid), 'cbc:PrepaidAmount@currencyID': currency } : {}),
        'cbc:PayableAmount': money(Number(invoice.gross) - paid),
        'cbc:PayableAmount@currencyID': currency,
      },
      'cac:InvoiceLine': source.lines.map((line, index) => ({
        'cbc:ID': String(index + 1),
        'cbc:InvoicedQuantity': '1',
        // C62: "one" (a unit of the service).
        'cbc:InvoicedQuantity@unitCode': 'C62',
        'cbc:LineExtensionAmount': money(Number(line.net) - Number(line.discount)),
        'cbc:LineExtensionAmount@currencyID': currency,
        ...(Number(line.discount) !== 0
          ? {
              'cac:AllowanceCharge': [
                {
                  'cbc:ChargeIndicator': 'false',
                  // UNTDID 5189 95: discount.
                  'cbc:AllowanceChargeReasonCode': '95',
                  'cbc:AllowanceChargeReason': invoice.promo_code ? `Discount ${invoice.promo_code}` : 'Discount',
                  'cbc:Amount': money(line.discount),
                  'cbc:Amount@currencyID': currency,
                },
              ],
            }
          : {}),
        'cac:Item': {
          'cbc:Name': line.period_months ? `${line.title} (${line.period_months} months)` : line.title,
          'cac:ClassifiedTaxCategory': category,
        },
        'cac:Price': { 'cbc:PriceAmount': money(line.net), 'cbc:PriceAmount@currencyID': currency },
      })),
    },
  };
  return data as unknown as Invoice;
}

// The library logs its warnings; the server's log has no use for them, a failure throws.
const quiet = { log: () => undefined, warn: () => undefined, error: () => undefined };

/** The e-invoice as XML in one of the download formats. */
export async function renderEInvoiceXml(source: EInvoiceSource, format: EInvoiceFormat, lang: string): Promise<string> {
  const result = await new InvoiceService(quiet).generate(eInvoiceData(source), {
    format: LIBRARY_FORMATS[format],
    lang,
    noWarnings: true,
  });
  return typeof result === 'string' ? result : Buffer.from(result).toString('utf8');
}

/** The invoice PDF as Factur-X (EN 16931 profile): PDF/A-3 with the CII XML attached as factur-x.xml. */
export async function embedFacturX(pdf: Buffer, source: EInvoiceSource, lang: string): Promise<Buffer> {
  const result = await new InvoiceService(quiet).generate(eInvoiceData(source), {
    format: FACTUR_X,
    lang,
    noWarnings: true,
    pdf: { buffer: new Uint8Array(pdf), filename: `invoice-${source.invoice.number}.pdf`, mimetype: 'application/pdf' },
  });
  return Buffer.from(result);
}
