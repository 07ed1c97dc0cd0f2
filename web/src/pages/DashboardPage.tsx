import { Link } from 'react-router';
import { Anchor, Badge, Button, Skeleton, Stack, Text, ThemeIcon } from '@mantine/core';
import {
  IconAlertTriangle,
  IconBell,
  IconCalendarDue,
  IconCircleCheck,
  IconClockExclamation,
  IconMailbox,
  IconShieldLock,
  IconShoppingCart,
  IconUserCircle,
  IconUsers,
  IconWallet,
  IconWorld,
} from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { Dashboard, DomainListItem } from '@berth/contracts';
import { useDashboard } from '../api/dashboard.ts';
import { usePayInvoiceFromCredit } from '../api/invoices.ts';
import { formatDate } from '../components/formatDate.ts';
import { currentLanguage } from '../i18n/i18n.ts';
import { usePageTitle } from '../components/usePageTitle.ts';
import { FormAlert } from '../forms/FormAlert.tsx';
import { describeError } from '../forms/validation.ts';
import { displayName } from '../shell/UserMenu.tsx';
import { useSignedInUser } from '../shell/useSignedInUser.ts';
import { PageHeader, Section } from './PageHeader.tsx';
import { DashboardShortcut } from './DashboardShortcut.tsx';
import { DashboardStat } from './DashboardStat.tsx';
import classes from './Pages.module.css';
import dashboard from './DashboardPage.module.css';
import { relativeTimeFormat } from '../components/intlFormats.ts';

/**
 * /dashboard: the numbers a user looks at first (their own for customers, the tenant's or every
 * tenant's for admins), the domains expiring next, shortcuts and the account at a glance.
 */
export function DashboardPage() {
  const { t } = useTranslation();
  const { user } = useSignedInUser();
  const name = displayName(user);
  const numbers = useDashboard();
  usePageTitle(t('shell.welcome', { name }));
  const admin = user.role !== 'customer';

  return (
    <div className={classes.page}>
      <PageHeader
        title={t('shell.welcome', { name })}
        description={admin ? t(user.role === 'super_admin' ? 'dashboard.introAll' : 'dashboard.introTenant') : t('dashboard.introOwn')}
      />

      {numbers.isError ? (
        <FormAlert kind="error">
          <Stack gap="xs" align="flex-start">
            <span>{describeError(numbers.error, t)}</span>
            <Button size="xs" variant="default" onClick={() => void numbers.refetch()}>
              {t('app.tryAgain')}
            </Button>
          </Stack>
        </FormAlert>
      ) : null}

      {numbers.data ? <BillingAlert billing={numbers.data.billing} /> : null}

      <section aria-labelledby="numbers-heading" aria-busy={numbers.isPending || undefined}>
        <h2 id="numbers-heading" className={dashboard.visuallyHidden}>
          {t('dashboard.numbers')}
        </h2>
        <Stats data={numbers.data} admin={admin} />
      </section>

      <ExpiringSoon data={numbers.data} loading={numbers.isPending} admin={admin} />

      <div className={dashboard.cards}>
        <DashboardShortcut to="/host/domain" icon={IconWorld} title={t('dashboard.domains')} text={t('dashboard.domainsText')} />
        <DashboardShortcut to="/shop" icon={IconShoppingCart} title={t('dashboard.shop')} text={t('dashboard.shopText')} />
        <DashboardShortcut
          to="/account/2fa"
          icon={IconShieldLock}
          title={t('dashboard.security')}
          text={user.google2fa_enabled ? t('dashboard.twoFactorOnText') : t('dashboard.twoFactorOffText')}
          aside={
            <Badge size="sm" radius="sm" variant="light" color={user.google2fa_enabled ? 'green' : 'orange'} className={classes.badge}>
              {user.google2fa_enabled ? t('dashboard.twoFactorBadgeOn') : t('dashboard.twoFactorBadgeOff')}
            </Badge>
          }
        />
        <DashboardShortcut to="/account" icon={IconUserCircle} title={t('dashboard.account')} text={t('dashboard.accountText')} />
      </div>

      <Section id="you" title={t('dashboard.atAGlance')}>
        <dl className={classes.facts}>
          <div className={classes.fact}>
            <dt>{t('shell.account')}</dt>
            <dd>{user.email}</dd>
          </div>
          <div className={classes.fact}>
            <dt>{t('shell.role')}</dt>
            <dd>{t(`roles.${user.role}`)}</dd>
          </div>
          <div className={classes.fact}>
            <dt>{t('shell.twoFactor')}</dt>
            <dd>{user.google2fa_enabled ? t('shell.twoFactorOn') : t('shell.twoFactorOff')}</dd>
          </div>
        </dl>
      </Section>
    </div>
  );
}

/**
 * A suspension for non-payment, or renewals waiting to be paid: what to pay, and paying it from the
 * credit in one press (modules/billing on the server).
 */
function BillingAlert({ billing }: { billing: Dashboard['billing'] }) {
  const { t } = useTranslation();
  const pay = usePayInvoiceFromCredit();
  if (!billing.suspended_at && billing.unpaid.length === 0) return null;
  return (
    <FormAlert kind={billing.suspended_at ? 'error' : 'info'}>
      <Stack gap="xs" align="flex-start">
        {/* Not the alert's title: Mantine's tinted title falls short of 4.5:1 on the info tint. */}
        <Text fw={700} fz="sm">
          {billing.suspended_at ? t('dashboard.billing.suspendedTitle') : t('dashboard.billing.unpaidTitle')}
        </Text>
        <span>{billing.suspended_at ? t('dashboard.billing.suspendedText') : t('dashboard.billing.unpaidText')}</span>
        <ul className={dashboard.billingList}>
          {billing.unpaid.map((invoice) => (
            <li key={invoice.id} className={dashboard.billingRow}>
              <Anchor component={Link} to={`/account/invoices/${invoice.id}`} fw={600} fz="sm">
                {t('dashboard.billing.invoice', { number: invoice.number })}
              </Anchor>
              <Text component="span" fz="sm">
                {t('dashboard.billing.due', { amount: invoice.amount, date: formatDate(invoice.due_at) })}
              </Text>
              <Button size="xs" loading={pay.isPending && pay.variables === invoice.id} onClick={() => pay.mutate(invoice.id)}>
                {t('dashboard.billing.payFromCredit')}
              </Button>
            </li>
          ))}
        </ul>
        {pay.isError ? (
          <Text fz="sm" c="red.8">
            {describeError(pay.error, t)}
          </Text>
        ) : null}
      </Stack>
    </FormAlert>
  );
}

/** The stat cards: admins first see the tenant's totals, customers their own domains. */
function Stats({ data, admin }: { data: Dashboard | undefined; admin: boolean }) {
  const { t } = useTranslation();
  const expiring = data?.domains_expiring_30d;
  const expired = data?.domains_expired;
  const unread = data?.notifications_unread;
  const withCredit = data?.credit !== null;
  // The grid lays the cards out by their number, so none sits alone on a row (DashboardPage.module.css).
  const count = (admin ? 1 : 0) + 6 + (withCredit ? 1 : 0);
  return (
    <ul className={dashboard.stats} data-count={count}>
      {admin ? (
        <DashboardStat to="/system/customers" icon={IconUsers} label={t('dashboard.stat.customers')} value={data?.customers ?? undefined} />
      ) : null}
      <DashboardStat to="/host/domain" icon={IconWorld} label={t('dashboard.stat.domains')} value={data?.domains} />
      <DashboardStat
        to="/host/domain?sort=expire_at"
        icon={IconCalendarDue}
        label={t('dashboard.stat.expiring')}
        value={expiring}
        tone={expiring ? 'warning' : 'neutral'}
        withHint
        hint={expiring === undefined ? undefined : expiring ? t('dashboard.stat.expiringHint') : t('dashboard.stat.expiringNone')}
      />
      {/* Always there, also at zero: a card that came with the numbers would move the others. */}
      <DashboardStat
        to="/host/domain?sort=expire_at"
        icon={IconClockExclamation}
        label={t('dashboard.stat.expired')}
        value={expired}
        tone={expired ? 'danger' : 'neutral'}
      />
      <DashboardStat to="/host/domain" icon={IconMailbox} label={t('dashboard.stat.domainUsers')} value={data?.domain_users} />
      <DashboardStat to="/shop/cart" icon={IconShoppingCart} label={t('dashboard.stat.cart')} value={data?.cart_items} />
      {withCredit ? (
        <DashboardStat
          to="/system/partner/credit"
          icon={IconWallet}
          label={t('dashboard.stat.credit')}
          value={data?.credit?.amount}
          display={data?.credit?.formatted}
        />
      ) : null}
      <DashboardStat
        to="/notifications"
        icon={IconBell}
        label={t('dashboard.stat.notifications')}
        value={unread}
        tone={unread ? 'warning' : 'neutral'}
        withHint
        hint={unread === undefined ? undefined : unread ? t('dashboard.stat.notificationsHint') : t('dashboard.stat.notificationsNone')}
      />
    </ul>
  );
}

/** The next domains to expire within 30 days, soonest first (the server sends a few). */
function ExpiringSoon({ data, loading, admin }: { data: Dashboard | undefined; loading: boolean; admin: boolean }) {
  const { t } = useTranslation();
  const domains = data?.expiring_soon ?? [];
  return (
    <Section
      id="expiring"
      title={t('dashboard.expiring.title')}
      description={t('dashboard.expiring.description')}
      aside={
        data && data.domains_expiring_30d > domains.length ? (
          <Anchor component={Link} to="/host/domain?sort=expire_at" fz="sm" fw={600}>
            {t('dashboard.expiring.all', { count: data.domains_expiring_30d })}
          </Anchor>
        ) : null
      }
    >
      {loading ? (
        <Stack gap="sm" aria-busy="true">
          <Skeleton height={44} radius="md" />
          <Skeleton height={44} radius="md" />
        </Stack>
      ) : domains.length === 0 ? (
        <div className={dashboard.allClear}>
          <ThemeIcon size={40} radius="xl" variant="light" color="green" aria-hidden>
            <IconCircleCheck size={22} stroke={1.7} />
          </ThemeIcon>
          <Text fz="sm">{t('dashboard.expiring.none')}</Text>
        </div>
      ) : (
        <ul className={dashboard.expiringList}>
          {domains.map((domain) => (
            <ExpiringRow key={domain.id} domain={domain} admin={admin} />
          ))}
        </ul>
      )}
    </Section>
  );
}

const DAY = 24 * 60 * 60 * 1000;

/** "tomorrow", "in 3 days" (in the UI language): an expiry is a matter of days. */
function inDays(iso: string): string {
  const days = Math.max(0, Math.ceil((new Date(iso).getTime() - Date.now()) / DAY));
  return relativeTimeFormat(currentLanguage(), { numeric: 'auto' }).format(days, 'day');
}

function ExpiringRow({ domain, admin }: { domain: DomainListItem; admin: boolean }) {
  const { t } = useTranslation();
  const expireAt = domain.expire_at ?? '';
  return (
    <li className={dashboard.expiringRow}>
      <IconAlertTriangle size={18} aria-hidden className={dashboard.expiringIcon} />
      <span className={dashboard.expiringName}>
        <Anchor component={Link} to={`/host/domain/${domain.id}/edit`} fw={600} fz="sm">
          {domain.text}
        </Anchor>
        {admin ? (
          <Text component="span" fz="xs" c="dimmed" className={dashboard.expiringOwner}>
            {domain.owner.display_name || domain.owner.email}
          </Text>
        ) : null}
      </span>
      <Text component="span" fz="sm" className={dashboard.expiringDate}>
        <time dateTime={expireAt} title={formatDate(expireAt)}>
          {t('dashboard.expiring.on', { date: formatDate(expireAt), relative: inDays(expireAt) })}
        </time>
      </Text>
      {admin ? null : (
        <Button component={Link} to={`/host/domain/${domain.id}/renew`} size="xs" variant="light" className={dashboard.expiringAction}>
          {t('dashboard.expiring.renew')}
        </Button>
      )}
    </li>
  );
}
