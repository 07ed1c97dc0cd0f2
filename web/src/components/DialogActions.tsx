import type { ReactNode } from 'react';
import { Button, Group } from '@mantine/core';
import { useTranslation } from 'react-i18next';

interface DialogActionsProps {
  /** The submit button's text; the dialog's <form> does the work. */
  submitLabel: string;
  icon?: ReactNode;
  busy: boolean;
  onCancel: () => void;
  /** Red for what cannot be undone. red-9: white text on Mantine's red-6 misses WCAG AA (theme.ts). */
  danger?: boolean;
  disabled?: boolean;
  /** Focus Cancel when the dialog opens (for a question, so Enter does not confirm by accident). */
  focusCancel?: boolean;
}

/** The footer of a dialog's form: Cancel, then the submit button. */
export function DialogActions({
  submitLabel,
  icon,
  busy,
  onCancel,
  danger = false,
  disabled = false,
  focusCancel = false,
}: DialogActionsProps) {
  const { t } = useTranslation();
  return (
    <Group justify="flex-end" gap="sm" mt="xs">
      <Button variant="default" onClick={onCancel} disabled={busy} data-autofocus={focusCancel || undefined}>
        {t('app.cancel')}
      </Button>
      <Button type="submit" color={danger ? 'red.9' : undefined} leftSection={icon} loading={busy} disabled={disabled}>
        {submitLabel}
      </Button>
    </Group>
  );
}
