import type { FormEvent, ReactNode } from 'react';
import { Checkbox, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { DialogActions } from '../../../components/DialogActions.tsx';
import { FormAlert } from '../../../forms/FormAlert.tsx';
import partnerClasses from '../Partner.module.css';

interface CatalogueFormProps {
  /** Which catalogue the row belongs to: its texts come from `catalogue.<kind>.…`. */
  kind: 'plans' | 'tlds';
  /** False for a new row. */
  editing: boolean;
  submit: (event: FormEvent<HTMLFormElement>) => Promise<void>;
  formError: string | null | undefined;
  /** Whether the row is offered in the shop. */
  active: boolean;
  onActive: (active: boolean) => void;
  busy: boolean;
  onCancel: () => void;
  /** The row's own fields, laid out on the form's two-column grid. */
  children: ReactNode;
}

/** The frame of a catalogue row's form (plans, domain endings): fields, "offered" and the actions. */
export function CatalogueForm({ kind, editing, submit, formError, active, onActive, busy, onCancel, children }: CatalogueFormProps) {
  const { t } = useTranslation();
  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <Stack gap="md">
        {formError ? <FormAlert kind="error">{formError}</FormAlert> : null}
        <div className={partnerClasses.formGrid}>
          {children}
          <Checkbox
            className={partnerClasses.wide}
            label={t(`catalogue.${kind}.activeOption`)}
            checked={active}
            onChange={(event) => {
              onActive(event.currentTarget.checked);
            }}
          />
        </div>
        <DialogActions submitLabel={editing ? t('catalogue.save') : t(`catalogue.${kind}.createSubmit`)} busy={busy} onCancel={onCancel} />
      </Stack>
    </form>
  );
}
