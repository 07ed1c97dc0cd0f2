import { useParams } from 'react-router';
import { Skeleton, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { idSchema } from '@berth/contracts';
import { useTenantDetail, useTenantUpdate } from '../../../api/tenants.ts';
import { cx } from '../../../components/cx.ts';
import { NOTICE_TIMEOUT_MS, pushMessage } from '../../../components/messageStore.ts';
import { usePageTitle } from '../../../components/usePageTitle.ts';
import { FormAlert } from '../../../forms/FormAlert.tsx';
import { describeError } from '../../../forms/validation.ts';
import { NotFoundPage } from '../../NotFoundPage.tsx';
import { BankAccountSection } from '../../partner/catalogue/BankAccountSection.tsx';
import { SellerDetailsSection } from '../../partner/catalogue/SellerDetailsSection.tsx';
import { PageHeader, Section } from '../../PageHeader.tsx';
import { BackToTenants } from './TenantCreatePage.tsx';
import { TenantAdmins } from './TenantAdmins.tsx';
import { TenantForm } from './TenantForm.tsx';
import { TenantLogos } from './TenantLogos.tsx';
import classes from '../../Pages.module.css';

/** /system/tenants/{id}: settings, logos, host admins and bank account of one tenant. */
export function TenantEditPage() {
  const parsed = idSchema.safeParse(useParams().id);
  if (!parsed.success) return <NotFoundPage />;
  return <TenantEditor id={parsed.data} />;
}

function TenantEditor({ id }: { id: number }) {
  const { t } = useTranslation();
  const tenant = useTenantDetail(id);
  const update = useTenantUpdate(id);
  usePageTitle(tenant.data?.title ?? t('tenants.edit.title'));

  if (tenant.isError && tenant.error.status === 404) return <NotFoundPage />;

  return (
    <div className={cx(classes.page, classes.narrow)}>
      <PageHeader
        title={tenant.data?.title ?? t('tenants.edit.title')}
        description={tenant.data ? t('tenants.edit.description', { id: tenant.data.id }) : undefined}
        actions={<BackToTenants />}
      />
      {tenant.isPending ? (
        <Stack gap="md" aria-busy="true">
          <Skeleton height={320} radius="lg" />
          <Skeleton height={160} radius="lg" />
        </Stack>
      ) : tenant.isError ? (
        <FormAlert kind="error">{describeError(tenant.error, t)}</FormAlert>
      ) : (
        <>
          <Section id="tenant-settings" title={t('tenants.edit.settings')}>
            <TenantForm
              key={tenant.data.id}
              tenant={tenant.data}
              submitLabel={t('tenants.edit.submit')}
              onSubmit={(payload) => update.mutateAsync(payload)}
              onSaved={(answer) => {
                pushMessage({ type: 'notice', data: answer.message ?? t('tenants.saved'), timeout: NOTICE_TIMEOUT_MS });
              }}
            />
          </Section>
          <TenantLogos tenant={tenant.data} />
          <TenantAdmins tenant={tenant.data} />
          <BankAccountSection tenantId={tenant.data.id} />
          <SellerDetailsSection tenantId={tenant.data.id} />
        </>
      )}
    </div>
  );
}
