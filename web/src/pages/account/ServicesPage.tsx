import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Anchor, Badge, Button, Group, Progress, Stack, Switch, Text } from '@mantine/core';
import { IconArrowsExchange, IconCircleX, IconRefresh, IconServer, IconShoppingCart } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { PlanLimits } from '../shop/PlanLimits.tsx';
import type { PlanUsage, Subscription } from '@berth/contracts';
import { useCartAdd, useSubscriptionAutoRenew, useSubscriptionCancel, useSubscriptions } from '../../api/shop.ts';
import { describeError } from '../../forms/validation.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { NOTICE_TIMEOUT_MS, pushMessage } from '../../components/messageStore.ts';
import { formatDate } from '../../components/formatDate.ts';
import { EmptyState, LoadingRows } from '../../components/ListStates.tsx';
import { LoadFailed } from '../../components/LoadFailed.tsx';
import { usePageTitle } from '../../components/usePageTitle.ts';
import { PageHeader, Section } from '../PageHeader.tsx';
import { PlanChangeDialog } from './PlanChangeDialog.tsx';
import classes from '../Pages.module.css';
import accountClasses from './Account.module.css';

/** /account/services: the hosting plans bought in the shop, whether each runs, until when, and its price. */
export function ServicesPage() {
  const { t } = useTranslation();
  usePageTitle(t('services.title'));
  const services = useSubscriptions();
  const rows = services.data?.data ?? [];
  const allowance = services.data?.usage?.allowance;
  const [cancelling, setCancelling] = useState<Subscription | null>(null);
  const [changing, setChanging] = useState<Subscription | null>(null);
  const cancel = useSubscriptionCancel();

  return (
    <div className={classes.page}>
      <PageHeader
        title={t('services.title')}
        description={t('services.description')}
        actions={
          <Button component={Link} to="/shop" leftSection={<IconShoppingCart size={16} aria-hidden />}>
            {t('services.shop')}
          </Button>
        }
      />
      {allowance && services.data?.usage ? <UsageSection usage={services.data.usage} /> : null}
      <Section id="services" title={t('services.list')}>
        {services.isPending ? (
          <LoadingRows height={52} />
        ) : services.isError ? (
          <LoadFailed error={services.error} onRetry={() => void services.refetch()} />
        ) : rows.length === 0 ? (
          <EmptyState icon={<IconServer size={24} stroke={1.6} />} title={t('services.none')}>
            {t('services.noneHint')}
          </EmptyState>
        ) : (
          <table className={accountClasses.table} data-testid="services-list">
            <thead>
              <tr>
                <th scope="col">{t('services.columns.plan')}</th>
                <th scope="col">{t('services.columns.state')}</th>
                <th scope="col">{t('services.columns.period')}</th>
                <th scope="col">{t('services.columns.price')}</th>
                <th scope="col">{t('services.columns.actions')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((service) => (
                <ServiceRow key={service.id} service={service} onCancel={setCancelling} onChange={setChanging} />
              ))}
            </tbody>
          </table>
        )}
      </Section>
      <PlanChangeDialog
        service={changing}
        onClose={() => {
          setChanging(null);
        }}
      />
      <ConfirmDialog
        opened={cancelling !== null}
        title={t('services.cancel.title', { title: cancelling?.title ?? '' })}
        confirmLabel={t('services.cancel.confirm')}
        danger
        icon={<IconCircleX size={16} aria-hidden />}
        onClose={() => {
          setCancelling(null);
        }}
        onConfirm={async () => {
          if (!cancelling) return;
          const answer = await cancel.mutateAsync(cancelling.id);
          pushMessage({ type: 'notice', data: answer.message, timeout: NOTICE_TIMEOUT_MS });
        }}
      >
        {t('services.cancel.body', { date: cancelling ? formatDate(cancelling.expires_at) : '' })}
      </ConfirmDialog>
    </div>
  );
}

function ServiceRow({
  service,
  onCancel,
  onChange,
}: {
  service: Subscription;
  onCancel: (service: Subscription) => void;
  onChange: (service: Subscription) => void;
}) {
  const { t } = useTranslation();
  // The server decides by its clock; an older server's answer without it counts as active.
  const active = service.active ?? true;
  return (
    <tr data-testid="service-row">
      <td data-label={t('services.columns.plan')}>
        <Text fw={600} fz="sm">
          {service.title}
        </Text>
        {service.plan?.description ? (
          <Text fz="xs" c="dimmed">
            {service.plan.description}
          </Text>
        ) : null}
        {service.plan ? <PlanLimits plan={service.plan} size="xs" /> : null}
      </td>
      <td data-label={t('services.columns.state')}>
        <Badge variant="light" color={active ? 'green' : 'gray'} radius="sm" miw="max-content">
          {active ? t('services.active') : t('services.expired')}
        </Badge>
      </td>
      <td data-label={t('services.columns.period')}>
        {/* One block, so that the phone's label-and-value row keeps it together. */}
        <div>
          <Text fz="sm">{t('services.since', { date: formatDate(service.starts_at) })}</Text>
          <Text fz="sm" c={active ? undefined : 'dimmed'}>
            {active
              ? t('services.renews', { date: formatDate(service.expires_at) })
              : t('services.ended', { date: formatDate(service.expires_at) })}
          </Text>
          {active && service.plan_id !== null ? <AutoRenew service={service} /> : null}
          {service.renewal_invoice ? <RenewalInvoice invoice={service.renewal_invoice} /> : null}
        </div>
      </td>
      <td data-label={t('services.columns.price')}>
        {service.plan ? (
          <Group gap={4} wrap="wrap">
            <Text fz="sm">{t('services.perMonth', { price: service.plan.monthly.gross.formatted })}</Text>
            <Text fz="xs" c="dimmed">
              {t('services.perYear', { price: service.plan.yearly.gross.formatted })}
            </Text>
          </Group>
        ) : (
          <Text fz="sm" c="dimmed">
            {t('services.noLongerSold')}
          </Text>
        )}
      </td>
      <td data-label={t('services.columns.actions')}>
        {active ? (
          <Group gap="xs" wrap="wrap">
            {service.plan ? <RenewButton service={service} /> : null}
            <Button
              variant="light"
              size="xs"
              leftSection={<IconArrowsExchange size={14} aria-hidden />}
              aria-label={t('services.change.button', { title: service.title })}
              onClick={() => {
                onChange(service);
              }}
            >
              {t('services.change.short')}
            </Button>
            <Button
              variant="default"
              size="xs"
              leftSection={<IconCircleX size={14} aria-hidden />}
              aria-label={t('services.cancel.button', { title: service.title })}
              onClick={() => {
                onCancel(service);
              }}
            >
              {t('services.cancel.short')}
            </Button>
          </Group>
        ) : null}
      </td>
    </tr>
  );
}

/** The owner's switch for the plan's automatic renewal (modules/billing renews it before it ends). */
function AutoRenew({ service }: { service: Subscription }) {
  const { t } = useTranslation();
  const update = useSubscriptionAutoRenew();
  const on = service.auto_renew ?? true;
  return (
    <Stack gap={2} mt={6}>
      <Switch
        size="sm"
        checked={on}
        disabled={update.isPending}
        label={t('services.autoRenew.label')}
        aria-label={t('services.autoRenew.aria', { title: service.title })}
        onChange={(event) => {
          update.mutate(
            { id: service.id, auto_renew: event.currentTarget.checked },
            { onSuccess: (answer) => pushMessage({ type: 'notice', data: answer.message, timeout: NOTICE_TIMEOUT_MS }) },
          );
        }}
      />
      {on ? (
        <Text fz="xs" c="dimmed">
          {t('services.autoRenew.hint')}
        </Text>
      ) : null}
      {update.isError ? (
        <Text fz="xs" c="red.8">
          {describeError(update.error, t)}
        </Text>
      ) : null}
    </Stack>
  );
}

/** The plan's renewal invoice while it waits to be paid, with the way to pay it. */
function RenewalInvoice({ invoice }: { invoice: NonNullable<Subscription['renewal_invoice']> }) {
  const { t } = useTranslation();
  return (
    <Text fz="xs" mt={6} c="orange.9" data-testid="renewal-invoice">
      {invoice.due_at
        ? t('services.renewalInvoice.due', { number: invoice.number, amount: invoice.amount, date: formatDate(invoice.due_at) })
        : t('services.renewalInvoice.waiting', { number: invoice.number, amount: invoice.amount })}{' '}
      <Anchor component={Link} to={`/account/invoices/${invoice.id}`} fz="xs" fw={600}>
        {t('services.renewalInvoice.pay')}
      </Anchor>
    </Text>
  );
}

/** Renews the plan for a year by hand: the renewal goes into the cart, and the cart opens. */
function RenewButton({ service }: { service: Subscription }) {
  const { t } = useTranslation();
  const add = useCartAdd();
  const navigate = useNavigate();
  return (
    <Button
      variant="light"
      size="xs"
      leftSection={<IconRefresh size={14} aria-hidden />}
      aria-label={t('services.renew.button', { title: service.title })}
      loading={add.isPending}
      onClick={() => {
        if (service.plan_id === null) return;
        add.mutate(
          { kind: 'hosting', plan_id: service.plan_id, period_months: 12, subscription_id: service.id },
          {
            onSuccess: () => void navigate('/shop/cart'),
            onError: (error) => pushMessage({ type: 'error', data: describeError(error, t), timeout: NOTICE_TIMEOUT_MS }),
          },
        );
      }}
    >
      {t('services.renew.short')}
    </Button>
  );
}

/** What the active plans include together against what is in use: domains, mailboxes, disk space. */
function UsageSection({ usage }: { usage: PlanUsage }) {
  const { t } = useTranslation();
  const allowance = usage.allowance;
  if (!allowance) return null;
  const rows = [
    { key: 'domains', used: usage.used.domains, max: allowance.domains, unit: '' },
    { key: 'mailboxes', used: usage.used.mailboxes, max: allowance.mailboxes, unit: '' },
    { key: 'disk', used: usage.used.disk_mb, max: allowance.disk_mb, unit: ' MB' },
  ] as const;
  return (
    <Section
      id="plan-usage"
      title={t('services.usage.title')}
      description={allowance.active ? t('services.usage.hint') : t('services.usage.expired')}
    >
      <Stack gap="md" data-testid="plan-usage">
        {rows.map((row) => {
          const label = t(`services.usage.${row.key}`);
          const amount =
            row.max === null
              ? t('services.usage.ofUnlimited', { used: `${row.used}${row.unit}` })
              : t('services.usage.of', { used: `${row.used}${row.unit}`, max: `${row.max}${row.unit}` });
          const percent = row.max === null || row.max === 0 ? (row.max === 0 ? 100 : 0) : Math.min(100, (row.used / row.max) * 100);
          return (
            <div key={row.key}>
              <Group justify="space-between" gap="xs" mb={4}>
                <Text fz="sm" fw={600}>
                  {label}
                </Text>
                <Text fz="sm" data-testid={`usage-${row.key}`}>
                  {amount}
                </Text>
              </Group>
              <Progress
                value={percent}
                color={percent >= 100 ? 'orange' : 'blue'}
                aria-label={`${label}: ${amount}`}
                size="sm"
                radius="xl"
              />
            </div>
          );
        })}
      </Stack>
    </Section>
  );
}
