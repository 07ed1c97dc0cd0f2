import { Stack, Text } from '@mantine/core';
import { Trans, useTranslation } from 'react-i18next';
import type { Customer } from '@berth/contracts';
import { ApiError } from '../../../api/client.ts';
import { useCustomerDelete } from '../../../api/customers.ts';
import { ConfirmDialog } from '../../../components/ConfirmDialog.tsx';
import { describeError } from '../../../forms/validation.ts';
import { translateServerText } from '../../../i18n/i18n.ts';
import classes from './Customers.module.css';

/** Deleting a customer takes their domains with them: the admin types the e-mail address to confirm. */
export function DeleteCustomerDialog({ customer, opened, onClose }: { customer: Customer; opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const remove = useCustomerDelete(customer.id);

  const fieldError = remove.error instanceof ApiError ? remove.error.fieldErrors.confirm?.map(translateServerText).join(' ') : undefined;

  return (
    <ConfirmDialog
      opened={opened}
      title={t('customers.delete.title')}
      confirmLabel={t('customers.delete.confirm')}
      danger
      loading={remove.isPending}
      error={remove.isError && !fieldError ? describeError(remove.error, t) : null}
      typeToConfirm={{
        label: t('customers.delete.confirmLabel'),
        matches: (typed) => typed.trim().toLowerCase() === customer.email.toLowerCase(),
        error: fieldError,
      }}
      onClose={() => {
        remove.reset();
        onClose();
      }}
      onConfirm={(typed) => {
        remove.mutate(typed);
      }}
    >
      <Stack gap="sm">
        <Text fz="sm">{t('customers.delete.body', { count: customer.domains })}</Text>
        <Text fz="sm">
          <Trans
            i18nKey="customers.delete.typeEmail"
            values={{ email: customer.email }}
            components={{ email: <span className={classes.confirmEmail} /> }}
          />
        </Text>
      </Stack>
    </ConfirmDialog>
  );
}
