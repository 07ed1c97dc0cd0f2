import { useRouteError } from 'react-router';
import { Alert, Button, Stack, VisuallyHidden } from '@mantine/core';
import { IconAlertTriangle, IconRefresh } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useEffect } from 'react';
import classes from './RouteError.module.css';

/** The route error boundary: docs/product.md §8's unknown-error text instead of the content. */
export function RouteError() {
  const error = useRouteError();
  const { t } = useTranslation();

  useEffect(() => {
    console.warn('Route failed to render', error);
  }, [error]);

  return (
    <main className={classes.root}>
      <Stack maw={480} w="100%" gap="md">
        <VisuallyHidden component="h1">{t('app.name')}</VisuallyHidden>
        <Alert color="red" variant="light" icon={<IconAlertTriangle aria-hidden />}>
          {t('System.UnknownErrorCtrlF5')}
        </Alert>
        <Button
          variant="default"
          leftSection={<IconRefresh size={16} aria-hidden />}
          onClick={() => {
            window.location.reload();
          }}
          className={classes.reload}
        >
          {t('app.reload')}
        </Button>
      </Stack>
    </main>
  );
}
