import { describe, expect, it } from 'vitest';
import { formatIban, isValidIban } from '@berth/contracts';
import { decimalAmount, epcPayload, isCreditorReference, paymentQrPayload, paymentQrSvg, spaydPayload } from './payment-qr.ts';

const eur = {
  accountName: 'Harbor Hosting GmbH',
  iban: 'DE89370400440532013000',
  bic: 'COBADEFFXXX',
  amount: 12_150,
  currency: 'EUR',
  reference: '2026000017',
};
const czk = {
  accountName: 'Berth s.r.o.',
  iban: 'CZ6508000000192000145399',
  bic: 'GIBACZPX',
  amount: 48_050,
  currency: 'CZK',
  reference: '2026000042',
};

describe('amounts', () => {
  it('writes minor units as a plain decimal', () => {
    expect(decimalAmount(12_150)).toBe('121.50');
    expect(decimalAmount(5)).toBe('0.05');
    expect(decimalAmount(100_000_000)).toBe('1000000.00');
  });
});

describe('EPC (SEPA) QR payload', () => {
  it('has the BCD lines in order with the reference as remittance text', () => {
    expect(epcPayload(eur)).toBe(
      ['BCD', '002', '1', 'SCT', 'COBADEFFXXX', 'Harbor Hosting GmbH', 'DE89370400440532013000', 'EUR121.50', '', '', '2026000017'].join(
        '\n',
      ),
    );
  });

  it('puts an ISO 11649 creditor reference in the structured field', () => {
    const lines = epcPayload({ ...eur, reference: 'RF18 5390 0754 7034', bic: null }).split('\n');
    expect(lines[4]).toBe('');
    expect(lines[9]).toBe('RF18539007547034');
    expect(lines).toHaveLength(10);
  });

  it('refuses other currencies than EUR', () => {
    expect(() => epcPayload(czk)).toThrow();
  });

  it('checks creditor references by their mod-97 check digits', () => {
    expect(isCreditorReference('RF18539007547034')).toBe(true);
    expect(isCreditorReference('RF19539007547034')).toBe(false);
    expect(isCreditorReference('2026000017')).toBe(false);
  });
});

describe('SPAYD (QR Platba) payload', () => {
  it('carries account, amount, currency, variable symbol and name', () => {
    expect(spaydPayload(czk)).toBe('SPD*1.0*ACC:CZ6508000000192000145399+GIBACZPX*AM:480.50*CC:CZK*X-VS:2026000042*RN:Berth s.r.o.');
  });

  it('sends a reference that is not a variable symbol as the message, escaping the separator', () => {
    expect(spaydPayload({ ...czk, bic: null, reference: 'INV*7', accountName: 'A*B' })).toBe(
      'SPD*1.0*ACC:CZ6508000000192000145399*AM:480.50*CC:CZK*MSG:INV%2A7*RN:A%2AB',
    );
  });

  it('writes names without diacritics, which not every banking app reads', () => {
    expect(spaydPayload({ ...czk, accountName: 'Přístav Šťastný s.r.o.' })).toMatch(/\*RN:Pristav Stastny s\.r\.o\.$/);
  });
});

describe('choosing and drawing the code', () => {
  it('uses EPC for EUR and SPAYD otherwise', () => {
    expect(paymentQrPayload(eur).startsWith('BCD\n')).toBe(true);
    expect(paymentQrPayload(czk).startsWith('SPD*1.0*')).toBe(true);
  });

  it('draws an SVG', async () => {
    const svg = await paymentQrSvg(czk);
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg).toContain('<path');
  });
});

describe('IBAN', () => {
  it('accepts valid IBANs written with spaces and any case', () => {
    expect(isValidIban('DE89 3704 0044 0532 0130 00')).toBe(true);
    expect(isValidIban('cz6508000000192000145399')).toBe(true);
    expect(isValidIban('GB82WEST12345698765432')).toBe(true);
  });

  it('refuses a wrong check digit, a wrong length and garbage', () => {
    expect(isValidIban('DE88370400440532013000')).toBe(false);
    expect(isValidIban('DE8937040044053201300')).toBe(false);
    expect(isValidIban('hello world')).toBe(false);
  });

  it('groups by four for reading', () => {
    expect(formatIban('CZ6508000000192000145399')).toBe('CZ65 0800 0000 1920 0014 5399');
  });
});
