import { useEffect, useRef } from 'react';
import { Link, useParams } from 'react-router';
import { Button, Loader, Stack, Text } from '@mantine/core';
import { IconCircleCheck, IconMailX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useRegisterVerify } from '../api/authFlows.ts';
import { usePageTitle } from '../components/usePageTitle.ts';
import { FormAlert } from '../forms/FormAlert.tsx';
import { describeError } from '../forms/validation.ts';
import { translateServerText } from '../i18n/i18n.ts';
import { AuthHeading } from './AuthHeading.tsx';
import { ResultHeading } from './ResultHeading.tsx';
import classes from './AuthForms.module.css';

/**
 * /register/verify/:code: submits the code on load with a spinner meanwhile; then a link to
 * the dashboard, or on failure links to the login and the registration (docs/product.md §2).
 */
export function RegisterVerifyScreen() {
  const { t } = useTranslation();
  const { code = '' } = useParams<{ code: string }>();
  const verify = useRegisterVerify();
  const { mutate } = verify;
  usePageTitle(t('screens.registerVerify.title'));

  // Once per code, also when StrictMode runs the effect twice: a code works only once.
  const submitted = useRef<string | null>(null);
  useEffect(() => {
    if (submitted.current === code) return;
    submitted.current = code;
    mutate(code);
  }, [code, mutate]);

  if (verify.isSuccess) {
    return (
      <Stack gap="lg">
        <ResultHeading
          icon={<IconCircleCheck size={30} stroke={1.6} />}
          color="green"
          title={verify.data.data ? t('verify.activatedTitle') : t('verify.doneTitle')}
        />
        <FormAlert kind="success">{translateServerText(verify.data.message)}</FormAlert>
        <Button component={Link} to="/dashboard" size="md" fullWidth>
          {t('verify.continue')}
        </Button>
      </Stack>
    );
  }

  if (verify.isError) {
    return (
      <Stack gap="lg">
        <ResultHeading icon={<IconMailX size={28} stroke={1.6} />} color="red" title={t('verify.failedTitle')} />
        <FormAlert kind="error">{describeError(verify.error, t)}</FormAlert>
        <Text fz="sm" c="dimmed" ta="center">
          {t('verify.failedHint')}
        </Text>
        <div className={classes.buttonRow}>
          <Button component={Link} to="/login" size="md">
            {t('login.submit')}
          </Button>
          <Button component={Link} to="/register" size="md" variant="default">
            {t('login.register')}
          </Button>
        </div>
      </Stack>
    );
  }

  return (
    <Stack gap="lg">
      <AuthHeading title={t('screens.registerVerify.title')} description={t('screens.registerVerify.description')} />
      <Stack align="center" gap="md" py="md" role="status" aria-live="polite">
        <Loader size="lg" type="dots" aria-hidden />
        <Text c="dimmed" fz="sm">
          {t('verify.wait')}
        </Text>
      </Stack>
    </Stack>
  );
}
