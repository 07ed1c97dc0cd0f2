import { Loader, Stack, Text, VisuallyHidden } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import classes from './FullPageLoader.module.css';

interface FullPageLoaderProps {
  message: string;
}

/** A centred spinner with a wait message, announced politely to screen readers. */
export function FullPageLoader({ message }: FullPageLoaderProps) {
  const { t } = useTranslation();
  return (
    <main className={classes.root}>
      <VisuallyHidden component="h1">{t('app.name')}</VisuallyHidden>
      <Stack align="center" gap="md" role="status" aria-live="polite">
        <Loader size="lg" type="dots" aria-hidden />
        <Text c="dimmed" fz="sm">
          {message}
        </Text>
      </Stack>
    </main>
  );
}
