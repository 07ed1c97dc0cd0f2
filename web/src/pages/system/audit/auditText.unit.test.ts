import { describe, expect, it, vi } from 'vitest';
import type { TFunction } from 'i18next';
import type { AuditEntryView } from '@berth/contracts';
import en from '../../../i18n/areas/audit/en.json';
// The server's list of actions, as text: the web must label every one of them.
import auditService from '../../../../../server/src/modules/audit/service.ts?raw';
// Money is formatted in the UI language; the i18n module itself needs a browser document.
vi.mock('../../../i18n/i18n.ts', () => ({ currentLanguage: () => 'en' }));

import { actionFilterLabel, actionLabel, AUDIT_ACTIONS, entryDetails, entrySentence, objectPath, targetName } from './auditText.ts';

/** A t() that reads the English audit texts, as the app's i18n does (nested keys, {{values}}). */
const t = ((key: string, values: Record<string, string> = {}) => {
  const found = key
    .replace(/^audit\./, '')
    .split('.')
    .reduce<unknown>((node, part) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined), en);
  if (typeof found !== 'string') throw new Error(`no English text for ${key}`);
  return found.replace(/\{\{(\w+)\}\}/g, (_, name: string) => values[name] ?? '');
}) as unknown as TFunction;

const entry = (data: Record<string, unknown>): AuditEntryView => ({
  id: '1',
  created_at: '2026-11-01T09:00:00.000Z',
  action: 'domain.created',
  ip: '127.0.0.1',
  tenant_id: 1,
  user: null,
  impersonator: null,
  target: { type: 'domain', id: '7' },
  data,
});

describe('audit action labels', () => {
  it('name only actions the server records, each with an English label', () => {
    const union = /export type AuditAction =([^;]+);/.exec(auditService)?.[1] ?? '';
    const recorded = new Set([...union.matchAll(/'([^']+)'/g)].map((match) => match[1]));
    expect(recorded.size).toBeGreaterThan(40);
    // An action added since shows as its code until it gets a label here.
    for (const action of Object.values(AUDIT_ACTIONS).flat()) {
      expect(recorded, action).toContain(action);
      expect(actionLabel(action, t)).not.toBe(action);
    }
  });

  it('show an unknown code as it is, and areas as "All: …"', () => {
    expect(actionLabel('domain.created', t)).toBe('Domain created');
    expect(actionLabel('backup.restored', t)).toBe('backup.restored');
    expect(actionFilterLabel('dns.', t)).toBe('All: DNS');
    expect(actionFilterLabel('tenant.logo_removed', t)).toBe('Logo removed');
  });
});

describe('audit details in words', () => {
  it('name the changed fields, codes and yes/no in the reader’s language, never as raw keys', () => {
    expect(entryDetails(entry({ tld: 'com', changed: 'register_price,active' }), t)).toEqual([
      'Domain ending: com',
      'Changed: Registration price, On sale',
    ]);
    expect(entryDetails(entry({ require_2fa_customers: 'false' }), t)).toEqual(['Customers must use two-factor authentication: no']);
    expect(entryDetails(entry({ code: 'SPRING', kind: 'percent', value: 10 }), t)).toEqual([
      'Code: SPRING',
      'Kind: percentage',
      'Value: 10',
    ]);
    // A key newer than this page reads as words rather than a code.
    expect(entryDetails(entry({ brand_new_key: 'x' }), t)).toEqual(['brand new key: x']);
  });
});

describe('audit objects', () => {
  it('are named by what the entry recorded; ids and the name are left out of the details', () => {
    const domain = entry({ name: 'example.com', owner_id: 3, changed: 'notes' });
    expect(targetName(domain)).toBe('example.com');
    expect(entryDetails(domain, t)).toEqual(['Changed: Notes']);
    expect(entryDetails(entry({ two_factor_pending: false }), t)).toEqual(['Second step pending: no']);
    expect(targetName(entry({ customer_email: 'a@example.com' }))).toBe('a@example.com');
    expect(targetName(entry({}))).toBeNull();
  });
});

describe('audit entries in words', () => {
  const credit = (amount: number): AuditEntryView => ({
    ...entry({ amount, balance: 15_500, currency: 'EUR', description: 'Goodwill' }),
    action: 'credit.adjusted',
    target: { type: 'user', id: '3', label: 'Hana Nováková' },
  });

  it('tell a credit adjustment as a sentence with money, the person by name and a link to them', () => {
    expect(entrySentence(credit(15_000), t)).toBe('€150.00 credited to Hana Nováková (balance €155.00)');
    expect(entrySentence(credit(-2_500), t)).toBe('€25.00 debited from Hana Nováková (balance €155.00)');
    expect(entryDetails(credit(15_000), t)).toEqual(['Reason: Goodwill']);
    expect(objectPath(credit(1))).toBe('/system/customers/3');
  });

  it('label known details and format money; an object that is gone has no link', () => {
    const paid = { ...entry({ amount: 1210, currency: 'EUR', provider: 'bank_transfer', reference: 'TX-1' }), action: 'order.created' };
    expect(entryDetails(paid, t)).toEqual(['Amount: €12.10', 'Paid with: bank_transfer', 'Reference: TX-1']);
    expect(objectPath({ ...paid, target: { type: 'domain', id: '7', label: null } })).toBeNull();
    expect(objectPath({ ...paid, target: { type: 'domain', id: '7', label: 'example.com' } })).toBe('/host/domain/7/edit');
  });
});
