import type { ComponentProps } from 'react';
import { TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';

type TextInputProps = ComponentProps<typeof TextInput>;

/** An e-mail address or a login name: taken as typed (no capitals, corrections or spell check). */
export function IdentifierField(props: TextInputProps) {
  return <TextInput autoCapitalize="none" autoCorrect="off" spellCheck={false} size="md" {...props} />;
}

/** An e-mail address field, labelled and typed as one. */
export function EmailField(props: TextInputProps) {
  const { t } = useTranslation();
  return (
    <IdentifierField label={t('fields.email')} placeholder={t('login.emailPlaceholder')} type="email" autoComplete="email" {...props} />
  );
}
