import { useRef, useState } from 'react';
import { Link } from 'react-router';
import { Anchor, Radio, SegmentedControl, Stack, Text } from '@mantine/core';
import { IconArrowsExchange } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { HostingPlan, Subscription } from '@berth/contracts';
import { useCatalogue, useSubscriptionChange } from '../../api/shop.ts';
import { AppModal } from '../../components/AppModal.tsx';
import { DialogActions } from '../../components/DialogActions.tsx';
import { LoadingRows } from '../../components/ListStates.tsx';
import { LoadFailed } from '../../components/LoadFailed.tsx';
import { NOTICE_TIMEOUT_MS, pushMessage } from '../../components/messageStore.ts';
import { FormAlert } from '../../forms/FormAlert.tsx';
import { describeError } from '../../forms/validation.ts';
import { PlanLimits } from '../shop/PlanLimits.tsx';
import accountClasses from './Account.module.css';

interface PlanChangeDialogProps {
  /** The active plan to change; null closes the dialog. */
  service: Subscription | null;
  onClose: () => void;
}

/**
 * Upgrade or downgrade in one step (POST /api/shop/subscriptions/{id}/change): the current plan
 * ends now, its unused days go to the credit, and the credit pays the chosen plan.
 */
export function PlanChangeDialog({ service, onClose }: PlanChangeDialogProps) {
  const { t } = useTranslation();
  return (
    <AppModal opened={service !== null} onClose={onClose} size="lg" title={t('services.change.title', { title: service?.title ?? '' })}>
      {service ? <PlanChoice key={service.id} service={service} onClose={onClose} /> : null}
    </AppModal>
  );
}

function PlanChoice({ service, onClose }: { service: Subscription; onClose: () => void }) {
  const { t } = useTranslation();
  const catalogue = useCatalogue();
  const change = useSubscriptionChange();
  const [planId, setPlanId] = useState<string | null>(null);
  const [months, setMonths] = useState<'1' | '12'>('12');
  // One key per attempt: a double click or a retry after a lost answer orders once.
  const attemptKey = useRef<string | null>(null);
  const plans = (catalogue.data?.plans ?? []).filter((plan) => plan.active && plan.id !== service.plan_id);

  if (catalogue.isPending) return <LoadingRows height={64} />;
  if (catalogue.isError) return <LoadFailed error={catalogue.error} onRetry={() => void catalogue.refetch()} />;

  const submit = async () => {
    if (!planId) return;
    attemptKey.current ??= crypto.randomUUID();
    try {
      const answer = await change.mutateAsync({
        id: service.id,
        payload: { plan_id: Number(planId), period_months: Number(months), idempotency_key: attemptKey.current },
      });
      pushMessage({ type: 'notice', data: answer.message ?? t('services.change.done'), timeout: NOTICE_TIMEOUT_MS });
      onClose();
    } catch {
      // Shown below; the next attempt is a new order.
      attemptKey.current = null;
    }
  };

  const priceOf = (plan: HostingPlan) =>
    months === '12'
      ? t('services.change.priceYear', { price: plan.yearly.gross.formatted })
      : t('services.change.priceMonth', { price: plan.monthly.gross.formatted });

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
      noValidate
    >
      <Stack gap="md">
        <Text fz="sm" c="dimmed">
          {t('services.change.intro', { title: service.title })}
        </Text>
        {change.isError ? (
          <FormAlert kind="error">
            <Stack gap={4} align="flex-start">
              <span>{describeError(change.error, t)}</span>
              <Anchor component={Link} to="/system/partner/credit" fz="sm" fw={600}>
                {t('services.change.addCredit')}
              </Anchor>
            </Stack>
          </FormAlert>
        ) : null}
        {plans.length === 0 ? (
          <Text fz="sm">{t('services.change.none')}</Text>
        ) : (
          <>
            <SegmentedControl
              value={months}
              onChange={(value) => {
                setMonths(value === '1' ? '1' : '12');
              }}
              data={[
                { value: '12', label: t('services.change.yearly') },
                { value: '1', label: t('services.change.monthly') },
              ]}
              aria-label={t('services.change.period')}
            />
            <Radio.Group value={planId} onChange={setPlanId} label={t('services.change.plan')} required>
              <Stack gap="xs" mt="xs">
                {plans.map((plan) => (
                  <Radio.Card key={plan.id} value={String(plan.id)} radius="md" className={accountClasses.planCard}>
                    <div className={accountClasses.planCardBody}>
                      <Radio.Indicator />
                      <div>
                        <Text fw={600} fz="sm">
                          {plan.title}
                        </Text>
                        <Text fz="sm">{priceOf(plan)}</Text>
                        <PlanLimits plan={plan} size="xs" />
                      </div>
                    </div>
                  </Radio.Card>
                ))}
              </Stack>
            </Radio.Group>
          </>
        )}
        <DialogActions
          submitLabel={t('services.change.submit')}
          icon={<IconArrowsExchange size={16} aria-hidden />}
          busy={change.isPending}
          disabled={planId === null}
          onCancel={onClose}
        />
      </Stack>
    </form>
  );
}
