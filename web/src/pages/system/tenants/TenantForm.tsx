import { useState } from 'react';
import { useFieldArray, useForm, useWatch, type Path, type UseFormRegister, type FieldErrors } from 'react-hook-form';
import { ActionIcon, Button, Fieldset, Group, NativeSelect, Stack, Switch, TextInput } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { LANGUAGES, tenantCreatePayloadSchema, tenantUpdatePayloadSchema, type TenantDetail } from '@berth/contracts';
import { ApiError } from '../../../api/client.ts';
import type { TenantAnswer, TenantCreatePayload } from '../../../api/tenants.ts';
import { FormAlert } from '../../../forms/FormAlert.tsx';
import { formErrorOf, useSchemaResolver } from '../../../forms/validation.ts';
import tenantClasses from './Tenants.module.css';

/* The contracts' own rules for one host name, one name server and the public URL. */
const hostSchema = tenantCreatePayloadSchema.shape.hosts.element;
const nameServerSchema = tenantUpdatePayloadSchema.shape.name_servers.unwrap().element;
const secondarySchema = tenantUpdatePayloadSchema.shape.dns_secondaries.unwrap().element;
const publicUrlSchema = tenantUpdatePayloadSchema.shape.public_url.unwrap().unwrap();
const ipv4Schema = tenantUpdatePayloadSchema.shape.hosting_ipv4.unwrap().unwrap();
const ipv6Schema = tenantUpdatePayloadSchema.shape.hosting_ipv6.unwrap().unwrap();
export const HOSTS_MAX = 20;
export const NAME_SERVERS_MAX = 8;

/** The form's shape: lists of `{ value }` (what react-hook-form's field arrays need). */
const formSchema = z
  .object({
    title: tenantCreatePayloadSchema.shape.title,
    hosts: z
      .array(z.object({ value: hostSchema }))
      .min(1)
      .max(HOSTS_MAX),
    external_cart: z.boolean(),
    host_purchases: z.string().trim().max(500),
    name_servers: z.array(z.object({ value: nameServerSchema })).max(NAME_SERVERS_MAX),
    dns_secondaries: z.array(z.object({ value: secondarySchema })).max(NAME_SERVERS_MAX),
    hosting_ipv4: z.union([z.literal(''), ipv4Schema]),
    hosting_ipv6: z.union([z.literal(''), ipv6Schema]),
    default_language: z.enum(LANGUAGES),
    public_url: z.union([z.literal(''), publicUrlSchema]),
  })
  .refine((values) => !values.external_cart || values.host_purchases !== '', {
    path: ['host_purchases'],
    error: 'validation.required',
  });

type FormInput = z.input<typeof formSchema>;
type FormOutput = z.output<typeof formSchema>;

const emptyValues: FormInput = {
  title: '',
  hosts: [{ value: '' }],
  external_cart: false,
  host_purchases: '',
  name_servers: [],
  dns_secondaries: [],
  hosting_ipv4: '',
  hosting_ipv6: '',
  default_language: 'en',
  public_url: '',
};

function valuesOf(tenant: TenantDetail | undefined): FormInput {
  if (!tenant) return emptyValues;
  return {
    title: tenant.title,
    hosts: tenant.hosts.map((value) => ({ value })),
    external_cart: tenant.config.host_purchases !== null,
    host_purchases: tenant.config.host_purchases ?? '',
    name_servers: tenant.name_servers.map((value) => ({ value })),
    dns_secondaries: tenant.dns_secondaries.map((value) => ({ value })),
    hosting_ipv4: tenant.hosting_ipv4 ?? '',
    hosting_ipv6: tenant.hosting_ipv6 ?? '',
    default_language: (LANGUAGES as readonly string[]).includes(tenant.default_language)
      ? (tenant.default_language as FormInput['default_language'])
      : 'en',
    public_url: tenant.public_url ?? '',
  };
}

function payloadOf(values: FormOutput): TenantCreatePayload {
  return {
    title: values.title,
    hosts: values.hosts.map((host) => host.value),
    host_purchases: values.external_cart ? values.host_purchases : null,
    name_servers: values.name_servers.map((server) => server.value),
    dns_secondaries: values.dns_secondaries.map((server) => server.value),
    hosting_ipv4: values.hosting_ipv4 === '' ? null : values.hosting_ipv4,
    hosting_ipv6: values.hosting_ipv6 === '' ? null : values.hosting_ipv6,
    default_language: values.default_language,
    public_url: values.public_url === '' ? null : values.public_url,
  };
}

/** The server names list items `hosts.0`; the form's fields are `hosts.0.value`. */
function toFormErrors(error: unknown): unknown {
  if (!(error instanceof ApiError) || !error.isValidation) return error;
  const errors = Object.fromEntries(
    Object.entries(error.fieldErrors).map(([field, texts]) => [
      /^(hosts|name_servers|dns_secondaries)\.\d+$/.test(field) ? `${field}.value` : field,
      texts,
    ]),
  );
  return new ApiError(error.status, error.message, errors, error.retryAfter);
}

interface TenantFormProps {
  tenant?: TenantDetail;
  submitLabel: string;
  onSubmit: (payload: TenantCreatePayload) => Promise<TenantAnswer>;
  /** After a successful save, with the server's answer. */
  onSaved: (answer: TenantAnswer) => void;
}

/** Title, host names, how the tenant sells, name servers, hosting server, default language and public URL. */
export function TenantForm({ tenant, submitLabel, onSubmit, onSaved }: TenantFormProps) {
  const { t } = useTranslation();
  const [formError, setFormError] = useState<string | null>(null);
  const resolver = useSchemaResolver(formSchema);
  const {
    control,
    formState: { errors, isSubmitting },
    handleSubmit,
    register,
    reset,
    setError,
  } = useForm<FormInput, unknown, FormOutput>({ resolver, defaultValues: valuesOf(tenant) });
  const hosts = useFieldArray({ control, name: 'hosts' });
  const nameServers = useFieldArray({ control, name: 'name_servers' });
  const secondaries = useFieldArray({ control, name: 'dns_secondaries' });
  const externalCart = useWatch({ control, name: 'external_cart' });

  const submit = handleSubmit(async (values) => {
    setFormError(null);
    try {
      const answer = await onSubmit(payloadOf(values));
      reset(valuesOf(answer.data));
      onSaved(answer);
    } catch (error) {
      const fields: Path<FormInput>[] = [
        'title',
        'hosts',
        'host_purchases',
        'name_servers',
        'dns_secondaries',
        'hosting_ipv4',
        'hosting_ipv6',
        'default_language',
        'public_url',
        ...hosts.fields.map((_, index) => `hosts.${index}.value` as const),
        ...nameServers.fields.map((_, index) => `name_servers.${index}.value` as const),
        ...secondaries.fields.map((_, index) => `dns_secondaries.${index}.value` as const),
      ];
      setFormError(formErrorOf(toFormErrors(error), fields, setError, t));
    }
  });

  return (
    <form onSubmit={(event) => void submit(event)} noValidate className={tenantClasses.form}>
      <Stack gap="lg">
        {formError ? <FormAlert kind="error">{formError}</FormAlert> : null}
        <TextInput
          label={t('tenants.fields.title')}
          description={t('tenants.form.titleHint')}
          required
          error={errors.title?.message}
          {...register('title')}
        />

        <ListFieldset
          legend={t('tenants.fields.hosts')}
          hint={t('tenants.form.hostsHint')}
          error={errors.hosts?.message ?? errors.hosts?.root?.message}
          items={hosts.fields}
          name="hosts"
          itemLabel={(n) => t('tenants.form.hostN', { n })}
          removeLabel={(n) => t('tenants.form.removeHost', { n })}
          addLabel={t('tenants.form.addHost')}
          placeholder="panel.example.com"
          minItems={1}
          maxItems={HOSTS_MAX}
          register={register}
          itemErrors={errors.hosts}
          onAdd={() => {
            hosts.append({ value: '' });
          }}
          onRemove={hosts.remove}
        />

        <Stack gap="xs">
          <Switch
            label={t('tenants.form.externalCart')}
            description={externalCart ? t('tenants.form.externalCartOn') : t('tenants.form.externalCartOff')}
            {...register('external_cart')}
          />
          {externalCart ? (
            <TextInput
              label={t('tenants.fields.hostPurchases')}
              description={t('tenants.form.hostPurchasesHint')}
              placeholder="https://shop.example.com/cart"
              required
              error={errors.host_purchases?.message}
              {...register('host_purchases')}
            />
          ) : null}
        </Stack>

        <ListFieldset
          legend={t('tenants.fields.nameServers')}
          hint={t('tenants.form.nameServersHint')}
          error={errors.name_servers?.message ?? errors.name_servers?.root?.message}
          items={nameServers.fields}
          name="name_servers"
          itemLabel={(n) => t('tenants.form.nameServerN', { n })}
          removeLabel={(n) => t('tenants.form.removeNameServer', { n })}
          addLabel={t('tenants.form.addNameServer')}
          placeholder="ns1.example.com"
          minItems={0}
          maxItems={NAME_SERVERS_MAX}
          register={register}
          itemErrors={errors.name_servers}
          onAdd={() => {
            nameServers.append({ value: '' });
          }}
          onRemove={nameServers.remove}
        />

        <ListFieldset
          legend={t('tenants.fields.dnsSecondaries')}
          hint={t('tenants.form.dnsSecondariesHint')}
          error={errors.dns_secondaries?.message ?? errors.dns_secondaries?.root?.message}
          items={secondaries.fields}
          name="dns_secondaries"
          itemLabel={(n) => t('tenants.form.dnsSecondaryN', { n })}
          removeLabel={(n) => t('tenants.form.removeDnsSecondary', { n })}
          addLabel={t('tenants.form.addDnsSecondary')}
          placeholder="192.0.2.53"
          minItems={0}
          maxItems={NAME_SERVERS_MAX}
          register={register}
          itemErrors={errors.dns_secondaries}
          onAdd={() => {
            secondaries.append({ value: '' });
          }}
          onRemove={secondaries.remove}
        />

        <Fieldset
          legend={t('tenants.form.hostingServer')}
          variant="unstyled"
          className={tenantClasses.fieldset}
          classNames={{ legend: tenantClasses.legend }}
          aria-describedby="hosting-server-hint"
        >
          <p id="hosting-server-hint" className={tenantClasses.hint}>
            {t('tenants.form.hostingServerHint')}
          </p>
          <Group grow align="flex-start" wrap="wrap">
            <TextInput
              label={t('tenants.fields.hostingIpv4')}
              placeholder="203.0.113.10"
              error={errors.hosting_ipv4?.message}
              {...register('hosting_ipv4')}
            />
            <TextInput
              label={t('tenants.fields.hostingIpv6')}
              placeholder="2001:db8::10"
              error={errors.hosting_ipv6?.message}
              {...register('hosting_ipv6')}
            />
          </Group>
        </Fieldset>

        <NativeSelect
          label={t('tenants.fields.language')}
          description={t('tenants.form.languageHint')}
          data={LANGUAGES.map((code) => ({ value: code, label: t(`language.${code}`) }))}
          error={errors.default_language?.message}
          {...register('default_language')}
        />
        <TextInput
          type="url"
          label={t('tenants.fields.publicUrl')}
          description={t('tenants.form.publicUrlHint')}
          placeholder="https://panel.example.com"
          error={errors.public_url?.message}
          {...register('public_url')}
        />
        <div>
          <Button type="submit" loading={isSubmitting}>
            {submitLabel}
          </Button>
        </div>
      </Stack>
    </form>
  );
}

interface ListFieldsetProps {
  legend: string;
  hint: string;
  error: string | undefined;
  items: { id: string }[];
  name: 'hosts' | 'name_servers' | 'dns_secondaries';
  itemLabel: (n: number) => string;
  removeLabel: (n: number) => string;
  addLabel: string;
  placeholder: string;
  minItems: number;
  maxItems: number;
  register: UseFormRegister<FormInput>;
  itemErrors: FieldErrors<FormInput>['hosts'] | FieldErrors<FormInput>['name_servers'];
  onAdd: () => void;
  onRemove: (index: number) => void;
}

/** A list of host names: one input per name, each removable, and a button to add one. */
function ListFieldset({
  legend,
  hint,
  error,
  items,
  name,
  itemLabel,
  removeLabel,
  addLabel,
  placeholder,
  minItems,
  maxItems,
  register,
  itemErrors,
  onAdd,
  onRemove,
}: ListFieldsetProps) {
  const hintId = `${name}-hint`;
  const errorId = `${name}-error`;
  return (
    <Fieldset
      legend={legend}
      variant="unstyled"
      className={tenantClasses.fieldset}
      classNames={{ legend: tenantClasses.legend }}
      aria-describedby={error ? `${hintId} ${errorId}` : hintId}
    >
      <p id={hintId} className={tenantClasses.hint}>
        {hint}
      </p>
      <Stack gap="xs">
        {items.map((item, index) => (
          <Group key={item.id} gap="xs" wrap="nowrap" align="flex-start">
            <TextInput
              className={tenantClasses.grow}
              aria-label={itemLabel(index + 1)}
              placeholder={placeholder}
              autoCapitalize="none"
              autoCorrect="off"
              spellCheck={false}
              error={itemErrors?.[index]?.value?.message}
              {...register(`${name}.${index}.value`)}
            />
            <ActionIcon
              variant="subtle"
              color="gray"
              size="lg"
              aria-label={removeLabel(index + 1)}
              disabled={items.length <= minItems}
              onClick={() => {
                onRemove(index);
              }}
            >
              <IconTrash size={18} aria-hidden />
            </ActionIcon>
          </Group>
        ))}
      </Stack>
      {error ? (
        <p id={errorId} className={tenantClasses.error} role="alert">
          {error}
        </p>
      ) : null}
      {items.length < maxItems ? (
        <Button
          variant="subtle"
          size="compact-sm"
          leftSection={<IconPlus size={14} aria-hidden />}
          onClick={onAdd}
          className={tenantClasses.add}
        >
          {addLabel}
        </Button>
      ) : null}
    </Fieldset>
  );
}
