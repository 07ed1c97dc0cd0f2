import { z } from 'zod';
import { DOMAIN_USER_QUOTA_MAX_MB, domainUserCreatePayloadSchema, domainUserPasswordResetPayloadSchema } from '@berth/contracts';
import { withNewPassword } from '../../../forms/validation.ts';
import { currentLanguage, i18n } from '../../../i18n/i18n.ts';
import { numberFormat } from '../../../components/intlFormats.ts';

export const QUOTA_DEFAULT_MB = 1024;
const MB_PER_GB = 1024;
const MB_PER_TB = 1024 * 1024;

/** 1 TB, 5 GB, 500 MB: the largest whole unit, in the UI language. */
export function formatQuota(mb: number): string {
  const [value, unit] =
    mb % MB_PER_TB === 0 ? [mb / MB_PER_TB, 'terabyte'] : mb % MB_PER_GB === 0 ? [mb / MB_PER_GB, 'gigabyte'] : [mb, 'megabyte'];
  return numberFormat(currentLanguage(), { style: 'unit', unit, unitDisplay: 'short' }).format(value);
}

const quotaRange = () => i18n.t('domainUsers.quota.range', { max: numberFormat(currentLanguage()).format(DOMAIN_USER_QUOTA_MAX_MB) });

/**
 * The contract's quota (whole MB, 1 MB to 1 TB) with the message in the UI language; an empty
 * number field holds NaN, which is "required" rather than a quota of 0.
 */
const quotaField = z
  .number({ error: (issue) => (Number.isNaN(issue.input) ? i18n.t('validation.required') : quotaRange()) })
  .int({ error: quotaRange })
  .min(1, { error: quotaRange })
  .max(DOMAIN_USER_QUOTA_MAX_MB, { error: quotaRange });

export const accountCreateSchema = withNewPassword(
  domainUserCreatePayloadSchema.extend({ quota_mb: quotaField, enabled: z.boolean() }),
  'password',
  'password_confirmation',
);
export type AccountCreateValues = z.input<typeof accountCreateSchema>;

export const passwordResetSchema = withNewPassword(domainUserPasswordResetPayloadSchema, 'password', 'password_confirmation');

export const quotaSchema = z.object({ quota_mb: quotaField });
