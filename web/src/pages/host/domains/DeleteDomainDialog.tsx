import { Text } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { Trans, useTranslation } from 'react-i18next';
import type { Domain } from '@berth/contracts';
import { ApiError } from '../../../api/client.ts';
import { useDomainDelete } from '../../../api/domains.ts';
import { ConfirmDialog } from '../../../components/ConfirmDialog.tsx';
import { describeError } from '../../../forms/validation.ts';
import { translateServerText } from '../../../i18n/i18n.ts';
import classes from './Domains.module.css';

interface DeleteDomainDialogProps {
  domain: Domain;
  opened: boolean;
  onClose: () => void;
  /** Called with the server's message once the domain is gone. */
  onDeleted: (message: string) => void;
}

/** The typed name matches either spelling, in any case (as the server checks it). */
const matches = (typed: string, domain: Domain): boolean => {
  const value = typed.trim().toLowerCase().replace(/\.$/, '');
  return value !== '' && (value === domain.name || value === domain.text.toLowerCase());
};

/**
 * Deleting a domain takes its mailbox/FTP users and DNS records with it, so the name is typed
 * to confirm; the server checks it again.
 */
export function DeleteDomainDialog({ domain, opened, onClose, onDeleted }: DeleteDomainDialogProps) {
  const { t } = useTranslation();
  const remove = useDomainDelete(domain.id);

  const fieldError =
    remove.error instanceof ApiError && remove.error.fieldErrors.confirm
      ? remove.error.fieldErrors.confirm.map(translateServerText).join(' ')
      : undefined;

  return (
    <ConfirmDialog
      opened={opened}
      title={t('domains.delete.title', { name: domain.text })}
      confirmLabel={t('domains.delete.submit')}
      danger
      icon={<IconTrash size={16} aria-hidden />}
      loading={remove.isPending}
      error={remove.isError && !fieldError ? describeError(remove.error, t) : null}
      typeToConfirm={{
        label: (
          <Trans
            i18nKey="domains.delete.typeName"
            values={{ name: domain.text }}
            components={{ name: <span className={classes.confirmName} /> }}
          />
        ),
        matches: (typed) => matches(typed, domain),
        error: fieldError,
        onChange: () => {
          if (remove.isError) remove.reset();
        },
      }}
      onClose={() => {
        remove.reset();
        onClose();
      }}
      onConfirm={(typed) => {
        remove.mutate(typed.trim(), {
          onSuccess: (answer) => {
            onDeleted(answer.message ?? t('domains.delete.done', { name: domain.text }));
          },
        });
      }}
    >
      <Text fz="sm">{t('domains.delete.consequences', { users: domain.counts.users, records: domain.counts.dns_records })}</Text>
    </ConfirmDialog>
  );
}
