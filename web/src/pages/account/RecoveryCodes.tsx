import { useState } from 'react';
import { Button, Checkbox, CopyButton, Group, Stack, Text } from '@mantine/core';
import { IconCheck, IconCopy, IconDownload } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { FormAlert } from '../../forms/FormAlert.tsx';
import { translateServerText } from '../../i18n/i18n.ts';
import { useSignedInUser } from '../../shell/useSignedInUser.ts';
import classes from './TwoFactor.module.css';

interface RecoveryCodesProps {
  codes: string[];
  message: string | undefined;
  onDone: () => void;
}

/** A file name from the tenant's title, e.g. "acme-hosting-recovery-codes.txt". */
function fileName(title: string): string {
  const slug = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return `${slug || 'berth'}-recovery-codes.txt`;
}

/** The recovery codes, shown once: copy or download them, and say so before leaving. */
export function RecoveryCodes({ codes, message, onDone }: RecoveryCodesProps) {
  const { t } = useTranslation();
  const { user, tenant } = useSignedInUser();
  const [saved, setSaved] = useState(false);
  const text = codes.join('\n');

  const download = () => {
    const body = [
      t('twoFactorPage.fileHeading', { title: tenant.title, email: user.email }),
      t('twoFactorPage.fileCreated', { date: new Date().toISOString().slice(0, 10) }),
      '',
      ...codes,
      '',
      t('twoFactorPage.fileNote'),
      '',
    ].join('\r\n');
    const url = URL.createObjectURL(new Blob([body], { type: 'text/plain;charset=utf-8' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = fileName(tenant.title);
    document.body.append(link);
    link.click();
    link.remove();
    window.setTimeout(() => {
      URL.revokeObjectURL(url);
    }, 1000);
  };

  return (
    <Stack gap="lg">
      {message ? <FormAlert kind="success">{translateServerText(message)}</FormAlert> : null}
      <Text fz="sm">{t('twoFactorPage.codesIntro')}</Text>
      <ol className={classes.codes} aria-label={t('twoFactorPage.codesTitle')}>
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ol>
      <Group gap="sm">
        <CopyButton value={text} timeout={2500}>
          {({ copied, copy }) => (
            <Button
              variant="default"
              leftSection={copied ? <IconCheck size={16} aria-hidden /> : <IconCopy size={16} aria-hidden />}
              onClick={copy}
              aria-live="polite"
            >
              {copied ? t('twoFactorPage.copied') : t('twoFactorPage.copy')}
            </Button>
          )}
        </CopyButton>
        <Button variant="default" leftSection={<IconDownload size={16} aria-hidden />} onClick={download}>
          {t('twoFactorPage.download')}
        </Button>
      </Group>
      <div className={classes.savedRow}>
        <Checkbox
          label={t('twoFactorPage.saved')}
          checked={saved}
          onChange={(event) => {
            setSaved(event.currentTarget.checked);
          }}
        />
        <Button onClick={onDone} disabled={!saved}>
          {t('twoFactorPage.done')}
        </Button>
      </div>
    </Stack>
  );
}
