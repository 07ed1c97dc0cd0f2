import { useState } from 'react';
import { Radio, Stack, Text } from '@mantine/core';
import { IconDeviceFloppy } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { SPAM_FILTER_LEVELS, type DomainUser, type SpamFilter } from '@berth/contracts';
import { AppModal } from '../../../components/AppModal.tsx';
import { DialogActions } from '../../../components/DialogActions.tsx';
import { useDomainUserUpdate } from '../../../api/domainUsers.ts';
import { NOTICE_TIMEOUT_MS, pushMessage } from '../../../components/messageStore.ts';
import { FormAlert } from '../../../forms/FormAlert.tsx';
import { describeError } from '../../../forms/validation.ts';

interface SpamFilterDialogProps {
  domainId: number;
  /** The mailbox whose filter changes; null closes the dialog. */
  account: DomainUser | null;
  onClose: () => void;
}

/** How strictly a mailbox's incoming mail is filed in Junk (off, normal, strict). */
export function SpamFilterDialog({ domainId, account, onClose }: SpamFilterDialogProps) {
  const { t } = useTranslation();
  const update = useDomainUserUpdate(domainId);
  // What was picked, for which mailbox: each opening starts from that mailbox's level.
  const [picked, setPicked] = useState<{ id: number; level: SpamFilter } | null>(null);
  const level = account && picked?.id === account.id ? picked.level : (account?.spam_filter ?? 'normal');
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const close = () => {
    if (busy) return;
    setFormError(null);
    setPicked(null);
    onClose();
  };

  const save = async () => {
    if (!account) return;
    setFormError(null);
    setBusy(true);
    try {
      const answer = await update.mutateAsync({ account, changes: { spam_filter: level } });
      pushMessage({ type: 'notice', data: answer.message ?? 'domainUsers.saved', timeout: NOTICE_TIMEOUT_MS });
      setPicked(null);
      onClose();
    } catch (error) {
      setFormError(describeError(error, t));
    } finally {
      setBusy(false);
    }
  };

  return (
    <AppModal opened={account !== null} onClose={close} title={t('domainUsers.spamFilter.title', { uid: account?.uid ?? '' })}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void save();
        }}
        noValidate
      >
        <Stack gap="md">
          {formError ? <FormAlert kind="error">{formError}</FormAlert> : null}
          <Text fz="sm" c="dimmed">
            {t('domainUsers.spamFilter.intro')}
          </Text>
          <Radio.Group
            value={level}
            onChange={(value) => {
              if (account) setPicked({ id: account.id, level: value as SpamFilter });
            }}
            label={t('domainUsers.spamFilter.label')}
          >
            <Stack gap="sm" mt="xs">
              {SPAM_FILTER_LEVELS.map((option) => (
                <Radio
                  key={option}
                  value={option}
                  label={t(`domainUsers.spamFilter.levels.${option}`)}
                  description={t(`domainUsers.spamFilter.hints.${option}`)}
                />
              ))}
            </Stack>
          </Radio.Group>
          <Text fz="xs" c="dimmed">
            {t('domainUsers.spamFilter.training')}
          </Text>
          <DialogActions
            submitLabel={t('domainUsers.spamFilter.submit')}
            icon={<IconDeviceFloppy size={16} aria-hidden />}
            busy={busy}
            onCancel={close}
          />
        </Stack>
      </form>
    </AppModal>
  );
}
