import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useSearchParams } from 'react-router';
import { Badge, Button, Checkbox, Group, Skeleton, Stack, Text, TextInput, ThemeIcon } from '@mantine/core';
import { IconBuildingBank, IconCreditCard, IconStar, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { CARD_SETUP_QUERY_PARAM, formatIban, paymentMethodPayloadSchema, type PaymentMethod } from '@berth/contracts';
import { type z } from 'zod';
import {
  useCardSetupComplete,
  useCardSetupStart,
  usePaymentMethodAdd,
  usePaymentMethodDefault,
  usePaymentMethodRemove,
  usePaymentMethods,
} from '../../api/payments.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { usePageTitle } from '../../components/usePageTitle.ts';
import { FormAlert } from '../../forms/FormAlert.tsx';
import { describeError, formErrorOf, useSchemaResolver } from '../../forms/validation.ts';
import { translateServerText } from '../../i18n/i18n.ts';
import { PageHeader, Section } from '../PageHeader.tsx';
import classes from '../Pages.module.css';
import accountClasses from '../account/Account.module.css';
import { LoadFailed } from '../../components/LoadFailed.tsx';

/**
 * Back from Stripe's card setup page (`?card_setup=<session id>`): saves the card once, then drops
 * the parameter so a reload or the back button does not send it again.
 */
function useCardSetupReturn() {
  const [params, setParams] = useSearchParams();
  const complete = useCardSetupComplete();
  const sent = useRef<string | null>(null);
  const sessionId = params.get(CARD_SETUP_QUERY_PARAM);
  const { mutate } = complete;
  useEffect(() => {
    if (!sessionId || sent.current === sessionId) return;
    sent.current = sessionId;
    mutate(sessionId);
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete(CARD_SETUP_QUERY_PARAM);
        return next;
      },
      { replace: true },
    );
  }, [sessionId, mutate, setParams]);
  return complete;
}

/** /account/payment-methods: saved ways to pay; add a bank account or a card, choose the default, remove. */
export function PaymentMethodsPage() {
  const { t } = useTranslation();
  usePageTitle(t('payments.methods.title'));
  const methods = usePaymentMethods();
  const cardSetup = useCardSetupReturn();
  const makeDefault = usePaymentMethodDefault();
  const remove = usePaymentMethodRemove();
  const [removing, setRemoving] = useState<PaymentMethod | null>(null);
  const done = makeDefault.data?.message ?? remove.data?.message;
  const failed = makeDefault.error ?? null;

  return (
    <div className={classes.page}>
      <PageHeader title={t('payments.methods.title')} description={t('payments.methods.description')} />
      {methods.isError && methods.error.status === 403 ? (
        <FormAlert kind="info">{t('payments.methods.notOffered')}</FormAlert>
      ) : (
        <>
          <Section id="saved-methods" title={t('payments.methods.saved')}>
            {cardSetup.isPending ? <FormAlert kind="info">{t('payments.methods.cardSaving')}</FormAlert> : null}
            {cardSetup.isSuccess ? (
              <FormAlert kind="success" onClose={() => cardSetup.reset()}>
                {translateServerText(cardSetup.data.message ?? t('payments.methods.cardAdded'))}
              </FormAlert>
            ) : null}
            {cardSetup.isError ? (
              <FormAlert kind="error" onClose={() => cardSetup.reset()}>
                {describeError(cardSetup.error, t)}
              </FormAlert>
            ) : null}
            {done ? (
              <FormAlert
                kind="success"
                onClose={() => {
                  makeDefault.reset();
                  remove.reset();
                }}
              >
                {translateServerText(done)}
              </FormAlert>
            ) : null}
            {failed ? (
              <FormAlert kind="error" onClose={() => makeDefault.reset()}>
                {describeError(failed, t)}
              </FormAlert>
            ) : null}
            {methods.isPending ? (
              <Stack gap="sm" aria-busy="true">
                <Skeleton height={56} radius="md" />
              </Stack>
            ) : methods.isError ? (
              <LoadFailed error={methods.error} onRetry={() => void methods.refetch()} />
            ) : methods.data.data.length === 0 ? (
              <Text c="dimmed" fz="sm" ta="center" py="md">
                {t('payments.methods.none')}
              </Text>
            ) : (
              <table className={accountClasses.table} data-testid="payment-methods">
                <thead>
                  <tr>
                    <th scope="col">{t('payments.methods.method')}</th>
                    <th scope="col">{t('payments.methods.details')}</th>
                    <th scope="col">
                      <span className={accountClasses.visuallyHidden}>{t('payments.methods.actions')}</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {methods.data.data.map((method) => (
                    <tr key={method.id} data-testid="payment-method" data-current={method.is_default || undefined}>
                      <td>
                        <Group gap="sm" wrap="nowrap">
                          <ThemeIcon variant="light" radius="md" aria-hidden>
                            {method.kind === 'card' ? <IconCreditCard size={18} /> : <IconBuildingBank size={18} />}
                          </ThemeIcon>
                          <div>
                            <Text fw={600} fz="sm" className={accountClasses.breakable}>
                              {method.kind === 'card' ? `${method.brand} •••• ${method.last4}` : method.account_name}
                            </Text>
                            {method.is_default ? (
                              <Badge color="green" variant="light" radius="sm" size="sm" className={accountClasses.currentBadge}>
                                {t('payments.methods.default')}
                              </Badge>
                            ) : null}
                          </div>
                        </Group>
                      </td>
                      <td data-label={t('payments.methods.details')}>
                        <span className={accountClasses.mono}>
                          {method.kind === 'card'
                            ? t('payments.methods.expires', { month: String(method.exp_month).padStart(2, '0'), year: method.exp_year })
                            : `${formatIban(method.iban)}${method.bic ? ` · ${method.bic}` : ''}`}
                        </span>
                      </td>
                      <td className={accountClasses.actionCell}>
                        <Group gap="xs" justify="flex-end" wrap="nowrap">
                          {method.is_default ? null : (
                            <Button
                              size="xs"
                              variant="default"
                              leftSection={<IconStar size={14} aria-hidden />}
                              loading={makeDefault.isPending && makeDefault.variables === method.id}
                              onClick={() => {
                                makeDefault.mutate(method.id);
                              }}
                            >
                              {t('payments.methods.makeDefault')}
                            </Button>
                          )}
                          <Button
                            size="xs"
                            variant="default"
                            color="red"
                            leftSection={<IconTrash size={14} aria-hidden />}
                            onClick={() => {
                              remove.reset();
                              setRemoving(method);
                            }}
                          >
                            {t('payments.methods.remove')}
                          </Button>
                        </Group>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </Section>
          {methods.data?.available_kinds.includes('card') ? <AddCard /> : null}
          <AddBankAccount />
        </>
      )}
      <ConfirmDialog
        opened={removing !== null}
        title={t('payments.methods.removeTitle')}
        confirmLabel={t('payments.methods.remove')}
        danger
        loading={remove.isPending}
        error={remove.isError ? describeError(remove.error, t) : null}
        onClose={() => {
          setRemoving(null);
        }}
        onConfirm={() => {
          if (!removing) return;
          remove.mutate(removing.id, {
            onSuccess: () => {
              setRemoving(null);
            },
          });
        }}
      >
        {t('payments.methods.removeBody', {
          name: removing ? (removing.kind === 'card' ? `${removing.brand} •••• ${removing.last4}` : formatIban(removing.iban)) : '',
        })}
      </ConfirmDialog>
    </div>
  );
}

/** Cards are entered on Stripe's own page (Stripe.js cannot run here); Stripe sends the browser back. */
function AddCard() {
  const { t } = useTranslation();
  const start = useCardSetupStart();
  const [leaving, setLeaving] = useState(false);
  return (
    <Section id="add-card" title={t('payments.methods.addCard')} description={t('payments.methods.addCardHint')}>
      {start.isError ? (
        <FormAlert kind="error" onClose={() => start.reset()}>
          {describeError(start.error, t)}
        </FormAlert>
      ) : null}
      <Group>
        <Button
          leftSection={<IconCreditCard size={16} aria-hidden />}
          loading={start.isPending || leaving}
          onClick={() => {
            start.mutate(undefined, {
              onSuccess: (answer) => {
                setLeaving(true);
                window.location.assign(answer.data.url);
              },
            });
          }}
        >
          {t('payments.methods.addCardSubmit')}
        </Button>
      </Group>
    </Section>
  );
}

const bankSchema = paymentMethodPayloadSchema.options[0];
type BankInput = z.input<typeof bankSchema>;
type BankOutput = z.output<typeof bankSchema>;
const FIELDS = ['account_name', 'iban', 'bic'] as const;

function AddBankAccount() {
  const { t } = useTranslation();
  const add = usePaymentMethodAdd();
  const [formError, setFormError] = useState<string | null>(null);
  const resolver = useSchemaResolver(bankSchema);
  const { register, handleSubmit, setError, reset, formState } = useForm<BankInput, unknown, BankOutput>({
    resolver,
    defaultValues: { kind: 'bank_transfer', account_name: '', iban: '', bic: '', make_default: false },
  });

  const submit = handleSubmit(async (payload) => {
    setFormError(null);
    try {
      const { bic, ...rest } = payload;
      await add.mutateAsync(bic ? { ...rest, bic } : rest);
      reset();
    } catch (error) {
      setFormError(formErrorOf(error, FIELDS, setError, t));
    }
  });

  return (
    <Section id="add-bank-account" title={t('payments.methods.addBank')} description={t('payments.methods.addBankHint')}>
      {add.isSuccess ? (
        <FormAlert kind="success" onClose={() => add.reset()}>
          {translateServerText(add.data.message ?? t('payments.methods.added'))}
        </FormAlert>
      ) : null}
      {formError ? <FormAlert kind="error">{formError}</FormAlert> : null}
      <form onSubmit={(event) => void submit(event)} noValidate className={classes.formNarrow}>
        <Stack gap="md">
          <TextInput
            label={t('payments.accountName')}
            autoComplete="name"
            required
            error={formState.errors.account_name?.message}
            {...register('account_name')}
          />
          <TextInput
            label={t('payments.iban')}
            required
            spellCheck={false}
            autoComplete="off"
            error={formState.errors.iban?.message}
            {...register('iban')}
          />
          <TextInput
            label={t('payments.bicOptional')}
            spellCheck={false}
            autoComplete="off"
            error={formState.errors.bic?.message}
            {...register('bic')}
          />
          <Checkbox label={t('payments.methods.makeDefaultOption')} {...register('make_default')} />
          <Group>
            <Button type="submit" loading={formState.isSubmitting} leftSection={<IconBuildingBank size={16} aria-hidden />}>
              {t('payments.methods.addBankSubmit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Section>
  );
}
