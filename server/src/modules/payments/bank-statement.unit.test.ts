import { describe, expect, it } from 'vitest';
import { parseAmount, parseBankStatement, StatementFormatError, statementLineReference } from './bank-statement.ts';

describe('statement amounts', () => {
  it('reads the ways banks write amounts', () => {
    expect(parseAmount('1234.50')).toBe(123_450);
    expect(parseAmount('1,234.50')).toBe(123_450);
    expect(parseAmount('1 234,50')).toBe(123_450);
    expect(parseAmount('1.234.567,89')).toBe(123_456_789);
    expect(parseAmount('12,5')).toBe(1250);
    expect(parseAmount('480')).toBe(48_000);
    expect(parseAmount('-50.00')).toBe(-5000);
    expect(parseAmount('+7.05')).toBe(705);
  });

  it('refuses what is not an amount', () => {
    expect(parseAmount('')).toBeNull();
    expect(parseAmount('abc')).toBeNull();
    expect(parseAmount('12,34,5')).toBeNull();
    expect(parseAmount('1.2.3')).toBeNull();
    expect(parseAmount('EUR 12')).toBeNull();
  });
});

describe('statement CSV', () => {
  it('reads columns in any order, with ; and a BOM, and numbers the lines', () => {
    const csv =
      '\ufeffCounterparty;Amount;Date;Currency;Variable symbol\n"Novák; Jan";"1 210,00";2026-11-02;czk;2026000001\n\nACME;-5,00;2026-11-03;CZK;\n';
    expect(parseBankStatement(csv)).toEqual([
      {
        line: 2,
        date: '2026-11-02',
        amount: 121_000,
        currency: 'CZK',
        reference: '2026000001',
        counterparty: 'Novák; Jan',
        transactionId: null,
      },
      { line: 3, date: '2026-11-03', amount: -500, currency: 'CZK', reference: '', counterparty: 'ACME', transactionId: null },
    ]);
  });

  it('keeps the bank transaction id when there is one', () => {
    const [line] = parseBankStatement('id,date,amount,currency,reference,counterparty\nTX-9,2026-11-02,12.10,EUR,RF18539007547034,Ann\n');
    expect(line?.transactionId).toBe('TX-9');
    expect(statementLineReference(3, line!)).toBe('statement:3:id:TX-9');
  });

  it('names a missing column and an unreadable file', () => {
    expect(() => parseBankStatement('date,amount,reference\n2026-11-02,1,2\n')).toThrow(StatementFormatError);
    expect(() => parseBankStatement('date,amount\n"unterminated')).toThrow(StatementFormatError);
    expect(() => parseBankStatement('')).toThrow(StatementFormatError);
  });

  it('gives the same line the same reference and another line another one', () => {
    const csv =
      'date,amount,currency,reference,counterparty\n2026-11-02,12.10,EUR,17,Ann\n2026-11-02,12.10,EUR,17,Ann\n2026-11-02,12.10,EUR,18,Ann\n';
    const [a, b, c] = parseBankStatement(csv).map((line) => statementLineReference(1, line));
    expect(a).toBe(b);
    expect(a).not.toBe(c);
  });
});
