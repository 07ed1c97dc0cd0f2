import QRCode from 'qrcode';

/** What a payment QR code carries: the payee's account, the amount and the reference to quote. */
export interface PaymentQrInput {
  accountName: string;
  iban: string;
  bic: string | null;
  /** Minor units (cents, haléře). */
  amount: number;
  currency: string;
  reference: string;
}

/** "1234.5" from 123450 minor units: the decimal form both QR formats want (no grouping, dot). */
export const decimalAmount = (minor: number): string => {
  const sign = minor < 0 ? '-' : '';
  const abs = Math.abs(minor);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
};

/** ISO 11649 creditor reference ("RF18 5390 0754 7034"): EPC QR codes carry these in their structured field. */
export function isCreditorReference(value: string): boolean {
  const ref = value.replace(/\s+/g, '').toUpperCase();
  if (!/^RF\d{2}[A-Z0-9]{1,21}$/.test(ref)) return false;
  let remainder = 0;
  for (const char of ref.slice(4) + ref.slice(0, 4)) {
    const digits = char >= 'A' ? String(char.charCodeAt(0) - 55) : char;
    for (const digit of digits) remainder = (remainder * 10 + Number(digit)) % 97;
  }
  return remainder === 1;
}

/**
 * EPC069-12 ("GiroCode", SEPA credit transfer QR), version 002, UTF-8: BCD, version, charset, SCT,
 * BIC, name, IBAN, amount, purpose, structured reference (RF) or unstructured remittance text.
 */
export function epcPayload(input: PaymentQrInput): string {
  if (input.currency !== 'EUR') throw new Error('EPC QR codes are for EUR transfers only');
  const reference = input.reference.trim();
  const structured = isCreditorReference(reference) ? reference.replace(/\s+/g, '').toUpperCase() : '';
  const lines = [
    'BCD',
    '002',
    '1',
    'SCT',
    input.bic ?? '',
    input.accountName.slice(0, 70),
    input.iban,
    `EUR${decimalAmount(input.amount)}`,
    '',
    structured,
    structured ? '' : reference.slice(0, 140),
  ];
  while (lines.at(-1) === '') lines.pop();
  return lines.join('\n');
}

/**
 * SPAYD values may not contain the field separator; the format escapes it (and %) as percent
 * codes. Diacritics are dropped: not every banking app reads UTF-8 in these codes.
 */
const spaydValue = (value: string, max: number): string =>
  value
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/%/g, '%25')
    .replace(/\*/g, '%2A')
    .replace(/[\r\n]+/g, ' ')
    .slice(0, max);

/**
 * SPAYD 1.0 (Czech "QR Platba", read by Czech and Slovak banking apps): ACC (IBAN+BIC), AM, CC,
 * the variable symbol X-VS when the reference is up to 10 digits, else the reference as MSG.
 */
export function spaydPayload(input: PaymentQrInput): string {
  const reference = input.reference.trim();
  const fields = [
    'SPD',
    '1.0',
    `ACC:${input.iban}${input.bic ? `+${input.bic}` : ''}`,
    `AM:${decimalAmount(input.amount)}`,
    `CC:${input.currency}`,
    /^\d{1,10}$/.test(reference) ? `X-VS:${reference}` : `MSG:${spaydValue(reference, 60)}`,
    `RN:${spaydValue(input.accountName, 35)}`,
  ];
  return fields.join('*');
}

/** EUR transfers get the EPC code every SEPA banking app reads; other currencies (CZK...) SPAYD. */
export const paymentQrPayload = (input: PaymentQrInput): string => (input.currency === 'EUR' ? epcPayload(input) : spaydPayload(input));

/** The QR code as SVG; error correction M, as EPC requires. */
export async function paymentQrSvg(input: PaymentQrInput): Promise<string> {
  return QRCode.toString(paymentQrPayload(input), { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
}

/** The same code as PNG (for the invoice PDF). */
export async function paymentQrPng(input: PaymentQrInput): Promise<Buffer> {
  return QRCode.toBuffer(paymentQrPayload(input), { type: 'png', errorCorrectionLevel: 'M', margin: 2, width: 240 });
}
