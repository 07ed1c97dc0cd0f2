import { useState, type ReactNode } from 'react';
import { Badge, Button, Group, Skeleton, Stack, Text } from '@mantine/core';
import { IconKey, IconRefresh, IconShieldCheck, IconShieldOff } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import {
  useRecoveryCodesRegenerate,
  useTwoFactorDisable,
  useTwoFactorSetup,
  useTwoFactorStatus,
  type RecoveryCodesAnswer,
  type TwoFactorSetup as Setup,
} from '../../api/account.ts';
import { cx } from '../../components/cx.ts';
import { usePageTitle } from '../../components/usePageTitle.ts';
import { FormAlert } from '../../forms/FormAlert.tsx';
import { describeError } from '../../forms/validation.ts';
import { translateServerText } from '../../i18n/i18n.ts';
import { PageHeader, Section } from '../PageHeader.tsx';
import { PasskeysSection } from './PasskeysSection.tsx';
import { PasswordPrompt } from './PasswordPrompt.tsx';
import { RecoveryCodes } from './RecoveryCodes.tsx';
import { TwoFactorSetup } from './TwoFactorSetup.tsx';
import classes from '../Pages.module.css';
import twoFactorClasses from './TwoFactor.module.css';

/** Fewer recovery codes than this left: suggest generating new ones. */
const FEW_CODES = 3;

type Step = { kind: 'status' } | { kind: 'setup'; setup: Setup } | { kind: 'codes'; answer: RecoveryCodesAnswer };

/**
 * /account/2fa: turn TOTP two-factor authentication on (password → QR code → code → recovery
 * codes shown once), regenerate the recovery codes, or turn it off.
 */
export function TwoFactorPage({ onCodesSaved }: { onCodesSaved?: () => void } = {}) {
  const { t } = useTranslation();
  const status = useTwoFactorStatus();
  const [step, setStep] = useState<Step>({ kind: 'status' });
  const [notice, setNotice] = useState<string | null>(null);
  usePageTitle(t('nav.twoFactor'));

  const enabled = status.data?.enabled ?? false;
  const badge = status.data ? (
    <Badge variant="dot" color={enabled ? 'green' : 'gray'} size="lg" radius="sm" className={classes.badge}>
      {enabled ? t('shell.twoFactorOn') : t('shell.twoFactorOff')}
    </Badge>
  ) : null;

  let content;
  if (step.kind === 'codes') {
    content = (
      <Section id="recovery-codes" title={t('twoFactorPage.codesTitle')} description={t('twoFactorPage.codesDescription')}>
        <RecoveryCodes
          codes={step.answer.data.recovery_codes}
          message={step.answer.message}
          onDone={() => {
            setStep({ kind: 'status' });
            onCodesSaved?.();
          }}
        />
      </Section>
    );
  } else if (step.kind === 'setup') {
    content = (
      <Section id="setup" title={t('twoFactorPage.setupTitle')} description={t('twoFactorPage.setupDescription')}>
        <TwoFactorSetup
          setup={step.setup}
          onEnabled={(answer) => {
            setStep({ kind: 'codes', answer });
          }}
          onCancel={() => {
            setStep({ kind: 'status' });
          }}
        />
      </Section>
    );
  } else if (status.isPending) {
    content = (
      <Section id="status" title={t('twoFactorPage.statusTitle')}>
        <Stack gap="sm" aria-busy="true">
          <Skeleton height={16} width="70%" radius="sm" />
          <Skeleton height={16} width="50%" radius="sm" />
          <Skeleton height={36} width={220} radius="md" />
        </Stack>
      </Section>
    );
  } else if (status.isError) {
    content = (
      <FormAlert kind="error">
        <Stack gap="xs" align="flex-start">
          <span>{describeError(status.error, t)}</span>
          <Button size="xs" variant="default" onClick={() => void status.refetch()}>
            {t('app.tryAgain')}
          </Button>
        </Stack>
      </FormAlert>
    );
  } else if (status.data.enabled) {
    content = (
      <EnabledSettings
        remaining={status.data.recovery_codes_remaining}
        badge={badge}
        onCodes={(answer) => {
          setNotice(null);
          setStep({ kind: 'codes', answer });
        }}
        onDisabled={(message) => {
          setNotice(message);
        }}
      />
    );
  } else {
    content = (
      <DisabledSettings
        badge={badge}
        onSetup={(setup) => {
          setNotice(null);
          setStep({ kind: 'setup', setup });
        }}
      />
    );
  }

  return (
    <div className={cx(classes.page, classes.narrow)}>
      <PageHeader title={t('nav.twoFactor')} description={t('twoFactorPage.description')} />
      {notice ? (
        <FormAlert
          kind="success"
          onClose={() => {
            setNotice(null);
          }}
        >
          {translateServerText(notice)}
        </FormAlert>
      ) : null}
      {content}
      {step.kind === 'status' ? <PasskeysSection /> : null}
    </div>
  );
}

interface DisabledSettingsProps {
  badge: ReactNode;
  onSetup: (setup: Setup) => void;
}

/** 2FA is off: explain it, and start the setup with the current password. */
function DisabledSettings({ badge, onSetup }: DisabledSettingsProps) {
  const { t } = useTranslation();
  const setup = useTwoFactorSetup();
  return (
    <Section id="status" title={t('twoFactorPage.statusTitle')} aside={badge}>
      <Group gap="md" wrap="nowrap" align="flex-start" className={twoFactorClasses.explain}>
        <IconShieldOff size={32} stroke={1.5} aria-hidden className={twoFactorClasses.explainIcon} />
        <Stack gap={4}>
          <Text fw={600}>{t('twoFactorPage.offTitle')}</Text>
          <Text fz="sm" c="dimmed">
            {t('twoFactorPage.offBody')}
          </Text>
        </Stack>
      </Group>
      <PasswordPrompt
        submitLabel={t('twoFactorPage.enable')}
        submitIcon={<IconShieldCheck size={16} aria-hidden />}
        onConfirm={async (password) => {
          onSetup(await setup.mutateAsync(password));
        }}
      />
    </Section>
  );
}

interface EnabledSettingsProps {
  remaining: number;
  badge: ReactNode;
  onCodes: (answer: RecoveryCodesAnswer) => void;
  onDisabled: (message: string) => void;
}

/** 2FA is on: recovery codes left, new codes, or off — each after the current password. */
function EnabledSettings({ remaining, badge, onCodes, onDisabled }: EnabledSettingsProps) {
  const { t } = useTranslation();
  const regenerate = useRecoveryCodesRegenerate();
  const disable = useTwoFactorDisable();
  const [action, setAction] = useState<'regenerate' | 'disable' | null>(null);
  const cancel = () => {
    setAction(null);
  };

  return (
    <>
      <Section id="status" title={t('twoFactorPage.statusTitle')} aside={badge}>
        <Group gap="md" wrap="nowrap" align="flex-start" className={twoFactorClasses.explain}>
          <IconShieldCheck
            size={32}
            stroke={1.5}
            aria-hidden
            className={cx(twoFactorClasses.explainIcon, twoFactorClasses.explainIconOn)}
          />
          <Stack gap={4}>
            <Text fw={600}>{t('twoFactorPage.onTitle')}</Text>
            <Text fz="sm" c="dimmed">
              {t('twoFactorPage.onBody')}
            </Text>
          </Stack>
        </Group>
      </Section>

      <Section
        id="recovery"
        title={t('twoFactorPage.recoveryTitle')}
        description={t('twoFactorPage.recoveryDescription')}
        aside={
          <Badge
            variant="light"
            color={remaining <= FEW_CODES ? 'orange' : 'gray'}
            size="lg"
            radius="sm"
            className={twoFactorClasses.countBadge}
          >
            {t('twoFactorPage.remaining', { count: remaining })}
          </Badge>
        }
      >
        {remaining <= FEW_CODES ? <FormAlert kind="info">{t('twoFactorPage.fewLeft')}</FormAlert> : null}
        {action === 'regenerate' ? (
          <PasswordPrompt
            autoFocus
            submitLabel={t('twoFactorPage.regenerate')}
            submitIcon={<IconRefresh size={16} aria-hidden />}
            onCancel={cancel}
            onConfirm={async (password) => {
              onCodes(await regenerate.mutateAsync(password));
            }}
          />
        ) : action === null ? (
          <div>
            <Button
              variant="default"
              leftSection={<IconKey size={16} aria-hidden />}
              onClick={() => {
                setAction('regenerate');
              }}
            >
              {t('twoFactorPage.regenerate')}
            </Button>
          </div>
        ) : null}
      </Section>

      <Section id="disable" title={t('twoFactorPage.disableTitle')} description={t('twoFactorPage.disableDescription')}>
        {action === 'disable' ? (
          <PasswordPrompt
            autoFocus
            submitLabel={t('twoFactorPage.disable')}
            submitColor="red.9"
            submitIcon={<IconShieldOff size={16} aria-hidden />}
            onCancel={cancel}
            onConfirm={async (password) => {
              const answer = await disable.mutateAsync(password);
              onDisabled(answer.message ?? t('twoFactorPage.disabled'));
            }}
          />
        ) : action === null ? (
          <div>
            <Button
              variant="light"
              color="red"
              leftSection={<IconShieldOff size={16} aria-hidden />}
              onClick={() => {
                setAction('disable');
              }}
            >
              {t('twoFactorPage.disable')}
            </Button>
          </div>
        ) : null}
      </Section>
    </>
  );
}
