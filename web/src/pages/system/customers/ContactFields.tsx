import { Controller, useFormContext } from 'react-hook-form';
import { NativeSelect, Stack, TagsInput, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { LANGUAGES } from '@berth/contracts';
import type { ContactValues } from './customerForms.ts';
import classes from './Customers.module.css';

const PHONES_MAX = 5;

/** E-mail, names, phone numbers and language: shared by "new customer" and the contact data form. */
export function ContactFields() {
  const { t } = useTranslation();
  const {
    control,
    register,
    formState: { errors },
  } = useFormContext<ContactValues>();
  const phoneError = errors.contact?.phone?.message ?? errors.contact?.phone?.find?.((error) => error)?.message;

  return (
    <Stack gap="md">
      <TextInput label={t('fields.email')} type="email" autoComplete="off" required error={errors.email?.message} {...register('email')} />
      <div className={classes.fieldRow}>
        <TextInput
          label={t('fields.givenName')}
          autoComplete="off"
          required
          error={errors.contact?.given_name?.message}
          {...register('contact.given_name')}
        />
        <TextInput
          label={t('fields.surname')}
          autoComplete="off"
          required
          error={errors.contact?.sn?.message}
          {...register('contact.sn')}
        />
      </div>
      <div className={classes.fieldRow}>
        <Controller
          control={control}
          name="contact.phone"
          render={({ field }) => (
            <TagsInput
              label={t('customers.fields.phones')}
              description={t('customers.fields.phonesHint', { max: PHONES_MAX })}
              // The hint under the field, so the input lines up with the language beside it.
              inputWrapperOrder={['label', 'input', 'description', 'error']}
              maxTags={PHONES_MAX}
              clearable={false}
              error={phoneError}
              value={field.value}
              onChange={field.onChange}
              onBlur={field.onBlur}
              ref={field.ref}
              name={field.name}
            />
          )}
        />
        <NativeSelect
          label={t('language.label')}
          error={errors.language?.message}
          data={LANGUAGES.map((code) => ({ value: code, label: t(`language.${code}`) }))}
          {...register('language')}
        />
      </div>
    </Stack>
  );
}
