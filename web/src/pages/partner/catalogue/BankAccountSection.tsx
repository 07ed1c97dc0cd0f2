import { useState, type FormEvent } from 'react';
import { Badge, Button, Group, Skeleton, Stack, Text, TextInput } from '@mantine/core';
import { IconBuildingBank, IconPencil, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { formatIban, type TenantBankAccount } from '@berth/contracts';
import { useTenantBankAccount, useTenantBankAccountRemove, useTenantBankAccountSave } from '../../../api/bankAccount.ts';
import { ConfirmDialog } from '../../../components/ConfirmDialog.tsx';
import { cx } from '../../../components/cx.ts';
import { NOTICE_TIMEOUT_MS, pushMessage } from '../../../components/messageStore.ts';
import { FormAlert } from '../../../forms/FormAlert.tsx';
import { Section } from '../../PageHeader.tsx';
import classes from '../../Pages.module.css';
import accountClasses from '../../account/Account.module.css';
import { LoadFailed } from '../../../components/LoadFailed.tsx';
import catalogueClasses from './Catalogue.module.css';
import { errorsOfFailure, type FieldErrors } from './draft.ts';

interface Draft {
  account_name: string;
  iban: string;
  bic: string;
}

const draftOf = (account: TenantBankAccount | null): Draft => ({
  account_name: account?.account_name ?? '',
  iban: account ? formatIban(account.iban) : '',
  bic: account?.bic ?? '',
});

/**
 * The account the tenant's customers transfer money to. Without one, bank transfer is not
 * offered at checkout. Host admins see their own tenant's; super admins any tenant's.
 */
export function BankAccountSection({ tenantId }: { tenantId: number }) {
  const { t } = useTranslation();
  const account = useTenantBankAccount(tenantId);
  const [editing, setEditing] = useState(false);
  const [removing, setRemoving] = useState<TenantBankAccount | null>(null);
  const current = account.data ?? null;

  return (
    <Section
      id="bank-account"
      title={t('catalogue.bankAccount.title')}
      description={t('catalogue.bankAccount.description')}
      aside={
        account.isSuccess ? (
          <Badge color={current ? 'green' : 'gray'} variant="dot" radius="sm" className={cx(classes.badge, catalogueClasses.badge)}>
            {current ? t('catalogue.bankAccount.offered') : t('catalogue.bankAccount.notOffered')}
          </Badge>
        ) : null
      }
    >
      {account.isPending ? (
        <Skeleton height={96} radius="md" aria-busy="true" aria-label={t('catalogue.bankAccount.loading')} />
      ) : account.isError ? (
        <LoadFailed error={account.error} onRetry={() => void account.refetch()} />
      ) : editing ? (
        <BankAccountForm
          tenantId={tenantId}
          account={current}
          onDone={() => {
            setEditing(false);
          }}
        />
      ) : current ? (
        <Stack gap="md">
          <dl className={classes.facts} data-testid="bank-account">
            <div className={classes.fact}>
              <dt>{t('catalogue.bankAccount.accountName')}</dt>
              <dd data-testid="bank-account-name">{current.account_name}</dd>
            </div>
            <div className={classes.fact}>
              <dt>{t('catalogue.bankAccount.iban')}</dt>
              <dd data-testid="bank-account-iban" className={accountClasses.mono}>
                {formatIban(current.iban)}
              </dd>
            </div>
            <div className={classes.fact}>
              <dt>{t('catalogue.bankAccount.bic')}</dt>
              <dd data-testid="bank-account-bic" className={current.bic ? accountClasses.mono : undefined}>
                {current.bic ?? t('catalogue.bankAccount.noBic')}
              </dd>
            </div>
          </dl>
          <Group gap="sm">
            <Button
              variant="default"
              leftSection={<IconPencil size={16} aria-hidden />}
              onClick={() => {
                setEditing(true);
              }}
            >
              {t('catalogue.bankAccount.edit')}
            </Button>
            <Button
              variant="default"
              color="red"
              leftSection={<IconTrash size={16} aria-hidden />}
              onClick={() => {
                setRemoving(current);
              }}
            >
              {t('catalogue.bankAccount.remove')}
            </Button>
          </Group>
        </Stack>
      ) : (
        <Stack gap="md" align="flex-start" data-testid="bank-account-empty">
          <Text fz="sm">{t('catalogue.bankAccount.empty')}</Text>
          <Button
            leftSection={<IconBuildingBank size={16} aria-hidden />}
            onClick={() => {
              setEditing(true);
            }}
          >
            {t('catalogue.bankAccount.add')}
          </Button>
        </Stack>
      )}
      <RemoveConfirm
        tenantId={tenantId}
        account={removing}
        onClose={() => {
          setRemoving(null);
        }}
      />
    </Section>
  );
}

/** Holder, IBAN and BIC; the server checks them (IBAN checksum, BIC format) and names the field that is wrong. */
function BankAccountForm({ tenantId, account, onDone }: { tenantId: number; account: TenantBankAccount | null; onDone: () => void }) {
  const { t } = useTranslation();
  const save = useTenantBankAccountSave(tenantId);
  const [draft, setDraft] = useState<Draft>(() => draftOf(account));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);

  const set = (key: keyof Draft, value: string) => {
    setDraft((previous) => ({ ...previous, [key]: value }));
    setErrors(({ [key]: _cleared, ...rest }) => rest);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (save.isPending) return;
    setFormError(null);
    try {
      // An empty BIC removes it; the server normalises spaces and case.
      const answer = await save.mutateAsync({ account_name: draft.account_name, iban: draft.iban, bic: draft.bic });
      pushMessage({ type: 'notice', data: answer.message ?? t('catalogue.bankAccount.saved'), timeout: NOTICE_TIMEOUT_MS });
      onDone();
    } catch (error) {
      const failure = errorsOfFailure(error, t);
      setErrors(failure.fields);
      setFormError(failure.form);
    }
  };

  return (
    <form onSubmit={(event) => void submit(event)} noValidate data-testid="bank-account-form" className={classes.formNarrow}>
      <Stack gap="md">
        {formError ? <FormAlert kind="error">{formError}</FormAlert> : null}
        <TextInput
          label={t('catalogue.bankAccount.accountName')}
          description={t('catalogue.bankAccount.accountNameHint')}
          inputWrapperOrder={['label', 'input', 'description', 'error']}
          value={draft.account_name}
          onChange={(event) => {
            set('account_name', event.currentTarget.value);
          }}
          autoComplete="organization"
          maxLength={70}
          error={errors.account_name}
          required
          // The form replaces the button that opened it: the first field takes the focus.
          autoFocus
        />
        <TextInput
          label={t('catalogue.bankAccount.iban')}
          description={t('catalogue.bankAccount.ibanHint')}
          inputWrapperOrder={['label', 'input', 'description', 'error']}
          value={draft.iban}
          onChange={(event) => {
            set('iban', event.currentTarget.value);
          }}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          maxLength={42}
          error={errors.iban}
          required
        />
        <TextInput
          label={t('catalogue.bankAccount.bicOptional')}
          description={t('catalogue.bankAccount.bicHint')}
          inputWrapperOrder={['label', 'input', 'description', 'error']}
          value={draft.bic}
          onChange={(event) => {
            set('bic', event.currentTarget.value);
          }}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          maxLength={14}
          error={errors.bic}
        />
        <Group gap="sm">
          <Button type="submit" loading={save.isPending}>
            {t('catalogue.bankAccount.save')}
          </Button>
          <Button variant="default" onClick={onDone} disabled={save.isPending}>
            {t('catalogue.bankAccount.cancel')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** "Remove the bank account?": bank transfer stops being offered. */
function RemoveConfirm({ tenantId, account, onClose }: { tenantId: number; account: TenantBankAccount | null; onClose: () => void }) {
  const { t } = useTranslation();
  const remove = useTenantBankAccountRemove(tenantId);
  return (
    <ConfirmDialog
      opened={account !== null}
      title={t('catalogue.bankAccount.removeTitle')}
      confirmLabel={t('catalogue.bankAccount.remove')}
      danger
      icon={<IconTrash size={16} aria-hidden />}
      onConfirm={async () => {
        const answer = await remove.mutateAsync();
        pushMessage({ type: 'notice', data: answer.message ?? t('catalogue.bankAccount.removed'), timeout: NOTICE_TIMEOUT_MS });
      }}
      onClose={onClose}
    >
      {/* No-break spaces: the IBAN's groups stay on one line. */}
      {t('catalogue.bankAccount.removeBody', { iban: account ? formatIban(account.iban).replaceAll(' ', '\u00a0') : '' })}
    </ConfirmDialog>
  );
}
