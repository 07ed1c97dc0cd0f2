import type { TFunction } from 'i18next';
import type { AuditEntryView } from '@berth/contracts';
import { formatMoney } from '../../shop/money.ts';
import enAudit from '../../../i18n/areas/audit/en.json';

/** The actions the server records (server/src/modules/audit/service.ts), grouped by their area. */
export const AUDIT_ACTIONS = {
  auth: [
    'auth.login.success',
    'auth.login.failure',
    'auth.login.throttled',
    'auth.logout',
    'auth.2fa.success',
    'auth.2fa.failure',
    'auth.recovery_code_used',
    'auth.otp.requested',
    'auth.otp.success',
    'auth.otp.failure',
    'auth.password_reset.requested',
    'auth.password_reset.done',
    'auth.registration',
    'auth.email_verified',
  ],
  user: [
    'user.created',
    'user.password_changed',
    'user.email_changed',
    'user.profile_updated',
    'user.2fa_enabled',
    'user.2fa_disabled',
    'user.recovery_codes_regenerated',
    'user.session_revoked',
  ],
  customer: [
    'customer.created',
    'customer.updated',
    'customer.locked',
    'customer.unlocked',
    'customer.2fa_reset',
    'customer.deleted',
    'customer.suspended',
    'customer.unsuspended',
  ],
  domain: ['domain.created', 'domain.updated', 'domain.verified', 'domain.deleted', 'domain.lapsed'],
  certificate: ['certificate.uploaded'],
  domain_user: [
    'domain_user.created',
    'domain_user.updated',
    'domain_user.password_reset',
    'domain_user.deleted',
    'domain_user.password_changed',
    'domain_user.password_change_failed',
    'domain_user.autoreply_changed',
  ],
  mail_alias: ['mail_alias.created', 'mail_alias.deleted'],
  api_token: ['api_token.created', 'api_token.revoked'],
  dns: [
    'dns.record_created',
    'dns.record_updated',
    'dns.record_deleted',
    'dns.zone_imported',
    'dns.dnssec_signed',
    'dns.dnssec_unsigned',
    'dns.dkim_published',
    'dns.dkim_rotation_started',
  ],
  tenant: [
    'tenant.created',
    'tenant.updated',
    'tenant.security_updated',
    'tenant.logo_uploaded',
    'tenant.logo_removed',
    'tenant.admin_assigned',
    'tenant.admin_removed',
    'tenant.bank_account_set',
    'tenant.bank_account_removed',
    'tenant.seller_details_set',
  ],
  impersonation: ['impersonation.started', 'impersonation.stopped'],
  expiry: ['expiry.reminder_sent'],
  shop: [
    'shop.settings_updated',
    'shop.plan_created',
    'shop.plan_updated',
    'shop.plan_deleted',
    'shop.tld_created',
    'shop.tld_updated',
    'shop.tld_deleted',
  ],
  cart: ['cart.item_added', 'cart.item_changed', 'cart.item_removed', 'cart.promo_applied', 'cart.promo_removed'],
  order: ['order.created'],
  subscription: ['subscription.cancelled', 'subscription.auto_renew_on', 'subscription.auto_renew_off'],
  invoice: ['invoice.paid', 'invoice.marked_paid', 'invoice.paid_by_statement', 'invoice.paid_by_stripe'],
  payments: ['payments.bank_statement_imported'],
  webhooks: ['webhooks.allowed_ranges_set'],
  payment_method: ['payment_method.added', 'payment_method.default_set', 'payment_method.removed'],
  credit: ['credit.top_up_requested', 'credit.adjusted', 'credit.adjust_refused'],
  promo: ['promo.created', 'promo.updated', 'promo.deleted'],
} as const;

export type AuditArea = keyof typeof AUDIT_ACTIONS;
export type KnownAuditAction = (typeof AUDIT_ACTIONS)[AuditArea][number];
export const AUDIT_AREAS = Object.keys(AUDIT_ACTIONS) as AuditArea[];

const KNOWN = new Set<string>(Object.values(AUDIT_ACTIONS).flat());
const isKnownAction = (action: string): action is KnownAuditAction => KNOWN.has(action);

const TARGET_TYPES = [
  'api_token',
  'domain',
  'domain_user',
  'mail_alias',
  'dns_record',
  'user',
  'tenant',
  'payment_method',
  'invoice',
  'cart_item',
  'order',
  'promo',
  'hosting_plan',
  'tld_price',
] as const;
type TargetType = (typeof TARGET_TYPES)[number];
const isTargetType = (type: string): type is TargetType => (TARGET_TYPES as readonly string[]).includes(type);

/** "Domain created" for a known action code; an unknown one (newer server) as it is. */
export function actionLabel(action: string, t: TFunction): string {
  return isKnownAction(action) ? t(`audit.actions.${action}`) : action;
}

/** An area filter (`domain.`) or one action, as the filter shows it. */
export function actionFilterLabel(value: string, t: TFunction): string {
  const area = value.endsWith('.') ? value.slice(0, -1) : null;
  if (area !== null && area in AUDIT_ACTIONS) return t('audit.filters.allOf', { area: t(`audit.areas.${area as AuditArea}`) });
  return actionLabel(value, t);
}

/** "Domain", "User", ...; an unknown type as it is. */
export function targetTypeLabel(type: string, t: TFunction): string {
  return isTargetType(type) ? t(`audit.targets.${type}`) : type;
}

/** The data field that names the object (`name` of a domain, `email` of a user, ...). */
const NAME_KEYS = ['name', 'uid', 'email', 'customer_email', 'title'] as const;

/** The object's name as the entry recorded it (it may since have changed or gone). */
export function targetName(entry: AuditEntryView): string | null {
  for (const key of NAME_KEYS) {
    const value = entry.data[key];
    if (typeof value === 'string' && value !== '') return value;
  }
  return null;
}

/** Money recorded in minor units beside its currency (credit, invoices, payments). */
const MONEY_KEYS = new Set(['amount', 'balance', 'total', 'gross', 'net', 'vat']);
/** Recorded details (and the fields an edit changed) with a label of their own in the reader's language. */
type LabelledKey = keyof typeof enAudit.keys;
const isLabelled = (key: string): key is LabelledKey => Object.hasOwn(enAudit.keys, key);
/** A recorded key in words: its label, else the key with spaces (a key newer than this page). */
const keyLabel = (key: string, t: TFunction): string => (isLabelled(key) ? t(`audit.keys.${key}`) : key.replaceAll('_', ' '));
/** Recorded values that are codes (`percent`) in words. */
type CodedValue = keyof typeof enAudit.values;
const isCodedValue = (value: string): value is CodedValue => Object.hasOwn(enAudit.values, value);

/** The object's name: as it is now when it still exists, else as the entry recorded it. */
export function objectName(entry: AuditEntryView): string | null {
  return entry.target?.label ?? targetName(entry);
}

/** The types whose current names the server looks up (server/src/modules/audit/log.ts): no name means gone. */
const NAMED_TYPES = new Set(['user', 'domain', 'tenant', 'invoice', 'promo', 'hosting_plan', 'tld_price', 'api_token', 'domain_user']);

/**
 * The object as the log names it: its name; for a type named by lookup and not found, "(deleted)";
 * for the others (orders, records), its number.
 */
export function objectLabel(entry: AuditEntryView, t: TFunction): { text: string; gone: boolean } {
  const name = objectName(entry);
  if (name !== null) return { text: name, gone: false };
  const target = entry.target;
  if (!target) return { text: '', gone: false };
  if (NAMED_TYPES.has(target.type)) return { text: t('audit.unnamed', { type: targetTypeLabel(target.type, t) }), gone: true };
  return { text: `#${target.id}`, gone: false };
}

/** Where the object's own page is, for the types that have one the reader may open. */
export function objectPath(entry: AuditEntryView): string | null {
  const target = entry.target;
  if (!target || target.label === null || target.label === undefined) return null;
  if (target.type === 'domain') return `/host/domain/${target.id}/edit`;
  if (target.type === 'user') return `/system/customers/${target.id}`;
  if (target.type === 'tenant') return `/system/tenants/${target.id}`;
  return null;
}

/**
 * One sentence for the entries people look for most (money), e.g. "€150.00 credited to Hana
 * Nováková (balance €155.00)"; null for the others, which list their details.
 */
export function entrySentence(entry: AuditEntryView, t: TFunction): string | null {
  const currency = typeof entry.data.currency === 'string' ? entry.data.currency : null;
  const amount = typeof entry.data.amount === 'number' ? entry.data.amount : null;
  if (currency === null || amount === null) return null;
  const name = objectName(entry) ?? '';
  if (entry.action === 'credit.adjusted') {
    const balance = typeof entry.data.balance === 'number' ? formatMoney(entry.data.balance, currency) : null;
    const key = amount >= 0 ? 'audit.sentence.credited' : 'audit.sentence.debited';
    const sentence = t(key, { amount: formatMoney(Math.abs(amount), currency), name });
    return balance === null ? sentence : `${sentence} ${t('audit.sentence.balance', { balance })}`;
  }
  if (entry.action === 'credit.top_up_requested') return t('audit.sentence.topUp', { amount: formatMoney(amount, currency) });
  if (entry.action.startsWith('invoice.paid') || entry.action === 'invoice.marked_paid')
    return t('audit.sentence.paid', { amount: formatMoney(amount, currency), number: String(entry.data.number ?? name) });
  return null;
}

/** The entry's other recorded details, "Label: value", in words; bare ids say nothing to people. */
export function entryDetails(entry: AuditEntryView, t: TFunction): string[] {
  const name = objectName(entry);
  const currency = typeof entry.data.currency === 'string' ? entry.data.currency : null;
  const sentence = entrySentence(entry, t);
  return Object.entries(entry.data)
    .filter(([key]) => !key.endsWith('_id') && key !== 'currency')
    .filter(([key]) => !(sentence && (key === 'amount' || key === 'balance' || key === 'number')))
    .filter(([, value]) => value !== null && value !== '' && typeof value !== 'object')
    .filter(([, value]) => String(value) !== name && String(value) !== targetName(entry))
    .map(([key, value]) => `${keyLabel(key, t)}: ${valueText(key, value as string | number | boolean, currency, t)}`);
}

/** A recorded value as people read it: money formatted, yes/no, codes and changed fields in words. */
function valueText(key: string, value: string | number | boolean, currency: string | null, t: TFunction): string {
  if (currency && MONEY_KEYS.has(key) && typeof value === 'number') return formatMoney(value, currency);
  if (typeof value === 'boolean' || value === 'true' || value === 'false')
    return t(value === true || value === 'true' ? 'audit.yes' : 'audit.no');
  if (typeof value === 'number') return String(value);
  // The fields an edit changed, each by its label ("Registration price, On sale").
  if (key === 'changed' || key === 'fields')
    return value
      .split(',')
      .filter(Boolean)
      .map((field) => keyLabel(field, t))
      .join(', ');
  return isCodedValue(value) ? t(`audit.values.${value}`) : value;
}
