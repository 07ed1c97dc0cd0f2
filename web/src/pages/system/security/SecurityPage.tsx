import { Skeleton, Stack, Switch } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { SecuritySettingsPayload } from '@berth/contracts';
import { useSecuritySettings, useSecuritySettingsUpdate } from '../../../api/security.ts';
import { LoadFailed } from '../../../components/LoadFailed.tsx';
import { NOTICE_TIMEOUT_MS, pushMessage } from '../../../components/messageStore.ts';
import { usePageTitle } from '../../../components/usePageTitle.ts';
import { FormAlert } from '../../../forms/FormAlert.tsx';
import { describeError } from '../../../forms/validation.ts';
import { useMay } from '../../../shell/useSignedInUser.ts';
import { PageHeader, Section } from '../../PageHeader.tsx';
import { NotAllowed } from '../tenants/NotAllowed.tsx';

/**
 * /system/security: who must have a second factor. Host admins require it of their customers,
 * super admins also of every admin. Users without one are then held at /account/2fa after login.
 */
export function SecurityPage() {
  const { t } = useTranslation();
  const may = useMay();
  usePageTitle(t('security.title'));
  if (!may('security.manage')) return <NotAllowed title={t('security.notAllowed.title')} body={t('security.notAllowed.body')} />;
  return <SecuritySettingsForm />;
}

function SecuritySettingsForm() {
  const { t } = useTranslation();
  const settings = useSecuritySettings();
  const update = useSecuritySettingsUpdate();

  const change = (payload: SecuritySettingsPayload) =>
    update.mutate(payload, {
      onSuccess: (answer) => pushMessage({ type: 'notice', data: answer.message ?? t('security.saved'), timeout: NOTICE_TIMEOUT_MS }),
    });
  const fieldError = (field: keyof SecuritySettingsPayload) => update.error?.fieldErrors[field]?.join(' ');

  return (
    <>
      <PageHeader title={t('security.title')} description={t('security.description')} />
      <Section id="two-factor" title={t('security.twoFactor.title')} description={t('security.twoFactor.description')}>
        {settings.isPending ? (
          <Stack gap="md" aria-busy="true">
            <Skeleton height={24} width="60%" radius="sm" />
            <Skeleton height={24} width="50%" radius="sm" />
          </Stack>
        ) : settings.isError ? (
          <LoadFailed error={settings.error} onRetry={() => void settings.refetch()} />
        ) : (
          <Stack gap="lg">
            {update.isError && !update.error.isValidation ? <FormAlert kind="error">{describeError(update.error, t)}</FormAlert> : null}
            <Switch
              checked={settings.data.require_2fa_customers}
              disabled={update.isPending}
              onChange={(event) => change({ require_2fa_customers: event.currentTarget.checked })}
              label={t('security.twoFactor.customers')}
              description={t('security.twoFactor.customersHint')}
              error={fieldError('require_2fa_customers')}
            />
            {settings.data.can_change_admins ? (
              <Switch
                checked={settings.data.require_2fa_admins}
                disabled={update.isPending}
                onChange={(event) => change({ require_2fa_admins: event.currentTarget.checked })}
                label={t('security.twoFactor.admins')}
                description={t('security.twoFactor.adminsHint')}
                error={fieldError('require_2fa_admins')}
              />
            ) : null}
          </Stack>
        )}
      </Section>
    </>
  );
}
