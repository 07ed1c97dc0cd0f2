import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Button, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { passwordChangePayloadSchema } from '@berth/contracts';
import { usePasswordChange } from '../../api/account.ts';
import { usePageTitle } from '../../components/usePageTitle.ts';
import { cx } from '../../components/cx.ts';
import { FormAlert } from '../../forms/FormAlert.tsx';
import { NewPasswordFields } from '../../forms/NewPasswordFields.tsx';
import { PasswordField } from '../../forms/PasswordField.tsx';
import { formErrorOf, useSchemaResolver, withNewPassword } from '../../forms/validation.ts';
import { translateServerText } from '../../i18n/i18n.ts';
import { PageHeader, Section } from '../PageHeader.tsx';
import classes from '../Pages.module.css';

const schema = withNewPassword(passwordChangePayloadSchema, 'password', 'password_confirmation');
const FIELDS = ['current_password', 'password', 'password_confirmation'] as const;
const EMPTY = { current_password: '', password: '', password_confirmation: '' };

/** /password: the signed-in user changes their own password. */
export function PasswordPage() {
  const { t } = useTranslation();
  const change = usePasswordChange();
  const [formError, setFormError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  usePageTitle(t('passwordPage.title'));

  const resolver = useSchemaResolver(schema);
  const {
    formState: { errors, isSubmitting },
    handleSubmit,
    register,
    reset,
    setError,
  } = useForm({ resolver, defaultValues: EMPTY });

  const onSubmit = handleSubmit(async (values) => {
    setFormError(null);
    setDone(null);
    try {
      const answer = await change.mutateAsync(values);
      setDone(answer.message ?? t('passwordPage.done'));
      reset(EMPTY);
    } catch (error) {
      setFormError(formErrorOf(error, FIELDS, setError, t));
    }
  });

  return (
    <div className={cx(classes.page, classes.narrow)}>
      <PageHeader title={t('passwordPage.title')} description={t('passwordPage.description')} />
      {done ? (
        <FormAlert
          kind="success"
          onClose={() => {
            setDone(null);
          }}
        >
          {translateServerText(done)}
        </FormAlert>
      ) : null}
      <Section id="password" title={t('passwordPage.section')}>
        {formError ? <FormAlert kind="error">{formError}</FormAlert> : null}
        <form onSubmit={(event) => void onSubmit(event)} noValidate className={classes.formNarrow}>
          <Stack gap="md">
            <PasswordField
              label={t('fields.currentPassword')}
              autoComplete="current-password"
              error={errors.current_password?.message}
              {...register('current_password')}
            />
            <NewPasswordFields register={register} errors={errors} password="password" confirmation="password_confirmation" />
            <div>
              <Button type="submit" size="md" loading={isSubmitting}>
                {t('changePassword.submit')}
              </Button>
            </div>
          </Stack>
        </form>
      </Section>
    </div>
  );
}
