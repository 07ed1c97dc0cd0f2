import { useMemo, useState } from 'react';
import { Avatar, Button, FileButton, Group, NativeSelect, Stack, Text, TextInput } from '@mantine/core';
import { IconMail, IconPhoto, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { emailChangePayloadSchema, profileUpdatePayloadSchema, type User } from '@berth/contracts';
import { useAvatar, useEmailChange, useProfileUpdate } from '../../api/account.ts';
import { FormAlert } from '../../forms/FormAlert.tsx';
import { PasswordField } from '../../forms/PasswordField.tsx';
import { useAnswerForm } from '../../forms/useAnswerForm.ts';
import { describeError } from '../../forms/validation.ts';
import { translateServerText } from '../../i18n/i18n.ts';
import { displayName } from '../../shell/UserMenu.tsx';
import { Section } from '../PageHeader.tsx';
import classes from '../Pages.module.css';
import accountClasses from './Account.module.css';
import { countryOptions } from '../../components/countries.ts';

const AVATAR_TYPES = 'image/png,image/jpeg,image/webp,image/gif';

const PROFILE_FIELDS = ['given_name', 'sn', 'phone', 'company', 'vat_id', 'street', 'city', 'postal_code', 'country'] as const;

function profileValues(user: User) {
  const billing = user.billing ?? { company: '', vat_id: '', street: '', city: '', postal_code: '', country: '' };
  return { given_name: user.contact.given_name, sn: user.contact.sn, phone: user.contact.phone[0] ?? '', ...billing };
}

/** The picture beside the name: upload (JPEG, PNG, WebP, GIF up to 5 MB) or remove. */
export function AvatarControl({ user }: { user: User }) {
  const { t } = useTranslation();
  const { upload, remove } = useAvatar();
  const failure = upload.error ?? remove.error;
  return (
    <Stack gap="xs">
      <Group gap="md" wrap="nowrap" className={accountClasses.identity}>
        <Avatar
          src={user.image.url || null}
          name={displayName(user)}
          color="harbor"
          size={64}
          radius="xl"
          alt=""
          data-testid="profile-avatar"
        />
        <div className={accountClasses.identityText}>
          <Text fw={650} fz="lg" className={accountClasses.breakable}>
            {displayName(user)}
          </Text>
          <Text c="dimmed" fz="sm" className={accountClasses.breakable}>
            {user.email}
          </Text>
        </div>
      </Group>
      <Group gap="sm">
        <FileButton
          accept={AVATAR_TYPES}
          onChange={(file) => {
            remove.reset();
            if (file) upload.mutate(file);
          }}
        >
          {(props) => (
            <Button {...props} variant="default" size="xs" leftSection={<IconPhoto size={14} aria-hidden />} loading={upload.isPending}>
              {t('accountPage.avatar.upload')}
            </Button>
          )}
        </FileButton>
        {/* Only an uploaded picture can be removed; the initials are drawn when there is none. */}
        {user.image.custom ? (
          <Button
            variant="subtle"
            color="red"
            size="xs"
            leftSection={<IconTrash size={14} aria-hidden />}
            loading={remove.isPending}
            onClick={() => {
              upload.reset();
              remove.mutate();
            }}
          >
            {t('accountPage.avatar.remove')}
          </Button>
        ) : null}
      </Group>
      <Text fz="xs" c="dimmed">
        {t('accountPage.avatar.hint')}
      </Text>
      {failure ? <FormAlert kind="error">{describeError(failure, t)}</FormAlert> : null}
    </Stack>
  );
}

/** Name, phone and the billing details printed on the invoices issued from now on. */
export function ProfileForm({ user }: { user: User }) {
  const { t, i18n } = useTranslation();
  const update = useProfileUpdate();
  const initial = profileValues(user);
  const { form, onSubmit, formError, done, dismissDone } = useAnswerForm({
    schema: profileUpdatePayloadSchema,
    defaultValues: initial,
    fields: PROFILE_FIELDS,
    send: async (values) => {
      await update.mutateAsync(values);
      return {};
    },
    doneText: t('accountPage.details.saved'),
    afterDone: (values) => values,
  });
  const {
    formState: { errors, isSubmitting },
    register,
  } = form;
  const countries = useMemo(
    () => countryOptions(i18n.language, initial.country, t('accountPage.details.noCountry')),
    [i18n.language, initial.country, t],
  );

  return (
    <Section id="details" title={t('accountPage.details.title')} description={t('accountPage.details.description')}>
      {formError ? <FormAlert kind="error">{formError}</FormAlert> : null}
      {done ? (
        <FormAlert kind="success" onClose={dismissDone}>
          {translateServerText(done)}
        </FormAlert>
      ) : null}
      <form onSubmit={(event) => void onSubmit(event)} noValidate className={accountClasses.detailsForm}>
        <Stack gap="md">
          <div className={accountClasses.fieldRow}>
            <TextInput
              label={t('fields.givenName')}
              autoComplete="given-name"
              required
              error={errors.given_name?.message}
              {...register('given_name')}
            />
            <TextInput label={t('fields.surname')} autoComplete="family-name" required error={errors.sn?.message} {...register('sn')} />
          </div>
          <TextInput
            label={t('accountPage.details.phone')}
            type="tel"
            autoComplete="tel"
            error={errors.phone?.message}
            {...register('phone')}
          />
          <div className={accountClasses.fieldRow}>
            <TextInput
              label={t('accountPage.details.company')}
              autoComplete="organization"
              error={errors.company?.message}
              {...register('company')}
            />
            <TextInput
              label={t('accountPage.details.vatId')}
              description={t('accountPage.details.vatIdHint')}
              autoComplete="off"
              error={errors.vat_id?.message}
              {...register('vat_id')}
            />
          </div>
          <TextInput
            label={t('accountPage.details.street')}
            autoComplete="street-address"
            error={errors.street?.message}
            {...register('street')}
          />
          <div className={accountClasses.fieldRow}>
            <TextInput
              label={t('accountPage.details.postalCode')}
              autoComplete="postal-code"
              error={errors.postal_code?.message}
              {...register('postal_code')}
            />
            <TextInput
              label={t('accountPage.details.city')}
              autoComplete="address-level2"
              error={errors.city?.message}
              {...register('city')}
            />
          </div>
          <NativeSelect
            label={t('accountPage.details.country')}
            data={countries}
            autoComplete="country"
            error={errors.country?.message}
            {...register('country')}
          />
          <div>
            <Button type="submit" loading={isSubmitting}>
              {t('accountPage.details.save')}
            </Button>
          </div>
        </Stack>
      </form>
    </Section>
  );
}

const EMAIL_FIELDS = ['email', 'current_password'] as const;

/** A new sign-in address: the current password, then the link mailed to the new address. */
export function EmailChangeForm({ user }: { user: User }) {
  const { t } = useTranslation();
  const change = useEmailChange();
  const [open, setOpen] = useState(false);
  const empty = { email: '', current_password: '' };
  const { form, onSubmit, formError, done, dismissDone } = useAnswerForm({
    schema: emailChangePayloadSchema,
    defaultValues: empty,
    fields: EMAIL_FIELDS,
    send: async (values) => {
      const answer = await change.mutateAsync(values);
      setOpen(false);
      return answer;
    },
    doneText: t('accountPage.email.sent'),
    afterDone: () => empty,
  });
  const {
    formState: { errors, isSubmitting },
    register,
  } = form;

  return (
    <Section id="email" title={t('accountPage.email.title')} description={t('accountPage.email.description', { email: user.email })}>
      {done ? (
        <FormAlert kind="success" onClose={dismissDone}>
          {translateServerText(done)}
        </FormAlert>
      ) : null}
      {open ? (
        <form onSubmit={(event) => void onSubmit(event)} noValidate className={classes.formNarrow}>
          <Stack gap="md">
            {formError ? <FormAlert kind="error">{formError}</FormAlert> : null}
            <TextInput
              label={t('accountPage.email.new')}
              type="email"
              autoComplete="email"
              required
              error={errors.email?.message}
              {...register('email')}
            />
            <PasswordField
              label={t('fields.currentPassword')}
              autoComplete="current-password"
              error={errors.current_password?.message}
              {...register('current_password')}
            />
            <Group gap="sm">
              <Button type="submit" loading={isSubmitting}>
                {t('accountPage.email.submit')}
              </Button>
              <Button variant="default" onClick={() => setOpen(false)}>
                {t('app.cancel')}
              </Button>
            </Group>
          </Stack>
        </form>
      ) : (
        <div>
          <Button variant="default" leftSection={<IconMail size={16} aria-hidden />} onClick={() => setOpen(true)}>
            {t('accountPage.email.change')}
          </Button>
        </div>
      )}
    </Section>
  );
}
