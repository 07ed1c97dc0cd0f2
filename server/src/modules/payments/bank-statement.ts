import { createHash } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import { BANK_STATEMENT_COLUMNS } from '@berth/contracts';

/** One transaction line of a bank statement, as read from the CSV. */
export interface StatementLine {
  /** 1-based line of the file (the header is line 1). */
  line: number;
  date: string;
  /** Minor units; null when the amount is not a number with at most two decimals. */
  amount: number | null;
  currency: string;
  reference: string;
  counterparty: string;
  /** The bank's transaction id, when the statement has one. */
  transactionId: string | null;
}

export const BANK_STATEMENT_MAX_LINES = 5000;

export class StatementFormatError extends Error {
  readonly kind: 'unreadable' | 'columns' | 'too_many';
  constructor(kind: StatementFormatError['kind']) {
    super(kind);
    this.kind = kind;
  }
}

type Column = (typeof BANK_STATEMENT_COLUMNS)[number] | 'transaction_id';

/** Header names banks use for each column (lower case), in English, German and Czech exports. */
const HEADER_NAMES: Record<Column, string[]> = {
  date: ['date', 'booking date', 'value date', 'datum', 'buchungstag', 'datum zaúčtování'],
  amount: ['amount', 'betrag', 'částka', 'castka'],
  currency: ['currency', 'währung', 'waehrung', 'měna', 'mena'],
  reference: [
    'reference',
    'variable symbol',
    'variable_symbol',
    'vs',
    'reference/variable symbol',
    'verwendungszweck',
    'variabilní symbol',
    'variabilni symbol',
  ],
  counterparty: ['counterparty', 'payer', 'name', 'auftraggeber', 'protiúčet', 'název protiúčtu', 'nazev protiuctu'],
  transaction_id: ['id', 'transaction id', 'transaction_id', 'transaktions-id', 'id pohybu'],
};

/**
 * "1234.50", "1,234.50", "1 234,50", "1.234,50", "-50": minor units. The last `.` or `,` followed
 * by one or two digits is the decimal mark; other marks and spaces group thousands.
 */
export function parseAmount(text: string): number | null {
  const match = /^([+-]?)(\d[\d.,]*)$/.exec(text.replace(/[\s\u00a0\u202f']/g, ''));
  if (!match) return null;
  const [, sign, body = ''] = match;
  const decimal = /[.,](\d{1,2})$/.exec(body);
  const integer = decimal ? body.slice(0, decimal.index) : body;
  // Grouping marks only between groups of three digits: "12,34,5" is not an amount.
  if (!/^\d+$/.test(integer) && !/^\d{1,3}([.,]\d{3})+$/.test(integer)) return null;
  const cents = Number(integer.replace(/[.,]/g, '')) * 100 + Number((decimal?.[1] ?? '').padEnd(2, '0'));
  if (!Number.isSafeInteger(cents)) return null;
  return sign === '-' ? -cents : cents;
}

/** The separator the header row uses most: `,`, `;` (where `,` is the decimal mark) or a tab. */
function delimiterOf(text: string): string {
  const header = text.split(/\r?\n/, 1)[0] ?? '';
  const count = (mark: string) => header.split(mark).length - 1;
  return [',', ';', '\t'].reduce((best, mark) => (count(mark) > count(best) ? mark : best));
}

/** Reads a statement CSV (`,`, `;` or tab separated, header row, any column order). */
export function parseBankStatement(content: Buffer | string): StatementLine[] {
  const text = typeof content === 'string' ? content : content.toString('utf8');
  let records: string[][];
  try {
    records = parse(text, { bom: true, delimiter: delimiterOf(text), relax_column_count: true, skip_empty_lines: true, trim: true });
  } catch {
    throw new StatementFormatError('unreadable');
  }
  const [header, ...rows] = records;
  if (!header) throw new StatementFormatError('columns');
  const names = header.map((name) => name.trim().toLowerCase());
  const index = (column: Column) => names.findIndex((name) => HEADER_NAMES[column].includes(name));
  const columns = Object.fromEntries((Object.keys(HEADER_NAMES) as Column[]).map((column) => [column, index(column)])) as Record<
    Column,
    number
  >;
  if (BANK_STATEMENT_COLUMNS.some((column) => columns[column] < 0)) throw new StatementFormatError('columns');
  if (rows.length > BANK_STATEMENT_MAX_LINES) throw new StatementFormatError('too_many');
  const cell = (row: string[], column: Column) => (columns[column] < 0 ? '' : (row[columns[column]] ?? '').trim());
  return rows.map((row, i) => ({
    line: i + 2,
    date: cell(row, 'date'),
    amount: parseAmount(cell(row, 'amount')),
    currency: cell(row, 'currency').toUpperCase(),
    reference: cell(row, 'reference'),
    counterparty: cell(row, 'counterparty'),
    transactionId: cell(row, 'transaction_id') || null,
  }));
}

/**
 * The line's own reference, under which its payment is recorded once: the bank's transaction id,
 * or else a digest of everything the line says (the same line imported again is the same payment).
 */
export function statementLineReference(tenantId: number, line: StatementLine): string {
  if (line.transactionId) return `statement:${tenantId}:id:${line.transactionId}`;
  const digest = createHash('sha256')
    .update([line.date, String(line.amount), line.currency, line.reference, line.counterparty].join('\u001f'))
    .digest('hex')
    .slice(0, 32);
  return `statement:${tenantId}:${digest}`;
}
