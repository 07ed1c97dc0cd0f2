import { Button, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { passwordChangePayloadSchema } from '@berth/contracts';
import { usePasswordChange } from '../../api/account.ts';
import { usePageTitle } from '../../components/usePageTitle.ts';
import { cx } from '../../components/cx.ts';
import { FormAlert } from '../../forms/FormAlert.tsx';
import { NewPasswordFields } from '../../forms/NewPasswordFields.tsx';
import { PasswordField } from '../../forms/PasswordField.tsx';
import { useAnswerForm } from '../../forms/useAnswerForm.ts';
import { withNewPassword } from '../../forms/validation.ts';
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
  usePageTitle(t('passwordPage.title'));
  const { form, onSubmit, formError, done, dismissDone } = useAnswerForm({
    schema,
    defaultValues: EMPTY,
    fields: FIELDS,
    send: (values) => change.mutateAsync(values),
    doneText: t('passwordPage.done'),
    afterDone: () => EMPTY,
  });
  const {
    formState: { errors, isSubmitting },
    register,
  } = form;

  return (
    <div className={cx(classes.page, classes.narrow)}>
      <PageHeader title={t('passwordPage.title')} description={t('passwordPage.description')} />
      {done ? (
        <FormAlert kind="success" onClose={dismissDone}>
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
