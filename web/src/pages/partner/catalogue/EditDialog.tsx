import type { ReactNode } from 'react';
import { AppModal } from '../../../components/AppModal.tsx';

interface EditDialogProps<T extends { id: number }> {
  /** The row to edit, 'new' for a new one, null when closed. */
  editing: T | 'new' | null;
  title: (row: T | null) => string;
  onClose: () => void;
  /** The form; a fresh one (own state) per row. */
  children: (row: T | null) => ReactNode;
}

/** The dialog around a catalogue row's form (a plan, a TLD price): create or edit. */
export function EditDialog<T extends { id: number }>({ editing, title, onClose, children }: EditDialogProps<T>) {
  const row = editing === 'new' ? null : editing;
  return (
    <AppModal opened={editing !== null} onClose={onClose} size="lg" title={editing === null ? '' : title(row)}>
      {editing !== null ? <div key={row?.id ?? 'new'}>{children(row)}</div> : null}
    </AppModal>
  );
}
