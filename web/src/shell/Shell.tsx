import '../styles/mantineShell.ts';
import { useEffect } from 'react';
import { Navigate, useLocation } from 'react-router';
import { Alert, Button, Stack } from '@mantine/core';
import { IconAlertTriangle, IconRefresh } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useCurrentUser } from '../api/queries.ts';
import { FullPageLoader } from '../components/FullPageLoader.tsx';
import { describeError } from '../forms/validation.ts';
import { applyUserLanguage } from '../i18n/i18n.ts';
import { ShellFrame } from './ShellFrame.tsx';
import classes from './Shell.module.css';

/**
 * The catch-all route: waits for the session's user, sends visitors without one to the login
 * (remembering where they were going), then frames the inner route.
 */
export function Shell() {
  const { t } = useTranslation();
  const location = useLocation();
  const currentUser = useCurrentUser();
  const language = currentUser.data?.user.language;

  useEffect(() => {
    if (language) applyUserLanguage(language);
  }, [language]);

  if (currentUser.isPending) {
    return <FullPageLoader message={t('app.loadingPanel')} />;
  }

  if (currentUser.isError) {
    if (currentUser.error.isUnauthenticated) {
      return <Navigate to="/login" replace state={{ from: location }} />;
    }
    return (
      <main className={classes.failed}>
        <Stack maw={480} w="100%" gap="md">
          <Alert
            color="red"
            variant="light"
            title={<h1 className={classes.failedTitle}>{t('shell.loadFailed')}</h1>}
            icon={<IconAlertTriangle aria-hidden />}
          >
            {describeError(currentUser.error, t)}
          </Alert>
          <Button
            variant="default"
            className={classes.retry}
            leftSection={<IconRefresh size={16} aria-hidden />}
            loading={currentUser.isFetching}
            onClick={() => void currentUser.refetch()}
          >
            {t('app.tryAgain')}
          </Button>
        </Stack>
      </main>
    );
  }

  return <ShellFrame user={currentUser.data.user} tenant={currentUser.data.tenant} />;
}
