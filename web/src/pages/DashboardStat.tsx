import { Link } from 'react-router';
import { Skeleton } from '@mantine/core';
import type { Icon } from '@tabler/icons-react';
import { currentLanguage } from '../i18n/i18n.ts';
import dashboard from './DashboardPage.module.css';
import { numberFormat } from '../components/intlFormats.ts';

interface StatProps {
  to: string;
  icon: Icon;
  label: string;
  /** Undefined while loading: a skeleton in its place. */
  value: number | undefined;
  /** The value as it is to be read (an amount of money), instead of the number formatted. */
  display?: string | undefined;
  /** A second line under the label, e.g. what to do about the number. */
  hint?: string | undefined;
  /** The card has a hint once loaded: a placeholder holds its line while loading (no layout shift). */
  withHint?: boolean;
  /** `warning` and `danger` colour the card when the number needs attention. */
  tone?: 'neutral' | 'warning' | 'danger';
}

/** One number of the dashboard, leading to the page where it can be acted on. */
export function DashboardStat({ to, icon: StatIcon, label, value, display, hint, withHint = false, tone = 'neutral' }: StatProps) {
  return (
    <li className={dashboard.statItem}>
      <Link to={to} className={dashboard.stat} data-tone={tone}>
        <span className={dashboard.statTop}>
          <span className={dashboard.statLabel}>{label}</span>
          <span className={dashboard.statIcon} aria-hidden>
            <StatIcon size={18} stroke={1.8} />
          </span>
        </span>
        {value === undefined ? (
          <Skeleton width={56} radius="sm" className={dashboard.statSkeleton} />
        ) : (
          <span className={dashboard.statValue}>{display ?? numberFormat(currentLanguage()).format(value)}</span>
        )}
        {hint ? (
          <span className={dashboard.statHint}>{hint}</span>
        ) : withHint && value === undefined ? (
          <Skeleton height={12} width="70%" radius="sm" className={dashboard.statHintSkeleton} />
        ) : null}
      </Link>
    </li>
  );
}
