import type { ReactNode } from 'react';
import { Modal } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useScrollLock } from './useScrollLock.ts';
import classes from './AppModal.module.css';

interface AppModalProps {
  opened: boolean;
  onClose: () => void;
  title: ReactNode;
  size?: string;
  children: ReactNode;
}

/** Every dialog of the panel: centred, a named close button, and a scroll lock that the CSP allows. */
export function AppModal({ opened, onClose, title, size = 'md', children }: AppModalProps) {
  const { t } = useTranslation();
  useScrollLock(opened);
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={title}
      radius="lg"
      size={size}
      centered
      // react-remove-scroll would inject a <style> that the CSP refuses; useScrollLock instead.
      lockScroll={false}
      closeButtonProps={{ 'aria-label': t('app.close') }}
      classNames={{ title: classes.title }}
    >
      {children}
    </Modal>
  );
}
