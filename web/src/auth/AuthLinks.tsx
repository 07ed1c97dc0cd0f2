import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Anchor, Group, Text } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import classes from './AuthForms.module.css';

/** "Back to log in" under a public screen's form. */
export function BackToLogin() {
  const { t } = useTranslation();
  return (
    <Group justify="center">
      <Anchor component={Link} to="/login" fz="sm" fw={500} className={classes.backLink}>
        <IconArrowLeft size={16} aria-hidden />
        {t('auth.backToLogin')}
      </Anchor>
    </Group>
  );
}

interface AuthFootnoteProps {
  children: ReactNode;
}

/** A centred, quiet line under the form, e.g. "Already have an account? Log in". */
export function AuthFootnote({ children }: AuthFootnoteProps) {
  return (
    <Text ta="center" fz="sm" c="dimmed">
      {children}
    </Text>
  );
}
