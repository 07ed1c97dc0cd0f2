import type { UseMutationResult } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ApiError } from '../../../api/client.ts';
import { DeleteDialog } from '../../../components/DeleteDialog.tsx';

interface DeleteConfirmProps {
  /** What is about to be deleted, null when closed. */
  target: { id: number; name: string } | null;
  title: string;
  body: string;
  remove: UseMutationResult<{ message?: string }, ApiError, number>;
  onClose: () => void;
}

/** "Delete …?" for a plan or a TLD price. */
export function DeleteConfirm({ target, title, body, remove, onClose }: DeleteConfirmProps) {
  const { t } = useTranslation();
  return (
    <DeleteDialog
      target={target}
      title={title}
      confirmLabel={t('catalogue.delete')}
      remove={(row) => remove.mutateAsync(row.id)}
      done={t('catalogue.deleted')}
      onClose={() => {
        remove.reset();
        onClose();
      }}
    >
      {body}
    </DeleteDialog>
  );
}
