import { useState } from 'react';
import { Button, FileButton, Group, Text } from '@mantine/core';
import { IconPhoto, IconTrash, IconUpload } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { TENANT_LOGO_KINDS, type TenantDetail, type TenantLogoKind } from '@berth/contracts';
import { ApiError } from '../../../api/client.ts';
import { tenantLogoPreviewUrl, useTenantLogoRemove, useTenantLogoUpload } from '../../../api/tenants.ts';
import { NOTICE_TIMEOUT_MS, pushMessage } from '../../../components/messageStore.ts';
import { FormAlert } from '../../../forms/FormAlert.tsx';
import { describeError } from '../../../forms/validation.ts';
import { translateServerText } from '../../../i18n/i18n.ts';
import { Section } from '../../PageHeader.tsx';
import tenantClasses from './Tenants.module.css';

/** What the server takes (tenants/logo.ts); a larger file is refused here before it is sent. */
const LOGO_MAX_BYTES = 2 * 1024 * 1024;
const ACCEPT = 'image/png,image/jpeg,image/webp,image/gif,image/svg+xml,image/avif';

/** The header logo (admin_logo) and the footer logo (admin_logo_footer): preview, upload, remove. */
export function TenantLogos({ tenant }: { tenant: TenantDetail }) {
  const { t } = useTranslation();
  return (
    <Section id="tenant-logos" title={t('tenants.logos.title')} description={t('tenants.logos.description')}>
      <div className={tenantClasses.logos}>
        {TENANT_LOGO_KINDS.map((kind) => (
          <LogoCard key={kind} tenant={tenant} kind={kind} />
        ))}
      </div>
    </Section>
  );
}

function LogoCard({ tenant, kind }: { tenant: TenantDetail; kind: TenantLogoKind }) {
  const { t } = useTranslation();
  const upload = useTenantLogoUpload(tenant.id);
  const remove = useTenantLogoRemove(tenant.id);
  const [error, setError] = useState<string | null>(null);
  const preview = tenantLogoPreviewUrl(tenant, kind);
  const name = t(`tenants.logos.${kind}`);
  const headingId = `logo-${kind}-heading`;

  const onDone = (message: string | undefined) => {
    pushMessage({ type: 'notice', data: message ?? t('tenants.saved'), timeout: NOTICE_TIMEOUT_MS });
  };
  const onFailed = (failure: unknown) => {
    if (failure instanceof ApiError && failure.fieldErrors.image?.length) {
      setError(failure.fieldErrors.image.map(translateServerText).join(' '));
    } else {
      setError(describeError(failure, t));
    }
  };

  const onFile = (file: File | null) => {
    setError(null);
    if (!file) return;
    if (file.size > LOGO_MAX_BYTES) {
      setError(t('tenants.logos.tooLarge'));
      return;
    }
    upload.mutate({ kind, file }, { onSuccess: (answer) => onDone(answer.message), onError: onFailed });
  };

  return (
    <section className={tenantClasses.logoCard} aria-labelledby={headingId} data-testid={`logo-${kind}`}>
      <Text id={headingId} component="h3" fw={600} fz="sm">
        {name}
      </Text>
      <div className={tenantClasses.logoPreview}>
        {preview ? (
          <img src={preview} alt={t('tenants.logos.previewAlt', { name, title: tenant.title })} className={tenantClasses.logoImage} />
        ) : (
          <span className={tenantClasses.logoEmpty}>
            <IconPhoto size={28} stroke={1.5} aria-hidden />
            <Text fz="sm" c="dimmed">
              {t('tenants.logos.none')}
            </Text>
          </span>
        )}
      </div>
      {error ? (
        <FormAlert
          kind="error"
          onClose={() => {
            setError(null);
          }}
        >
          {error}
        </FormAlert>
      ) : null}
      <Text fz="xs" c="dimmed">
        {t('tenants.logos.hint')}
      </Text>
      <Group gap="xs">
        <FileButton onChange={onFile} accept={ACCEPT} inputProps={{ 'aria-label': t('tenants.logos.fileLabel', { name }) }}>
          {(props) => (
            <Button
              {...props}
              size="xs"
              variant="default"
              leftSection={<IconUpload size={14} aria-hidden />}
              loading={upload.isPending}
              aria-label={`${preview ? t('tenants.logos.replace') : t('tenants.logos.upload')}: ${name}`}
            >
              {preview ? t('tenants.logos.replace') : t('tenants.logos.upload')}
            </Button>
          )}
        </FileButton>
        {preview ? (
          <Button
            size="xs"
            variant="subtle"
            color="red"
            leftSection={<IconTrash size={14} aria-hidden />}
            loading={remove.isPending}
            aria-label={`${t('tenants.logos.remove')}: ${name}`}
            onClick={() => {
              setError(null);
              remove.mutate(kind, { onSuccess: (answer) => onDone(answer.message), onError: onFailed });
            }}
          >
            {t('tenants.logos.remove')}
          </Button>
        ) : null}
      </Group>
    </section>
  );
}
