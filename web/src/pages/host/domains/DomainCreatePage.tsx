import { useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { Button, Stack, TextInput } from '@mantine/core';
import { IconArrowLeft, IconPlus, IconShoppingCart, IconWorld } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { domainCreatePayloadSchema, type DomainCreatePayload } from '@berth/contracts';
import { useDomainCreate } from '../../../api/domains.ts';
import { cx } from '../../../components/cx.ts';
import { NOTICE_TIMEOUT_MS, pushMessage } from '../../../components/messageStore.ts';
import { usePageTitle } from '../../../components/usePageTitle.ts';
import { FormAlert } from '../../../forms/FormAlert.tsx';
import { formErrorOf, useSchemaResolver } from '../../../forms/validation.ts';
import { domainOverviewPath } from '../../../shell/domainPath.ts';
import { useSignedInUser } from '../../../shell/useSignedInUser.ts';
import { PageHeader, Section } from '../../PageHeader.tsx';
import { ExpiryField, expiryFieldSchema, NotesField, notesFieldSchema } from './DomainFields.tsx';
import { punycodeOf } from './expiry.ts';
import { OwnerPicker } from './OwnerPicker.tsx';
import classes from '../../Pages.module.css';
import domainClasses from './Domains.module.css';

const schema = z.object({
  name: domainCreatePayloadSchema.shape.name,
  owner_id: z.string(),
  expire_at: expiryFieldSchema,
  notes: notesFieldSchema,
});
type Values = z.input<typeof schema>;
const FIELDS = ['name', 'owner_id', 'expire_at', 'notes'] as const;
const EMPTY: Values = { name: '', owner_id: '', expire_at: '', notes: '' };

/**
 * /host/domain/create: a customer adds a domain of their own; an admin also picks the owner among
 * their customers and may set the expiry. The server stores the name in punycode.
 */
export function DomainCreatePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { user } = useSignedInUser();
  const isAdmin = user.role !== 'customer';
  const create = useDomainCreate();
  const [formError, setFormError] = useState<string | null>(null);
  usePageTitle(t('domains.create.title'));

  const resolver = useSchemaResolver(schema);
  const {
    control,
    formState: { errors, isSubmitting },
    handleSubmit,
    register,
    setError,
  } = useForm<Values>({ resolver, defaultValues: EMPTY });
  const name = useWatch({ control, name: 'name' });
  const ascii = punycodeOf(name);
  const showAscii = ascii !== undefined && ascii !== name.trim().toLowerCase().replace(/\.$/, '');

  const onSubmit = handleSubmit(async (values) => {
    setFormError(null);
    const payload: DomainCreatePayload = { name: values.name, notes: values.notes };
    // Owner and expiry are the admins' (the server refuses them from customers).
    if (isAdmin && values.owner_id) payload.owner_id = Number(values.owner_id);
    if (isAdmin && values.expire_at) payload.expire_at = values.expire_at;
    try {
      const answer = await create.mutateAsync(payload);
      pushMessage({
        type: 'notice',
        data: answer.message ?? t('domains.create.done', { name: answer.data.text }),
        timeout: NOTICE_TIMEOUT_MS,
      });
      await navigate(domainOverviewPath(answer.data.id));
    } catch (error) {
      setFormError(formErrorOf(error, FIELDS, setError, t));
    }
  });

  return (
    <div className={cx(classes.page, classes.narrow)}>
      <PageHeader
        title={t('domains.create.title')}
        description={isAdmin ? t('domains.create.descriptionAdmin') : t('domains.create.description')}
        actions={
          // A new name is registered through the shop (a customer adds here only names they hold).
          isAdmin ? undefined : (
            <Button
              component={Link}
              to="/shop"
              state={{ scrollTo: 'domain-search' }}
              variant="default"
              leftSection={<IconShoppingCart size={16} aria-hidden />}
            >
              {t('domains.create.registerLink')}
            </Button>
          )
        }
      />
      <Section id="new-domain" title={t('domains.create.section')}>
        {formError ? <FormAlert kind="error">{formError}</FormAlert> : null}
        <form onSubmit={(event) => void onSubmit(event)} noValidate>
          <Stack gap="md">
            <TextInput
              label={t('domains.fields.name')}
              description={showAscii ? t('domains.fields.nameAscii', { ascii }) : t('domains.fields.nameHint')}
              placeholder={t('domains.fields.namePlaceholder')}
              leftSection={<IconWorld size={16} aria-hidden />}
              autoComplete="off"
              autoCapitalize="none"
              spellCheck={false}
              error={errors.name?.message}
              {...register('name')}
            />
            {isAdmin ? (
              <>
                <Controller
                  control={control}
                  name="owner_id"
                  render={({ field }) => (
                    <OwnerPicker
                      value={field.value}
                      onChange={field.onChange}
                      onBlur={field.onBlur}
                      clearable
                      description={t('domains.fields.ownerHintCreate')}
                      error={errors.owner_id?.message}
                    />
                  )}
                />
                <Controller
                  control={control}
                  name="expire_at"
                  render={({ field }) => (
                    <ExpiryField name={field.name} value={field.value} onChange={field.onChange} error={errors.expire_at?.message} />
                  )}
                />
              </>
            ) : null}
            <NotesField error={errors.notes?.message} {...register('notes')} />
            <div className={domainClasses.formActions}>
              <Button type="submit" loading={isSubmitting} leftSection={<IconPlus size={16} aria-hidden />}>
                {t('domains.create.submit')}
              </Button>
              <Button component={Link} to="/host/domain" variant="default" leftSection={<IconArrowLeft size={16} aria-hidden />}>
                {t('app.cancel')}
              </Button>
            </div>
          </Stack>
        </form>
      </Section>
    </div>
  );
}
