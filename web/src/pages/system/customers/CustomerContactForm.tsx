import { useState } from 'react';
import { FormProvider, useForm } from 'react-hook-form';
import { Button, Group, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { customerUpdatePayloadSchema, type Customer } from '@berth/contracts';
import { useCustomerUpdate } from '../../../api/customers.ts';
import { FormAlert } from '../../../forms/FormAlert.tsx';
import { formErrorOf, useSchemaResolver } from '../../../forms/validation.ts';
import { translateServerText } from '../../../i18n/i18n.ts';
import { Section } from '../../PageHeader.tsx';
import { ContactFields } from './ContactFields.tsx';
import { CONTACT_FIELDS, phoneErrorsOnField, type ContactValues } from './customerForms.ts';
import classes from './Customers.module.css';

const valuesOf = (customer: Customer): ContactValues => ({
  email: customer.email,
  contact: { given_name: customer.contact.given_name, sn: customer.contact.sn, phone: customer.contact.phone },
  language: customer.language === 'de' || customer.language === 'cs' ? customer.language : 'en',
});

/** The customer's contact data: e-mail, names, phone numbers, language. */
export function CustomerContactForm({ customer }: { customer: Customer }) {
  const { t } = useTranslation();
  const update = useCustomerUpdate(customer.id);
  const [formError, setFormError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const resolver = useSchemaResolver(customerUpdatePayloadSchema);
  const form = useForm({ resolver, defaultValues: valuesOf(customer) });
  const {
    formState: { isSubmitting, isDirty },
    handleSubmit,
    reset,
    setError,
  } = form;

  const onSubmit = handleSubmit(async (values) => {
    setFormError(null);
    setSaved(null);
    try {
      const answer = await update.mutateAsync(values);
      reset(valuesOf(answer.data));
      setSaved(answer.message ?? t('customers.contact.saved'));
    } catch (error) {
      setFormError(formErrorOf(phoneErrorsOnField(error), CONTACT_FIELDS, setError, t));
    }
  });

  return (
    <Section id="contact" title={t('customers.contact.title')} description={t('customers.contact.description')}>
      {saved ? (
        <FormAlert
          kind="success"
          onClose={() => {
            setSaved(null);
          }}
        >
          {translateServerText(saved)}
        </FormAlert>
      ) : null}
      {formError ? <FormAlert kind="error">{formError}</FormAlert> : null}
      <FormProvider {...form}>
        <form onSubmit={(event) => void onSubmit(event)} noValidate className={classes.form}>
          <Stack gap="md">
            <ContactFields />
            <Group gap="sm">
              <Button type="submit" loading={isSubmitting} disabled={!isDirty}>
                {t('customers.contact.save')}
              </Button>
              {isDirty ? (
                <Button
                  variant="default"
                  onClick={() => {
                    reset(valuesOf(customer));
                    setFormError(null);
                  }}
                >
                  {t('customers.contact.discard')}
                </Button>
              ) : null}
            </Group>
          </Stack>
        </form>
      </FormProvider>
    </Section>
  );
}
