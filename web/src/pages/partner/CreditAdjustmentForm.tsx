import { useState, type FormEvent } from 'react';
import { Button, Group, NumberInput, Select, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconAdjustments } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useCreditAdjustment } from '../../api/credit.ts';
import { useOwnerSearch } from '../../api/domains.ts';
import { FormAlert } from '../../forms/FormAlert.tsx';
import { describeError } from '../../forms/validation.ts';
import { translateServerText } from '../../i18n/i18n.ts';
import { Section } from '../PageHeader.tsx';
import partnerClasses from './Partner.module.css';

type Field = 'user_id' | 'amount' | 'description';

/** The user an adjustment is preset to (an admin's view of one customer's credit). */
export interface AdjustedUser {
  id: number;
  /** The name and e-mail address shown in place of the customer search. */
  label: string;
}

/** Admins credit (or debit, with a minus) a customer of their tenant, with a reason for the ledger. */
export function CreditAdjustmentForm() {
  const { t } = useTranslation();
  return (
    <Section id="adjustment" title={t('partner.adjust.title')} description={t('partner.adjust.description')}>
      <CreditAdjustmentFields />
    </Section>
  );
}

interface CreditAdjustmentFieldsProps {
  /** Preset and fixed: no customer search. */
  user?: AdjustedUser | undefined;
  /** Called with the server's message once adjusted (instead of the form's own success notice). */
  onDone?: ((message: string) => void) | undefined;
  /** Shows a cancel button (e.g. in a dialog). */
  onCancel?: (() => void) | undefined;
}

/** The adjustment form itself, for the partner page's section or a dialog. */
export function CreditAdjustmentFields({ user, onDone, onCancel }: CreditAdjustmentFieldsProps) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [query] = useDebouncedValue(search, 250);
  const customers = useOwnerSearch(query, user === undefined);
  const adjust = useCreditAdjustment();
  const [userId, setUserId] = useState<string | null>(user ? String(user.id) : null);
  const [amount, setAmount] = useState<string | number>('');
  const [description, setDescription] = useState('');
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const missing: Partial<Record<Field, string>> = {};
    if (userId === null) missing.user_id = t('validation.required');
    if (amount === '' || Number(amount) === 0) missing.amount = t('validation.required');
    if (description.trim() === '') missing.description = t('validation.required');
    setErrors(missing);
    if (Object.keys(missing).length > 0) return;
    adjust.mutate(
      { user_id: Number(userId), amount: Math.round(Number(amount) * 100), description: description.trim() },
      {
        onSuccess: (answer) => {
          setAmount('');
          setDescription('');
          onDone?.(
            answer.message ? translateServerText(answer.message) : t('partner.adjust.done', { balance: answer.data.balance.formatted }),
          );
        },
        onError: (error) => {
          const next: Partial<Record<Field, string>> = {};
          for (const field of ['user_id', 'amount', 'description'] as const) {
            const texts = error.fieldErrors[field];
            if (texts) next[field] = texts.map(translateServerText).join(' ');
          }
          setErrors(next);
        },
      },
    );
  };

  const options = (customers.data ?? []).map((customer) => ({
    value: String(customer.id),
    label: customer.contact.display_name ? `${customer.contact.display_name} <${customer.email}>` : customer.email,
  }));
  const hasFieldError = adjust.isError && Object.keys(adjust.error.fieldErrors).length > 0;

  return (
    <>
      {adjust.isSuccess && !onDone ? (
        <FormAlert kind="success" onClose={() => adjust.reset()}>
          {adjust.data.message
            ? translateServerText(adjust.data.message)
            : t('partner.adjust.done', { balance: adjust.data.data.balance.formatted })}
        </FormAlert>
      ) : null}
      {adjust.isError && !hasFieldError ? <FormAlert kind="error">{describeError(adjust.error, t)}</FormAlert> : null}
      <form onSubmit={submit} noValidate>
        <div className={partnerClasses.formGrid}>
          {user ? (
            <TextInput
              className={partnerClasses.wide}
              label={t('partner.adjust.customer')}
              value={user.label}
              error={errors.user_id}
              readOnly
            />
          ) : (
            <Select
              className={partnerClasses.wide}
              label={t('partner.adjust.customer')}
              placeholder={t('partner.adjust.customerPlaceholder')}
              searchable
              clearable
              data={options}
              value={userId}
              onChange={setUserId}
              searchValue={search}
              onSearchChange={setSearch}
              nothingFoundMessage={t('partner.adjust.noCustomer')}
              error={errors.user_id}
              comboboxProps={{ withinPortal: true }}
              required
            />
          )}
          <NumberInput
            label={t('partner.adjust.amount')}
            description={t('partner.adjust.amountHint')}
            value={amount}
            onChange={setAmount}
            decimalScale={2}
            error={errors.amount}
            required
          />
          <TextInput
            label={t('partner.adjust.reason')}
            value={description}
            maxLength={200}
            onChange={(event) => {
              setDescription(event.currentTarget.value);
            }}
            error={errors.description}
            required
          />
        </div>
        <Group mt="md" justify={onCancel ? 'flex-end' : 'flex-start'}>
          {onCancel ? (
            <Button variant="default" onClick={onCancel}>
              {t('app.cancel')}
            </Button>
          ) : null}
          <Button
            type="submit"
            variant={onCancel ? 'filled' : 'default'}
            loading={adjust.isPending}
            leftSection={<IconAdjustments size={16} aria-hidden />}
          >
            {t('partner.adjust.submit')}
          </Button>
        </Group>
      </form>
    </>
  );
}
