import { useCallback, useRef, useState } from 'react';
import { Link } from 'react-router';
import { useForm } from 'react-hook-form';
import { Anchor, Button, Stack, Text, TextInput } from '@mantine/core';
import { IconMailForward } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { registrationPayloadSchema, type RegistrationPayload } from '@berth/contracts';
import { useRegistration } from '../api/authFlows.ts';
import { usePageTitle } from '../components/usePageTitle.ts';
import { FormAlert } from '../forms/FormAlert.tsx';
import { EmailField } from '../forms/IdentifierField.tsx';
import { NewPasswordFields } from '../forms/NewPasswordFields.tsx';
import { formErrorOf, useSchemaResolver, withNewPassword } from '../forms/validation.ts';
import { translateServerText } from '../i18n/i18n.ts';
import { AgreementCheckbox } from './AgreementCheckbox.tsx';
import { AuthFootnote } from './AuthLinks.tsx';
import { AuthHeading } from './AuthHeading.tsx';
import { Captcha, type CaptchaHandle } from './captcha/Captcha.tsx';
import { ResultHeading } from './ResultHeading.tsx';
import classes from './AuthForms.module.css';

const schema = withNewPassword(registrationPayloadSchema, 'password', 'password_confirmation');

const FIELDS = [
  'contact.given_name',
  'contact.sn',
  'email',
  'password',
  'password_confirmation',
  'terms_agreement',
  'processing_personal_data_agreement',
  'g_recaptcha_response',
] as const;

/** The form's values: the agreements start unticked (the schema accepts only `true`). */
type RegisterValues = Omit<RegistrationPayload, 'terms_agreement' | 'processing_personal_data_agreement'> & {
  terms_agreement: boolean;
  processing_personal_data_agreement: boolean;
};

const EMPTY: RegisterValues = {
  contact: { given_name: '', sn: '' },
  email: '',
  password: '',
  password_confirmation: '',
  terms_agreement: false,
  processing_personal_data_agreement: false,
  g_recaptcha_response: '',
};

/**
 * /register: a customer account. The answer is the same whether the address is new or not; the
 * mailed link activates the account and signs in (docs/decisions/0006-no-account-enumeration.md).
 */
export function RegisterScreen() {
  const { t } = useTranslation();
  const registration = useRegistration();
  const captcha = useRef<CaptchaHandle>(null);
  const [formError, setFormError] = useState<string | null>(null);
  usePageTitle(t('screens.register.title'));

  const resolver = useSchemaResolver<typeof schema, RegisterValues>(schema);
  const {
    control,
    formState: { errors, isSubmitting },
    handleSubmit,
    register,
    setError,
    setValue,
  } = useForm({ resolver, defaultValues: EMPTY });

  // The submit asks the captcha for a fresh token; a server error on it stays until then.
  const onToken = useCallback(
    (token: string) => {
      setValue('g_recaptcha_response', token);
    },
    [setValue],
  );

  // Called from the submit event only: it reads the captcha's ref.
  const submit = async (values: z.output<typeof schema>) => {
    setFormError(null);
    try {
      // A token fresh for this submission (docs/product.md §7: obtained before registration).
      const token = (await captcha.current?.execute()) ?? '';
      await registration.mutateAsync({ ...values, g_recaptcha_response: token });
    } catch (error) {
      setFormError(formErrorOf(error, FIELDS, setError, t));
    }
  };

  if (registration.isSuccess) {
    return (
      <Stack gap="lg">
        <ResultHeading icon={<IconMailForward size={28} stroke={1.6} />} color="green" title={t('register.sentTitle')} />
        <FormAlert kind="success">{translateServerText(registration.data.message)}</FormAlert>
        <Text fz="sm" c="dimmed" ta="center">
          {t('register.sentHint')}
        </Text>
        <Button component={Link} to="/login" size="md" variant="default" fullWidth>
          {t('login.submit')}
        </Button>
      </Stack>
    );
  }

  return (
    <Stack gap="lg">
      <AuthHeading title={t('screens.register.title')} description={t('screens.register.description')} />
      {formError ? <FormAlert kind="error">{formError}</FormAlert> : null}

      <form onSubmit={(event) => void handleSubmit(submit)(event)} noValidate>
        <Stack gap="md">
          <div className={classes.nameRow}>
            <TextInput
              label={t('fields.givenName')}
              autoComplete="given-name"
              autoFocus
              size="md"
              error={errors.contact?.given_name?.message}
              {...register('contact.given_name')}
            />
            <TextInput
              label={t('fields.surname')}
              autoComplete="family-name"
              size="md"
              error={errors.contact?.sn?.message}
              {...register('contact.sn')}
            />
          </div>
          <EmailField error={errors.email?.message} {...register('email')} />
          <NewPasswordFields register={register} errors={errors} password="password" confirmation="password_confirmation" first />
          <Stack gap="sm" mt={4}>
            <AgreementCheckbox
              control={control}
              name="terms_agreement"
              label={t('register.terms')}
              error={errors.terms_agreement?.message}
            />
            <AgreementCheckbox
              control={control}
              name="processing_personal_data_agreement"
              label={t('register.personalData')}
              error={errors.processing_personal_data_agreement?.message}
            />
          </Stack>
          <Captcha ref={captcha} onToken={onToken} error={errors.g_recaptcha_response?.message} />
          <Button type="submit" size="md" fullWidth loading={isSubmitting} mt="xs">
            {t('register.submit')}
          </Button>
        </Stack>
      </form>

      <AuthFootnote>
        {t('register.haveAccount')}{' '}
        <Anchor component={Link} to="/login" fw={600} inherit>
          {t('login.submit')}
        </Anchor>
      </AuthFootnote>
    </Stack>
  );
}
