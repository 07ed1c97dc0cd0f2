import type { ComponentProps } from 'react';
import { PasswordInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PASSWORD_MIN_LENGTH } from '@berth/contracts';

type PasswordFieldProps = ComponentProps<typeof PasswordInput>;

/** A password input whose show/hide toggle is a named, focusable button (as on the login). */
export function PasswordField(props: PasswordFieldProps) {
  const { t } = useTranslation();
  return <PasswordInput size="md" visibilityToggleButtonProps={{ 'aria-label': t('login.showCharacters'), tabIndex: 0 }} {...props} />;
}

/** The server's password rules in one line, shown under every new-password field. */
export function usePasswordHint(): string {
  const { t } = useTranslation();
  return t('password.hint', { min: PASSWORD_MIN_LENGTH });
}
