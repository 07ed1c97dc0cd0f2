import type { ReactNode } from 'react';
import { IconTrash } from '@tabler/icons-react';
import { ConfirmDialog } from './ConfirmDialog.tsx';
import { NOTICE_TIMEOUT_MS, pushMessage } from './messageStore.ts';

interface DeleteDialogProps<T> {
  /** What is about to be deleted; null while closed. */
  target: T | null;
  title: string;
  confirmLabel: string;
  /** The question, naming what goes. */
  children: ReactNode;
  remove: (target: T) => Promise<{ message?: string | undefined }>;
  /** The notice when the server says nothing. */
  done: string;
  onClose: () => void;
}

/** "Delete …?": closes with the server's notice once it agreed, says why in place when it did not. */
export function DeleteDialog<T>({ target, title, confirmLabel, children, remove, done, onClose }: DeleteDialogProps<T>) {
  return (
    <ConfirmDialog
      opened={target !== null}
      title={title}
      confirmLabel={confirmLabel}
      danger
      icon={<IconTrash size={16} aria-hidden />}
      onClose={onClose}
      onConfirm={async () => {
        if (target === null) return;
        const answer = await remove(target);
        pushMessage({ type: 'notice', data: answer.message ?? done, timeout: NOTICE_TIMEOUT_MS });
      }}
    >
      {children}
    </ConfirmDialog>
  );
}
