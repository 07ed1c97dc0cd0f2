import { useState, type FormEvent, type ReactNode } from 'react';
import { Stack, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { FormAlert } from '../forms/FormAlert.tsx';
import { describeError } from '../forms/validation.ts';
import { AppModal } from './AppModal.tsx';
import { DialogActions } from './DialogActions.tsx';
import classes from './AppModal.module.css';

/** For what cannot be undone: the user types a name (as GitHub asks for a repository's) first. */
interface TypeToConfirm {
  label: ReactNode;
  matches: (typed: string) => boolean;
  /** The server's complaint about what was typed. */
  error?: string;
  onChange?: () => void;
}

interface ConfirmDialogProps {
  opened: boolean;
  title: string;
  /** The question, with what the action takes along. */
  children?: ReactNode;
  confirmLabel: string;
  /** Red for what cannot be undone or hurts someone. */
  danger?: boolean;
  icon?: ReactNode;
  loading?: boolean;
  error?: string | null;
  typeToConfirm?: TypeToConfirm;
  /**
   * Gets what was typed (empty without typeToConfirm). A returned promise is awaited: the dialog
   * closes when it resolves and says why when it rejects; otherwise the caller closes it.
   */
  onConfirm: (typed: string) => void | Promise<unknown>;
  onClose: () => void;
}

/** "Are you sure?" before an action, with its failure shown in place. */
export function ConfirmDialog(props: ConfirmDialogProps) {
  const { opened, title, children, confirmLabel, danger = false, icon, typeToConfirm, onConfirm, onClose } = props;
  const { t } = useTranslation();
  const [typed, setTyped] = useState('');
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const busy = pending || props.loading === true;
  const error = failure ?? props.error ?? null;
  const canConfirm = typeToConfirm ? typeToConfirm.matches(typed) : true;

  const close = () => {
    if (busy) return;
    setTyped('');
    setFailure(null);
    onClose();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!canConfirm || busy) return;
    const result = onConfirm(typed);
    if (!(result instanceof Promise)) return;
    setPending(true);
    setFailure(null);
    try {
      await result;
      setPending(false);
      setTyped('');
      onClose();
    } catch (rejected) {
      setPending(false);
      setFailure(describeError(rejected, t));
    }
  };

  return (
    <AppModal opened={opened} onClose={close} title={title}>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Stack gap="md">
          {error ? <FormAlert kind="error">{error}</FormAlert> : null}
          {children ? <div className={classes.body}>{children}</div> : null}
          {typeToConfirm ? (
            <TextInput
              label={typeToConfirm.label}
              value={typed}
              onChange={(event) => {
                setTyped(event.currentTarget.value);
                typeToConfirm.onChange?.();
              }}
              autoComplete="off"
              autoCapitalize="none"
              spellCheck={false}
              data-autofocus
              error={typeToConfirm.error}
            />
          ) : null}
          <DialogActions
            submitLabel={confirmLabel}
            icon={icon}
            busy={busy}
            onCancel={close}
            danger={danger}
            disabled={!canConfirm}
            focusCancel={!typeToConfirm}
          />
        </Stack>
      </form>
    </AppModal>
  );
}
