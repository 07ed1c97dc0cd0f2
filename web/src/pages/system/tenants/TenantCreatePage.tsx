import { Link, useNavigate } from 'react-router';
import { Button } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useTenantCreate } from '../../../api/tenants.ts';
import { cx } from '../../../components/cx.ts';
import { usePageTitle } from '../../../components/usePageTitle.ts';
import { PageHeader, Section } from '../../PageHeader.tsx';
import { TenantForm } from './TenantForm.tsx';
import classes from '../../Pages.module.css';

/** /system/tenants/new: then on to the new tenant's page for its logos and host admins. */
export function TenantCreatePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const create = useTenantCreate();
  usePageTitle(t('tenants.create.title'));

  return (
    <div className={cx(classes.page, classes.narrow)}>
      <PageHeader title={t('tenants.create.title')} description={t('tenants.create.description')} actions={<BackToTenants />} />
      <Section id="tenant-settings" title={t('tenants.edit.settings')}>
        <TenantForm
          submitLabel={t('tenants.create.submit')}
          onSubmit={(payload) => create.mutateAsync(payload)}
          onSaved={(answer) => {
            void navigate(`/system/tenants/${answer.data.id}`, { state: { message: answer.message ?? t('tenants.saved') } });
          }}
        />
      </Section>
    </div>
  );
}

export function BackToTenants() {
  const { t } = useTranslation();
  return (
    <Button component={Link} to="/system/tenants" variant="default" leftSection={<IconArrowLeft size={16} aria-hidden />}>
      {t('tenants.list.back')}
    </Button>
  );
}
