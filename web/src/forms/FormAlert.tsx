import type { ReactNode } from 'react';
import { Alert } from '@mantine/core';
import { IconAlertCircle, IconCircleCheck, IconInfoCircle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

interface FormAlertProps {
  kind: 'error' | 'success' | 'info';
  title?: ReactNode;
  children: ReactNode;
  onClose?: () => void;
}

const LOOK = {
  error: { color: 'red', icon: <IconAlertCircle aria-hidden />, role: 'alert' },
  success: { color: 'green', icon: <IconCircleCheck aria-hidden />, role: 'status' },
  info: { color: 'harbor', icon: <IconInfoCircle aria-hidden />, role: 'status' },
} as const;

/** The message above a form: what went wrong, or what happened. Announced to screen readers. */
export function FormAlert({ kind, title, children, onClose }: FormAlertProps) {
  const { t } = useTranslation();
  const look = LOOK[kind];
  return (
    <Alert
      color={look.color}
      variant="light"
      icon={look.icon}
      title={title}
      role={look.role}
      withCloseButton={onClose !== undefined}
      closeButtonLabel={t('app.dismiss')}
      onClose={onClose}
    >
      {children}
    </Alert>
  );
}
