import { useRouteError } from 'react-router';
import { VisuallyHidden } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useEffect } from 'react';
import { usePrerenderHandoff } from '../prerender/handoff.ts';
import { RenderFailed } from './RenderFailed.tsx';
import classes from './RouteError.module.css';

/** The route error boundary: the page's own heading and the unknown-error notice, no shell. */
export function RouteError() {
  const error = useRouteError();
  const { t } = useTranslation();
  usePrerenderHandoff();

  useEffect(() => {
    console.warn('Route failed to render', error);
  }, [error]);

  return (
    <main className={classes.root}>
      <VisuallyHidden component="h1">{t('app.name')}</VisuallyHidden>
      <RenderFailed />
    </main>
  );
}
