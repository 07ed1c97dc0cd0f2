import { useState } from 'react';
import { FormProvider, useForm, useWatch } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { Button, Checkbox, Group, NativeSelect, Stack } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { customerCreatePayloadSchema, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@berth/contracts';
import { useCustomerCreate, useTenantOptions } from '../../../api/customers.ts';
import { cx } from '../../../components/cx.ts';
import { usePageTitle } from '../../../components/usePageTitle.ts';
import { FormAlert } from '../../../forms/FormAlert.tsx';
import { NewPasswordFields } from '../../../forms/NewPasswordFields.tsx';
import { formErrorOf, useSchemaResolver, withNewPassword } from '../../../forms/validation.ts';
import { currentLanguage, i18n } from '../../../i18n/i18n.ts';
import { useSignedInUser } from '../../../shell/useSignedInUser.ts';
import { PageHeader, Section } from '../../PageHeader.tsx';
import { ContactFields } from './ContactFields.tsx';
import { CONTACT_FIELDS, phoneErrorsOnField } from './customerForms.ts';
import classes from '../../Pages.module.css';
import customerClasses from './Customers.module.css';

const schema = withNewPassword(
  customerCreatePayloadSchema
    .extend({
      password: z.string().max(PASSWORD_MAX_LENGTH),
      password_confirmation: z.string().max(PASSWORD_MAX_LENGTH),
      /** Mail a link to choose their own password instead of typing one for them. */
      invite: z.boolean(),
    })
    .refine((values) => values.invite || values.password !== '', { path: ['password'], error: () => i18n.t('validation.required') }),
  'password',
  'password_confirmation',
);
const FIELDS = [...CONTACT_FIELDS, 'password', 'password_confirmation', 'tenant_id'] as const;

/** /system/customers/create: a customer invited to choose their password, or given an initial one. */
export function CustomerCreatePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { user, tenant } = useSignedInUser();
  const superAdmin = user.role === 'super_admin';
  const tenants = useTenantOptions(superAdmin);
  const create = useCustomerCreate();
  const [formError, setFormError] = useState<string | null>(null);
  usePageTitle(t('customers.create.title'));

  const resolver = useSchemaResolver(schema);
  const form = useForm({
    resolver,
    defaultValues: {
      email: '',
      contact: { given_name: '', sn: '', phone: [] as string[] },
      password: '',
      password_confirmation: '',
      invite: true,
      language: currentLanguage(),
      // Super admins pick the tenant; it starts at the one they are signed in at.
      ...(superAdmin ? { tenant_id: String(tenant.id) } : {}),
    },
  });
  const {
    formState: { errors, isSubmitting },
    handleSubmit,
    register,
    setError,
    control,
  } = form;
  const invite = useWatch({ control, name: 'invite' });

  const onSubmit = handleSubmit(async (values) => {
    setFormError(null);
    const { password_confirmation: _confirmation, invite, password, ...rest } = values;
    const payload = invite ? rest : { ...rest, password };
    try {
      const answer = await create.mutateAsync(payload);
      await navigate(`/system/customers/${answer.data.id}`, { state: { message: answer.message } });
    } catch (error) {
      setFormError(formErrorOf(phoneErrorsOnField(error), FIELDS, setError, t));
    }
  });

  return (
    <div className={cx(classes.page, classes.narrow)}>
      <Button
        component={Link}
        to="/system/customers"
        variant="subtle"
        size="compact-sm"
        leftSection={<IconArrowLeft size={14} aria-hidden />}
        className={customerClasses.back}
      >
        {t('customers.backToList')}
      </Button>
      <PageHeader title={t('customers.create.title')} description={t('customers.create.description')} />
      <FormProvider {...form}>
        <form onSubmit={(event) => void onSubmit(event)} noValidate>
          <Stack gap="lg">
            {formError ? <FormAlert kind="error">{formError}</FormAlert> : null}
            <Section id="contact" title={t('customers.contact.title')}>
              <ContactFields />
              {superAdmin ? (
                <NativeSelect
                  label={t('customers.fields.tenant')}
                  error={errors.tenant_id?.message}
                  disabled={!tenants.data}
                  data={(tenants.data ?? []).map((tenant) => ({ value: String(tenant.id), label: tenant.title }))}
                  {...register('tenant_id')}
                />
              ) : null}
            </Section>
            <Section id="password" title={t('customers.create.passwordTitle')} description={t('customers.create.passwordDescription')}>
              <Checkbox label={t('customers.create.invite')} description={t('customers.create.inviteHint')} {...register('invite')} />
              {invite ? null : (
                <div className={customerClasses.fieldRow}>
                  <NewPasswordFields
                    register={register}
                    errors={errors}
                    password="password"
                    confirmation="password_confirmation"
                    first
                    required
                    hint={t('customers.fields.passwordHint', { min: PASSWORD_MIN_LENGTH })}
                    hintBelow
                  />
                </div>
              )}
            </Section>
            <Group gap="sm">
              <Button type="submit" size="md" loading={isSubmitting}>
                {t('customers.create.submit')}
              </Button>
              <Button component={Link} to="/system/customers" variant="default" size="md">
                {t('app.cancel')}
              </Button>
            </Group>
          </Stack>
        </form>
      </FormProvider>
    </div>
  );
}
