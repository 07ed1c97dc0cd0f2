import '../styles/mantineShell.ts';
import { useEffect, useState } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { Alert, Button, Stack } from '@mantine/core';
import { IconAlertTriangle, IconRefresh } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useCurrentUser } from '../api/queries.ts';
import { FullPageLoader } from '../components/FullPageLoader.tsx';
import { describeError } from '../forms/validation.ts';
import { applyUserLanguage } from '../i18n/i18n.ts';
import { PrerenderHandOff } from '../prerender/handoff.ts';
import { ShellFrame } from './ShellFrame.tsx';
import { TwoFactorEnrollment } from './TwoFactorEnrollment.tsx';
import classes from './Shell.module.css';

/**
 * The catch-all route: waits for the session's user, sends visitors without one to the login
 * (remembering where they were going), then frames the inner route.
 */
export function Shell() {
  const { t } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  const currentUser = useCurrentUser();
  const language = currentUser.data?.user.language;
  // Kept until the new recovery codes are put away: the user's answer stops asking as soon as the
  // second factor is on, one step before the codes are shown.
  const [enrolling, setEnrolling] = useState(false);
  if (currentUser.data?.user.two_factor_setup_required && !enrolling) setEnrolling(true);

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
        <PrerenderHandOff />
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

  if (enrolling) {
    if (location.pathname !== '/account/2fa') return <Navigate to="/account/2fa" replace />;
    return (
      <>
        <PrerenderHandOff />
        <TwoFactorEnrollment
          tenant={currentUser.data.tenant}
          onDone={() => {
            setEnrolling(false);
            void navigate('/dashboard');
          }}
        />
      </>
    );
  }

  return <ShellFrame user={currentUser.data.user} tenant={currentUser.data.tenant} />;
}
