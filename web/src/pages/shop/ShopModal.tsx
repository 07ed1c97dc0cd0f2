import type { ReactNode } from 'react';
import { Button, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { AppModal } from '../../components/AppModal.tsx';

// The catalogue's dialogs still import these names; new code uses components/AppModal and ConfirmDialog.
export { AppModal as ShopModal };

interface ConfirmDialogProps {
  opened: boolean;
  title: string;
  body: ReactNode;
  confirmLabel: string;
  color?: string;
  busy: boolean;
  error?: ReactNode;
  onConfirm: () => void;
  onClose: () => void;
  children?: ReactNode;
}

/** "Are you sure?" before something that cannot be taken back. */
export function ConfirmDialog({ opened, title, body, confirmLabel, color, busy, error, onConfirm, onClose, children }: ConfirmDialogProps) {
  const { t } = useTranslation();
  return (
    <AppModal opened={opened} onClose={onClose} title={title}>
      <Stack gap="md">
        <Text fz="sm">{body}</Text>
        {children}
        {error}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} disabled={busy}>
            {t('app.cancel')}
          </Button>
          <Button color={color} loading={busy} onClick={onConfirm} data-autofocus>
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </AppModal>
  );
}
