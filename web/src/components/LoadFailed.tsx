import { Button, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { FormAlert } from '../forms/FormAlert.tsx';
import { describeError } from '../forms/validation.ts';

/** A list or page that could not load: why, and a way to try again. */
export function LoadFailed({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <FormAlert kind="error">
      <Stack gap="xs" align="flex-start">
        <span>{describeError(error, t)}</span>
        <Button size="xs" variant="default" onClick={onRetry}>
          {t('app.tryAgain')}
        </Button>
      </Stack>
    </FormAlert>
  );
}
