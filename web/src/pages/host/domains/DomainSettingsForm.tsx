import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { Button, NativeSelect, Stack, TagsInput, TextInput, Title } from '@mantine/core';
import { IconDeviceFloppy, IconFolder } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import {
  domainSettingsSchema,
  MAX_SITE_ALIASES,
  PHP_VERSIONS,
  WWW_REDIRECTS,
  type Domain,
  type DomainUpdatePayload,
} from '@berth/contracts';
import { useDomainUpdate } from '../../../api/domains.ts';
import { useServers } from '../../../api/servers.ts';
import { useMay } from '../../../shell/useSignedInUser.ts';
import { FormAlert } from '../../../forms/FormAlert.tsx';
import { SwitchField } from '../../../forms/SwitchField.tsx';
import { formErrorOf, useSchemaResolver } from '../../../forms/validation.ts';
import { translateServerText } from '../../../i18n/i18n.ts';
import { ExpiryField, expiryFieldSchema, NotesField, notesFieldSchema } from './DomainFields.tsx';
import { expiryInputValue } from './expiry.ts';
import { OwnerPicker } from './OwnerPicker.tsx';
import domainClasses from './Domains.module.css';

const schema = z.object({
  owner_id: z.string(),
  server_id: z.string(),
  expire_at: expiryFieldSchema,
  notes: notesFieldSchema,
  settings: domainSettingsSchema,
});
type Values = z.input<typeof schema>;
const FIELDS = [
  'owner_id',
  'server_id',
  'expire_at',
  'notes',
  'settings.document_root',
  'settings.php_version',
  'settings.ssl_redirect',
  'settings.hsts',
  'settings.aliases',
  'settings.www_redirect',
] as const;

const valuesOf = (domain: Domain): Values => ({
  owner_id: String(domain.owner.id),
  server_id: domain.web?.server_id ? String(domain.web.server_id) : '',
  expire_at: expiryInputValue(domain.expire_at),
  notes: domain.notes,
  settings: domain.settings,
});

/**
 * The PHP versions the site's web server has (its agent reports them), its current one, and off;
 * every known version while no agent has reported (no server yet, the embedded database).
 */
function phpChoices(domain: Domain): readonly string[] {
  const installed = domain.web?.php_versions ?? [];
  if (installed.length === 0) return PHP_VERSIONS;
  return PHP_VERSIONS.filter((version) => version === 'off' || version === domain.settings.php_version || installed.includes(version));
}

/** The list's own error, or the first alias's: TagsInput has one place to say it. */
function aliasError(error: unknown): string | undefined {
  if (!error) return undefined;
  const own = (error as { message?: string }).message;
  if (own) return own;
  const items = Array.isArray(error) ? (error as ({ message?: string } | undefined)[]) : [];
  return items.find((item) => item?.message)?.message;
}

interface DomainSettingsFormProps {
  domain: Domain;
  /** Admins also set the owner and the expiry (the server refuses them from customers). */
  isAdmin: boolean;
}

/** PATCH /api/host/domain/{id}: owner and expiry (admins), notes and web settings (everyone). */
export function DomainSettingsForm({ domain, isAdmin }: DomainSettingsFormProps) {
  const { t } = useTranslation();
  const update = useDomainUpdate(domain.id);
  // Super admins choose the web server (servers.manage); the list is asked only for them.
  const mayPlace = useMay()('servers.manage');
  const servers = useServers(mayPlace);
  const [formError, setFormError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const resolver = useSchemaResolver(schema);
  const {
    control,
    formState: { errors, isSubmitting, dirtyFields },
    handleSubmit,
    register,
    reset,
    setError,
  } = useForm<Values>({ resolver, defaultValues: valuesOf(domain) });

  const onSubmit = handleSubmit(async (values) => {
    setFormError(null);
    setDone(null);
    const payload: DomainUpdatePayload = { notes: values.notes, settings: values.settings };
    if (isAdmin && dirtyFields.owner_id && values.owner_id) payload.owner_id = Number(values.owner_id);
    if (mayPlace && dirtyFields.server_id && values.server_id) payload.server_id = Number(values.server_id);
    // Sent only when changed: a stored time of day is kept unless the date is edited.
    if (isAdmin && dirtyFields.expire_at) payload.expire_at = values.expire_at || null;
    try {
      const answer = await update.mutateAsync(payload);
      reset(valuesOf(answer.data));
      setDone(answer.message ?? t('domains.edit.done', { name: answer.data.text }));
    } catch (error) {
      setFormError(formErrorOf(error, FIELDS, setError, t));
    }
  });

  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate>
      <Stack gap="md">
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
        {formError ? <FormAlert kind="error">{formError}</FormAlert> : null}
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
                  current={domain.owner}
                  description={t('domains.fields.ownerHintEdit')}
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
        {mayPlace && servers.data && domain.web ? (
          <NativeSelect
            label={t('domains.settings.server')}
            description={t('domains.settings.serverHint')}
            data={[
              ...(domain.web.server_id ? [] : [{ value: '', label: '—' }]),
              ...servers.data
                .filter((server) => server.roles.includes('web'))
                .map((server) => ({
                  value: String(server.id),
                  label: t('domains.settings.serverOption', { name: server.name, count: server.sites }),
                })),
            ]}
            error={errors.server_id?.message}
            {...register('server_id')}
          />
        ) : null}

        <Title order={3} fz="md" mt="xs">
          {t('domains.settings.title')}
        </Title>
        <TextInput
          label={t('domains.settings.documentRoot')}
          description={t('domains.settings.documentRootHint')}
          leftSection={<IconFolder size={16} aria-hidden />}
          autoComplete="off"
          spellCheck={false}
          error={errors.settings?.document_root?.message}
          {...register('settings.document_root')}
        />
        <NativeSelect
          label={t('domains.settings.php')}
          data={phpChoices(domain).map((version) => ({
            value: version,
            label: version === 'off' ? t('domains.settings.phpOff') : `PHP ${version}`,
          }))}
          error={errors.settings?.php_version?.message}
          {...register('settings.php_version')}
        />
        <Controller
          control={control}
          name="settings.aliases"
          render={({ field }) => (
            <TagsInput
              label={t('domains.settings.aliases')}
              description={t('domains.settings.aliasesHint', { name: domain.text })}
              value={field.value}
              onChange={field.onChange}
              onBlur={field.onBlur}
              maxTags={MAX_SITE_ALIASES}
              splitChars={[',', ' ']}
              clearable
              error={aliasError(errors.settings?.aliases)}
            />
          )}
        />
        <NativeSelect
          label={t('domains.settings.wwwRedirect')}
          data={WWW_REDIRECTS.map((choice) => ({ value: choice, label: t(`domains.settings.www_${choice}`, { name: domain.text }) }))}
          error={errors.settings?.www_redirect?.message}
          {...register('settings.www_redirect')}
        />
        <div className={domainClasses.switches}>
          {(['ssl_redirect', 'hsts'] as const).map((setting) => (
            <SwitchField
              key={setting}
              control={control}
              name={`settings.${setting}`}
              label={t(`domains.settings.${setting}`)}
              description={t(`domains.settings.${setting}Hint`)}
              error={errors.settings?.[setting]?.message}
            />
          ))}
        </div>
        <div className={domainClasses.formActions}>
          <Button type="submit" loading={isSubmitting} leftSection={<IconDeviceFloppy size={16} aria-hidden />}>
            {t('domains.edit.submit')}
          </Button>
        </div>
      </Stack>
    </form>
  );
}
