import { useState } from 'react';
import { Badge, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { IconFingerprint, IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { browserSupportsWebAuthn } from '@simplewebauthn/browser';
import { useTranslation } from 'react-i18next';
import type { Passkey } from '@berth/contracts';
import { passkeyCancelled, usePasskeyAdd, usePasskeyRemove, usePasskeyRename, usePasskeys } from '../../api/passkeys.ts';
import { AppModal } from '../../components/AppModal.tsx';
import { cx } from '../../components/cx.ts';
import { formatDateTime } from '../../components/formatDate.ts';
import { LoadingRows } from '../../components/ListStates.tsx';
import { LoadFailed } from '../../components/LoadFailed.tsx';
import { NOTICE_TIMEOUT_MS, pushMessage } from '../../components/messageStore.ts';
import { FormAlert } from '../../forms/FormAlert.tsx';
import { describeError } from '../../forms/validation.ts';
import { Section } from '../PageHeader.tsx';
import { PasswordPrompt } from './PasswordPrompt.tsx';
import classes from '../host/domain-users/DomainPages.module.css';

/**
 * Passkeys on /account/2fa: log in without a password (a passkey is both factors), several per
 * account, each named, with its last use; removing one needs the password.
 */
export function PasskeysSection() {
  const { t } = useTranslation();
  const passkeys = usePasskeys();
  const add = usePasskeyAdd();
  const [name, setName] = useState('');
  const [renaming, setRenaming] = useState<Passkey | null>(null);
  const [removing, setRemoving] = useState<Passkey | null>(null);
  const supported = browserSupportsWebAuthn();

  const submit = () =>
    add.mutate(name.trim() || t('passkeys.defaultName'), {
      onSuccess: (answer) => {
        setName('');
        pushMessage({ type: 'notice', data: answer.message ?? t('passkeys.added'), timeout: NOTICE_TIMEOUT_MS });
      },
    });

  return (
    <Section id="passkeys" title={t('passkeys.title')} description={t('passkeys.description')}>
      <Stack gap="md">
        {passkeys.isPending ? (
          <LoadingRows height={44} rows={1} />
        ) : passkeys.isError ? (
          <LoadFailed error={passkeys.error} onRetry={() => void passkeys.refetch()} />
        ) : passkeys.data.length === 0 ? (
          <Text fz="sm" c="dimmed">
            {t('passkeys.none')}
          </Text>
        ) : (
          <ul className={classes.mailChecks} aria-label={t('passkeys.title')}>
            {passkeys.data.map((passkey) => (
              <li key={passkey.id} className={cx(classes.mailCheck, classes.passkeyRow)} data-testid="passkey-row">
                <IconFingerprint size={28} stroke={1.5} aria-hidden />
                <Group justify="space-between" gap="sm" className={classes.mailCheckBody}>
                  <div>
                    <Group gap={6}>
                      <Text fw={600}>{passkey.name}</Text>
                      {passkey.synced ? (
                        <Badge variant="light" radius="sm" color="gray">
                          {t('passkeys.synced')}
                        </Badge>
                      ) : null}
                    </Group>
                    <Text fz="xs" c="dimmed">
                      {t('passkeys.added_on', { date: formatDateTime(passkey.created_at) })} ·{' '}
                      {passkey.last_used_at
                        ? t('passkeys.last_used', { date: formatDateTime(passkey.last_used_at) })
                        : t('passkeys.never_used')}
                    </Text>
                  </div>
                  <Group gap={4}>
                    <Button
                      size="xs"
                      variant="subtle"
                      color="gray"
                      leftSection={<IconPencil size={14} aria-hidden />}
                      onClick={() => setRenaming(passkey)}
                      aria-label={t('passkeys.renameLabel', { name: passkey.name })}
                    >
                      {t('passkeys.rename')}
                    </Button>
                    <Button
                      size="xs"
                      variant="subtle"
                      color="red"
                      leftSection={<IconTrash size={14} aria-hidden />}
                      onClick={() => setRemoving(passkey)}
                      aria-label={t('passkeys.removeLabel', { name: passkey.name })}
                    >
                      {t('passkeys.remove')}
                    </Button>
                  </Group>
                </Group>
              </li>
            ))}
          </ul>
        )}
        {supported ? (
          <form
            noValidate
            onSubmit={(event) => {
              event.preventDefault();
              submit();
            }}
          >
            <Stack gap="xs">
              {add.isError && !passkeyCancelled(add.error) ? <FormAlert kind="error">{describeError(add.error, t)}</FormAlert> : null}
              <Group align="flex-end" gap="sm">
                <TextInput
                  label={t('passkeys.name')}
                  description={t('passkeys.nameHint')}
                  value={name}
                  maxLength={60}
                  onChange={(event) => setName(event.currentTarget.value)}
                />
                <Button type="submit" loading={add.isPending} leftSection={<IconPlus size={16} aria-hidden />}>
                  {t('passkeys.add')}
                </Button>
              </Group>
            </Stack>
          </form>
        ) : (
          <FormAlert kind="info">{t('passkeys.unsupported')}</FormAlert>
        )}
      </Stack>
      <RenameDialog passkey={renaming} onClose={() => setRenaming(null)} />
      <RemoveDialog passkey={removing} onClose={() => setRemoving(null)} />
    </Section>
  );
}

function RenameDialog({ passkey, onClose }: { passkey: Passkey | null; onClose: () => void }) {
  const { t } = useTranslation();
  const rename = usePasskeyRename();
  const [name, setName] = useState('');
  const close = () => {
    rename.reset();
    setName('');
    onClose();
  };
  return (
    <AppModal opened={passkey !== null} onClose={close} title={t('passkeys.renameTitle')}>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (!passkey) return;
          rename.mutate(
            { passkey, name: name || passkey.name },
            {
              onSuccess: (answer) => {
                pushMessage({ type: 'notice', data: answer.message ?? t('passkeys.renamed'), timeout: NOTICE_TIMEOUT_MS });
                close();
              },
            },
          );
        }}
      >
        <Stack gap="md">
          <TextInput
            label={t('passkeys.name')}
            defaultValue={passkey?.name}
            maxLength={60}
            onChange={(event) => setName(event.currentTarget.value)}
            error={rename.error?.fieldErrors.name?.join(' ')}
            data-autofocus
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {t('app.cancel')}
            </Button>
            <Button type="submit" loading={rename.isPending}>
              {t('passkeys.rename')}
            </Button>
          </Group>
        </Stack>
      </form>
    </AppModal>
  );
}

function RemoveDialog({ passkey, onClose }: { passkey: Passkey | null; onClose: () => void }) {
  const { t } = useTranslation();
  const remove = usePasskeyRemove();
  return (
    <AppModal opened={passkey !== null} onClose={onClose} title={t('passkeys.removeTitle')}>
      <Stack gap="md">
        <Text fz="sm">{t('passkeys.removeBody', { name: passkey?.name ?? '' })}</Text>
        <PasswordPrompt
          submitLabel={t('passkeys.remove')}
          submitColor="red.9"
          submitIcon={<IconTrash size={16} aria-hidden />}
          autoFocus
          onCancel={onClose}
          onConfirm={async (password) => {
            if (!passkey) return;
            const answer = await remove.mutateAsync({ passkey, password });
            pushMessage({ type: 'notice', data: answer.message ?? t('passkeys.removed'), timeout: NOTICE_TIMEOUT_MS });
            onClose();
          }}
        />
      </Stack>
    </AppModal>
  );
}
