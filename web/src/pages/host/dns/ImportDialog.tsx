import { useState } from 'react';
import { Button, FileButton, Group, List, Stack, Text, Textarea } from '@mantine/core';
import { IconFileImport, IconUpload } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { DNS_ZONE_FILE_MAX } from '@berth/contracts';
import { AppModal } from '../../../components/AppModal.tsx';
import { DialogActions } from '../../../components/DialogActions.tsx';
import { ApiError } from '../../../api/client.ts';
import { useDnsImport } from '../../../api/dns.ts';
import { NOTICE_TIMEOUT_MS, pushMessage } from '../../../components/messageStore.ts';
import { FormAlert } from '../../../forms/FormAlert.tsx';
import { describeError } from '../../../forms/validation.ts';
import classes from '../domain-users/DomainPages.module.css';

interface ImportDialogProps {
  domainId: number;
  zone: string;
  opened: boolean;
  onClose: () => void;
}

/**
 * Paste or choose a BIND zone file (what another DNS host or registrar exports); its records are
 * added to the zone, all or none, and each line the server cannot keep is listed under the text.
 */
export function ImportDialog({ domainId, zone, opened, onClose }: ImportDialogProps) {
  const { t } = useTranslation();
  const importZone = useDnsImport(domainId);
  const [text, setText] = useState('');
  const [lineErrors, setLineErrors] = useState<string[]>([]);
  const [formError, setFormError] = useState<string | null>(null);

  const close = () => {
    setText('');
    setLineErrors([]);
    setFormError(null);
    importZone.reset();
    onClose();
  };
  const choose = async (file: File | null) => {
    if (!file) return;
    if (file.size > DNS_ZONE_FILE_MAX * 4) {
      setLineErrors([t('dns.import.tooLarge')]);
      return;
    }
    setText(await file.text());
    setLineErrors([]);
  };
  const submit = () => {
    setLineErrors([]);
    setFormError(null);
    if (text.trim() === '') {
      setLineErrors([t('validation.required')]);
      return;
    }
    importZone.mutate(text, {
      onSuccess: (answer) => {
        pushMessage({ type: 'notice', data: answer.message, timeout: NOTICE_TIMEOUT_MS });
        close();
      },
      onError: (error) => {
        const lines = error instanceof ApiError ? error.fieldErrors.zone_file : undefined;
        if (lines?.length) setLineErrors(lines);
        else setFormError(describeError(error, t));
      },
    });
  };
  const errorId = 'zone-file-errors';

  return (
    <AppModal opened={opened} onClose={close} title={t('dns.import.title', { zone })} size="xl">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
        noValidate
      >
        <Stack gap="md">
          {formError ? <FormAlert kind="error">{formError}</FormAlert> : null}
          <Text fz="sm" c="dimmed">
            {t('dns.import.intro')}
          </Text>
          <Group justify="space-between" align="center">
            <Text fz="sm" fw={600} component="label" htmlFor="zone-file">
              {t('dns.import.label')}
            </Text>
            <FileButton onChange={(file) => void choose(file)} accept=".zone,.txt,.db,text/plain,text/dns">
              {(props) => (
                <Button {...props} variant="default" size="xs" leftSection={<IconUpload size={14} aria-hidden />}>
                  {t('dns.import.choose')}
                </Button>
              )}
            </FileButton>
          </Group>
          <Textarea
            id="zone-file"
            data-autofocus
            value={text}
            onChange={(event) => {
              setText(event.currentTarget.value);
            }}
            placeholder={`$ORIGIN ${zone}.\n$TTL 3600\nwww  IN  A     192.0.2.10\n@    IN  MX    10 mail.${zone}.`}
            autosize
            minRows={10}
            maxRows={18}
            // One record per line as in the file, so "Line 7" is the seventh line seen.
            wrap="off"
            spellCheck={false}
            autoCapitalize="none"
            autoCorrect="off"
            classNames={{ input: classes.mono }}
            // A red frame marks the field; the text itself stays readable.
            styles={{ input: { color: 'var(--mantine-color-text)' } }}
            error={lineErrors.length > 0}
            aria-invalid={lineErrors.length > 0}
            aria-describedby={lineErrors.length ? errorId : undefined}
          />
          {lineErrors.length ? (
            <List id={errorId} size="sm" c="red.8" spacing={4} data-testid="zone-file-errors">
              {lineErrors.map((line) => (
                <List.Item key={line}>{line}</List.Item>
              ))}
            </List>
          ) : null}
          <DialogActions
            submitLabel={t('dns.import.submit')}
            icon={<IconFileImport size={16} aria-hidden />}
            busy={importZone.isPending}
            onCancel={close}
          />
        </Stack>
      </form>
    </AppModal>
  );
}
