import { Badge, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../../../i18n/i18n.ts';
import { daysLeft, expiryState } from './expiry.ts';
import classes from './Domains.module.css';
import { dateTimeFormat } from '../../../components/intlFormats.ts';

/**
 * An expiry as a date, e.g. "1 Mar 2027". Admins enter expiries as dates, stored as midnight UTC,
 * so they are shown in UTC: the day typed is the day shown, in every time zone.
 */
function formatExpiry(iso: string): string {
  return dateTimeFormat(currentLanguage(), { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(iso));
}

interface DomainExpiryProps {
  domain: { expire_at: string | null; expired: boolean };
}

/** The expiry date with an "Expired" badge, or a hint in the last 30 days; "No expiry" without one. */
export function DomainExpiry({ domain }: DomainExpiryProps) {
  const { t } = useTranslation();
  const state = expiryState(domain);
  if (domain.expire_at === null) {
    return (
      <Text component="span" fz="sm" c="dimmed">
        {t('domains.expiry.none')}
      </Text>
    );
  }
  return (
    <span className={classes.expiry}>
      <time dateTime={domain.expire_at}>{formatExpiry(domain.expire_at)}</time>
      {state === 'expired' ? (
        <Badge color="red" variant="light" radius="sm" size="sm" className={classes.badge} data-testid="domain-expired">
          {t('domains.expiry.expired')}
        </Badge>
      ) : state === 'soon' ? (
        <Badge color="orange" variant="light" radius="sm" size="sm" className={classes.badge} data-testid="domain-expires-soon">
          {t('domains.expiry.soon', { count: daysLeft(domain.expire_at) })}
        </Badge>
      ) : null}
    </span>
  );
}
