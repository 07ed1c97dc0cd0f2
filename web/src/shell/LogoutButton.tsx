import { UnstyledButton } from '@mantine/core';
import { IconLogout } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import classes from './Header.module.css';

interface LogoutButtonProps {
  onLogout: () => void;
  pending: boolean;
}

/** The header's logout; on phones only its icon shows, the name stays for screen readers. */
export function LogoutButton({ onLogout, pending }: LogoutButtonProps) {
  const { t } = useTranslation();
  return (
    <UnstyledButton
      className={classes.logout}
      onClick={onLogout}
      disabled={pending}
      aria-label={t('shell.logout')}
      data-testid="header-logout"
    >
      <IconLogout size={18} stroke={1.8} aria-hidden />
      <span className={classes.logoutText} aria-hidden>
        {t('shell.logout')}
      </span>
    </UnstyledButton>
  );
}
