import { Button, Text } from '@mantine/core';
import { IconAlertCircle, IconMailCheck, IconMailExclamation } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useRegisterResend } from '../api/authFlows.ts';
import { describeError } from '../forms/validation.ts';
import { translateServerText } from '../i18n/i18n.ts';
import classes from './ShellFrame.module.css';

/** Until the e-mail address is verified: a reminder with "Send again". */
export function EmailVerificationBar() {
  const { t } = useTranslation();
  const resend = useRegisterResend();

  let tone: 'warning' | 'success' | 'error' = 'warning';
  let text = t('verifyBar.text');
  let icon = <IconMailExclamation size={20} aria-hidden />;
  if (resend.isSuccess) {
    tone = 'success';
    text = translateServerText(resend.data.message ?? t('verifyBar.sent'));
    icon = <IconMailCheck size={20} aria-hidden />;
  } else if (resend.isError) {
    tone = 'error';
    text = describeError(resend.error, t);
    icon = <IconAlertCircle size={20} aria-hidden />;
  }

  return (
    <div className={classes.verifyBar} data-tone={tone} role="status">
      <span className={classes.verifyIcon}>{icon}</span>
      <Text fz="sm" fw={500} className={classes.verifyText}>
        {text}
      </Text>
      {resend.isSuccess ? null : (
        <Button
          size="xs"
          variant="default"
          loading={resend.isPending}
          onClick={() => {
            resend.mutate();
          }}
          className={classes.verifyButton}
        >
          {t('verifyBar.resend')}
        </Button>
      )}
    </div>
  );
}
