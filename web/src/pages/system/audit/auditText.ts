import type { TFunction } from 'i18next';
import type { AuditEntryView } from '@berth/contracts';

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
    'user.2fa_enabled',
    'user.2fa_disabled',
    'user.recovery_codes_regenerated',
    'user.session_revoked',
  ],
  customer: ['customer.created', 'customer.updated', 'customer.locked', 'customer.unlocked', 'customer.2fa_reset', 'customer.deleted'],
  domain: ['domain.created', 'domain.updated', 'domain.deleted'],
  domain_user: [
    'domain_user.created',
    'domain_user.updated',
    'domain_user.password_reset',
    'domain_user.deleted',
    'domain_user.password_changed',
    'domain_user.password_change_failed',
  ],
  mail_alias: ['mail_alias.created', 'mail_alias.deleted'],
  api_token: ['api_token.created', 'api_token.revoked'],
  dns: ['dns.record_created', 'dns.record_updated', 'dns.record_deleted', 'dns.dnssec_signed', 'dns.dnssec_unsigned', 'dns.dkim_published'],
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
  invoice: ['invoice.paid', 'invoice.marked_paid', 'invoice.paid_by_statement', 'invoice.paid_by_stripe'],
  payments: ['payments.bank_statement_imported'],
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

/** The entry's other recorded details, `key: value`, for the object column; bare ids say nothing to people. */
export function entryDetails(entry: AuditEntryView): string[] {
  const name = targetName(entry);
  return Object.entries(entry.data)
    .filter(([key]) => !key.endsWith('_id'))
    .filter(([, value]) => value !== null && value !== '' && typeof value !== 'object')
    .filter(([, value]) => String(value) !== name)
    .map(([key, value]) => `${key}: ${String(value as string | number | boolean)}`);
}
