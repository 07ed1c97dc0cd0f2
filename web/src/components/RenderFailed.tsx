import { Alert, Button } from '@mantine/core';
import { IconAlertTriangle, IconRefresh } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { PrerenderHandOff } from '../prerender/handoff.ts';
import classes from './RenderFailed.module.css';

/**
 * docs/product.md §8: the unknown-error text (translated) and a reload button in place of the
 * page; inside the shell (ShellErrorBoundary) and for a route that failed outside it (RouteError).
 */
export function RenderFailed() {
  const { t } = useTranslation();
  return (
    <div className={classes.renderFailed} data-testid="render-error">
      {/* A page the server rendered does not hide this. */}
      <PrerenderHandOff />
      <Alert color="red" variant="light" icon={<IconAlertTriangle aria-hidden />} role="alert">
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
    </div>
  );
}
