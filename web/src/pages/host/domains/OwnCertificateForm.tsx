import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Button, Group, Stack, Textarea } from '@mantine/core';
import { IconUpload } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { certificateUploadPayloadSchema, type CertificateUploadPayload } from '@berth/contracts';
import { useCertificateUpload } from '../../../api/certificates.ts';
import { NOTICE_TIMEOUT_MS, pushMessage } from '../../../components/messageStore.ts';
import { FormAlert } from '../../../forms/FormAlert.tsx';
import { formErrorOf, useSchemaResolver } from '../../../forms/validation.ts';
import classes from './Domains.module.css';

const FIELDS = ['certificate', 'private_key'] as const;

/**
 * One's own certificate instead of the one Berth orders: the PEM chain and its key. The server
 * checks the key, the chain, the names and the dates and says on the field what is wrong.
 */
export function OwnCertificateForm({ domainId }: { domainId: number }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const upload = useCertificateUpload(domainId);
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<CertificateUploadPayload>({
    resolver: useSchemaResolver(certificateUploadPayloadSchema),
    defaultValues: { certificate: '', private_key: '' },
  });

  if (!open) {
    return (
      <Group>
        <Button variant="subtle" size="sm" leftSection={<IconUpload size={16} aria-hidden />} onClick={() => setOpen(true)}>
          {t('domains.certificate.own.open')}
        </Button>
      </Group>
    );
  }

  return (
    <form
      noValidate
      aria-label={t('domains.certificate.own.title')}
      onSubmit={form.handleSubmit(async (values) => {
        setFormError(null);
        try {
          const answer = await upload.mutateAsync(values);
          if (answer.message) pushMessage({ type: 'notice', data: answer.message, timeout: NOTICE_TIMEOUT_MS });
          form.reset();
          setOpen(false);
        } catch (error) {
          setFormError(formErrorOf(error, FIELDS, form.setError, t));
        }
      })}
    >
      <Stack gap="sm">
        {formError ? <FormAlert kind="error">{formError}</FormAlert> : null}
        <Textarea
          label={t('domains.certificate.own.certificate')}
          description={t('domains.certificate.own.certificateHint')}
          autosize
          minRows={4}
          maxRows={12}
          spellCheck={false}
          classNames={{ input: classes.mono }}
          error={form.formState.errors.certificate?.message}
          {...form.register('certificate')}
        />
        <Textarea
          label={t('domains.certificate.own.key')}
          description={t('domains.certificate.own.keyHint')}
          autosize
          minRows={4}
          maxRows={8}
          spellCheck={false}
          classNames={{ input: classes.mono }}
          error={form.formState.errors.private_key?.message}
          {...form.register('private_key')}
        />
        <Group gap="sm">
          <Button type="submit" loading={form.formState.isSubmitting} leftSection={<IconUpload size={16} aria-hidden />}>
            {t('domains.certificate.own.submit')}
          </Button>
          <Button variant="default" onClick={() => setOpen(false)}>
            {t('app.cancel')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
