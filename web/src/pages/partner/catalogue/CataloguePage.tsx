import { useState } from 'react';
import { Button, Skeleton, Stack } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { HostingPlan, TldPrice } from '@berth/contracts';
import { type AdminCatalogue, useAdminCatalogue } from '../../../api/catalogue.ts';
import { usePageTitle } from '../../../components/usePageTitle.ts';
import { useMay, useSignedInUser } from '../../../shell/useSignedInUser.ts';
import { PageHeader, Section } from '../../PageHeader.tsx';
import classes from '../../Pages.module.css';
import { LoadFailed } from '../../../components/LoadFailed.tsx';
import { NotAllowed } from '../../system/tenants/NotAllowed.tsx';
import { BankAccountSection } from './BankAccountSection.tsx';
import { SellerDetailsSection } from './SellerDetailsSection.tsx';
import { PlanDialog } from './PlanDialog.tsx';
import { PlansTable } from './PlansTable.tsx';
import { SettingsForm } from './SettingsForm.tsx';
import { TldDialog } from './TldDialog.tsx';
import { TldsTable } from './TldsTable.tsx';

/**
 * /system/partner/catalogue: what the tenant sells and for how much. Host admins set their
 * tenant's prices (net) and VAT rate; every price is shown with and without VAT. The tenant's
 * bank account decides whether customers may pay by bank transfer.
 */
export function CataloguePage() {
  const { t } = useTranslation();
  const may = useMay();
  usePageTitle(t('catalogue.title'));
  if (!may('catalogue.manage')) return <NotAllowed title={t('catalogue.title')} body={t('catalogue.notAllowed')} />;
  return <CatalogueAdmin />;
}

function CatalogueAdmin() {
  const { t } = useTranslation();
  const catalogue = useAdminCatalogue();

  return (
    <div className={classes.page}>
      <PageHeader title={t('catalogue.title')} description={t('catalogue.description')} />
      {catalogue.isPending ? (
        <Stack gap="sm" aria-busy="true" aria-label={t('catalogue.loading')}>
          <Skeleton height={160} radius="md" />
          <Skeleton height={220} radius="md" />
        </Stack>
      ) : catalogue.isError ? (
        <LoadFailed error={catalogue.error} onRetry={() => void catalogue.refetch()} />
      ) : (
        <Catalogue data={catalogue.data} />
      )}
    </div>
  );
}

function Catalogue({ data }: { data: AdminCatalogue }) {
  const { t } = useTranslation();
  // The shop managed here is the tenant of this host (a host admin's own, as the server decides).
  const { tenant } = useSignedInUser();
  const [plan, setPlan] = useState<HostingPlan | 'new' | null>(null);
  const [tld, setTld] = useState<TldPrice | 'new' | null>(null);
  const { settings } = data;
  return (
    <>
      <Section id="shop-settings" title={t('catalogue.settings.title')} description={t('catalogue.settings.description')}>
        {/* Re-mounted after a save elsewhere changes the settings, so the form shows what is stored. */}
        <SettingsForm key={JSON.stringify(settings)} settings={settings} />
      </Section>
      <BankAccountSection tenantId={tenant.id} />
      <SellerDetailsSection tenantId={tenant.id} />
      <Section
        id="hosting-plans"
        title={t('catalogue.plans.title')}
        description={t('catalogue.pricesHint', { rate: settings.vat_rate })}
        aside={
          <Button
            size="sm"
            leftSection={<IconPlus size={16} aria-hidden />}
            onClick={() => {
              setPlan('new');
            }}
          >
            {t('catalogue.plans.create')}
          </Button>
        }
      >
        <PlansTable plans={data.plans} onEdit={setPlan} />
      </Section>
      <Section
        id="tld-prices"
        title={t('catalogue.tlds.title')}
        description={t('catalogue.tlds.description', { rate: settings.vat_rate })}
        aside={
          <Button
            size="sm"
            leftSection={<IconPlus size={16} aria-hidden />}
            onClick={() => {
              setTld('new');
            }}
          >
            {t('catalogue.tlds.create')}
          </Button>
        }
      >
        <TldsTable tlds={data.tlds} onEdit={setTld} />
      </Section>
      <PlanDialog
        plan={plan}
        settings={settings}
        onClose={() => {
          setPlan(null);
        }}
      />
      <TldDialog
        tld={tld}
        settings={settings}
        onClose={() => {
          setTld(null);
        }}
      />
    </>
  );
}
