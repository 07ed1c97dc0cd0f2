import { useMemo } from 'react';
import { Badge, Button, NativeSelect, Skeleton, Stack, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { sellerDetailsPayloadSchema, type SellerDetails } from '@berth/contracts';
import { useSellerDetails, useSellerDetailsSave } from '../../../api/sellerDetails.ts';
import { countryOptions } from '../../../components/countries.ts';
import { cx } from '../../../components/cx.ts';
import { LoadFailed } from '../../../components/LoadFailed.tsx';
import { FormAlert } from '../../../forms/FormAlert.tsx';
import { useAnswerForm } from '../../../forms/useAnswerForm.ts';
import { translateServerText } from '../../../i18n/i18n.ts';
import { Section } from '../../PageHeader.tsx';
import classes from '../../Pages.module.css';
import accountClasses from '../../account/Account.module.css';
import catalogueClasses from './Catalogue.module.css';

const FIELDS = ['legal_name', 'street', 'postal_code', 'city', 'country', 'vat_id', 'email', 'phone'] as const;

const EMPTY: SellerDetails = { legal_name: '', street: '', city: '', postal_code: '', country: '', vat_id: '', email: '', phone: '' };

/**
 * The seller named on the tenant's invoices: legal name, address, VAT ID and contact. Invoices
 * issued while they are set are EN 16931 e-invoices (Factur-X PDF, UBL and CII XML).
 */
export function SellerDetailsSection({ tenantId }: { tenantId: number }) {
  const { t } = useTranslation();
  const details = useSellerDetails(tenantId);
  return (
    <Section
      id="seller-details"
      title={t('catalogue.seller.title')}
      description={t('catalogue.seller.description')}
      aside={
        details.isSuccess ? (
          <Badge color={details.data ? 'green' : 'gray'} variant="dot" radius="sm" className={cx(classes.badge, catalogueClasses.badge)}>
            {details.data ? t('catalogue.seller.eInvoicesOn') : t('catalogue.seller.eInvoicesOff')}
          </Badge>
        ) : null
      }
    >
      {details.isPending ? (
        <Skeleton height={96} radius="md" aria-busy="true" aria-label={t('catalogue.seller.loading')} />
      ) : details.isError ? (
        <LoadFailed error={details.error} onRetry={() => void details.refetch()} />
      ) : (
        <SellerDetailsForm tenantId={tenantId} initial={details.data ?? EMPTY} />
      )}
    </Section>
  );
}

function SellerDetailsForm({ tenantId, initial }: { tenantId: number; initial: SellerDetails }) {
  const { t, i18n } = useTranslation();
  const save = useSellerDetailsSave(tenantId);
  const { form, onSubmit, formError, done, dismissDone } = useAnswerForm({
    schema: sellerDetailsPayloadSchema,
    defaultValues: initial,
    fields: FIELDS,
    send: (values) => save.mutateAsync(values),
    doneText: t('catalogue.seller.saved'),
    afterDone: (values) => ({ ...EMPTY, ...values }),
  });
  const {
    formState: { errors, isSubmitting },
    register,
  } = form;
  const countries = useMemo(
    () => countryOptions(i18n.language, initial.country, initial.country ? undefined : t('catalogue.seller.chooseCountry')),
    [i18n.language, initial.country, t],
  );
  const field = (name: (typeof FIELDS)[number], autoComplete: string, required = true, hint?: string) => (
    <TextInput
      label={t(`catalogue.seller.${name}`)}
      description={hint}
      inputWrapperOrder={['label', 'input', 'description', 'error']}
      autoComplete={autoComplete}
      required={required}
      error={errors[name]?.message}
      {...register(name)}
    />
  );

  return (
    <Stack gap="md">
      {formError ? <FormAlert kind="error">{formError}</FormAlert> : null}
      {done ? (
        <FormAlert kind="success" onClose={dismissDone}>
          {translateServerText(done)}
        </FormAlert>
      ) : null}
      <form onSubmit={(event) => void onSubmit(event)} noValidate data-testid="seller-details-form" className={accountClasses.detailsForm}>
        <Stack gap="md">
          {field('legal_name', 'organization')}
          {field('street', 'address-line1')}
          <div className={accountClasses.fieldRow}>
            {field('postal_code', 'postal-code')}
            {field('city', 'address-level2')}
          </div>
          <NativeSelect
            label={t('catalogue.seller.country')}
            data={countries}
            autoComplete="country"
            required
            error={errors.country?.message}
            {...register('country')}
          />
          {field('vat_id', 'off', false, t('catalogue.seller.vatIdHint'))}
          <div className={accountClasses.fieldRow}>
            {field('email', 'email', false)}
            {field('phone', 'tel', false)}
          </div>
          <div>
            <Button type="submit" loading={isSubmitting}>
              {t('catalogue.seller.save')}
            </Button>
          </div>
        </Stack>
      </form>
    </Stack>
  );
}
