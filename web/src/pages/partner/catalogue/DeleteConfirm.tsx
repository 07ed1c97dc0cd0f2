import type { UseMutationResult } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ApiError } from '../../../api/client.ts';
import { NOTICE_TIMEOUT_MS, pushMessage } from '../../../components/messageStore.ts';
import { FormAlert } from '../../../forms/FormAlert.tsx';
import { describeError } from '../../../forms/validation.ts';
import { ConfirmDialog } from '../../shop/ShopModal.tsx';

interface DeleteConfirmProps {
  /** What is about to be deleted, null when closed. */
  target: { id: number; name: string } | null;
  title: string;
  body: string;
  remove: UseMutationResult<{ message?: string }, ApiError, number>;
  onClose: () => void;
}

/** "Delete …?" for a plan or a TLD price; closes once the server agreed. */
export function DeleteConfirm({ target, title, body, remove, onClose }: DeleteConfirmProps) {
  const { t } = useTranslation();
  const close = () => {
    remove.reset();
    onClose();
  };
  return (
    <ConfirmDialog
      opened={target !== null}
      title={title}
      body={body}
      confirmLabel={t('catalogue.delete')}
      color="red.9"
      busy={remove.isPending}
      error={remove.isError ? <FormAlert kind="error">{describeError(remove.error, t)}</FormAlert> : null}
      onConfirm={() => {
        if (!target) return;
        remove.mutate(target.id, {
          onSuccess: (answer) => {
            pushMessage({ type: 'notice', data: answer.message ?? t('catalogue.deleted'), timeout: NOTICE_TIMEOUT_MS });
            close();
          },
        });
      }}
      onClose={close}
    />
  );
}
