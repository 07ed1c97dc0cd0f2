import type { FormEvent, ReactNode } from 'react';
import { Checkbox, Stack } from '@mantine/core';
import { DialogActions } from '../../../components/DialogActions.tsx';
import { FormAlert } from '../../../forms/FormAlert.tsx';
import partnerClasses from '../Partner.module.css';

interface CatalogueFormProps {
  submit: (event: FormEvent<HTMLFormElement>) => Promise<void>;
  formError: string | null | undefined;
  /** Whether the row is offered in the shop. */
  active: boolean;
  onActive: (active: boolean) => void;
  activeLabel: string;
  submitLabel: string;
  busy: boolean;
  onCancel: () => void;
  /** The row's own fields, laid out on the form's two-column grid. */
  children: ReactNode;
}

/** The frame of a catalogue row's form (plans, domain endings): fields, "offered" and the actions. */
export function CatalogueForm({
  submit,
  formError,
  active,
  onActive,
  activeLabel,
  submitLabel,
  busy,
  onCancel,
  children,
}: CatalogueFormProps) {
  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <Stack gap="md">
        {formError ? <FormAlert kind="error">{formError}</FormAlert> : null}
        <div className={partnerClasses.formGrid}>
          {children}
          <Checkbox
            className={partnerClasses.wide}
            label={activeLabel}
            checked={active}
            onChange={(event) => {
              onActive(event.currentTarget.checked);
            }}
          />
        </div>
        <DialogActions submitLabel={submitLabel} busy={busy} onCancel={onCancel} />
      </Stack>
    </form>
  );
}
