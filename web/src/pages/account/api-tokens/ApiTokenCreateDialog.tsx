import { useState } from 'react';
import { Button, Checkbox, Group, NativeSelect, Stack, Table, Text, Textarea, TextInput } from '@mantine/core';
import { IconKey } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { ADMIN_TOKEN_AREAS, API_TOKEN_AREAS, type ApiTokenScope } from '@berth/contracts';
import { useApiTokenCreate, type ApiTokenCreatedAnswer } from '../../../api/apiTokens.ts';
import { AppModal } from '../../../components/AppModal.tsx';
import { CopyValueButton } from '../../../components/CopyValueButton.tsx';
import { FormAlert } from '../../../forms/FormAlert.tsx';
import { describeError } from '../../../forms/validation.ts';
import classes from '../../host/domain-users/DomainPages.module.css';

const DAY = 24 * 60 * 60 * 1000;
const EXPIRIES = ['30', '90', '365', 'never'] as const;

/** The errors the server gave for `field` and its items (`allowed_ips.2`), as one text. */
const errorsOf = (fieldErrors: Record<string, string[]>, field: string): string | undefined => {
  const texts = Object.entries(fieldErrors)
    .filter(([key]) => key === field || key.startsWith(`${field}.`))
    .flatMap(([, list]) => list);
  return texts.length ? [...new Set(texts)].join(' ') : undefined;
};

/** A new token: name, scopes per area (read/write), expiry and address blocks; then the token, once. */
export function ApiTokenCreateDialog({ opened, isAdmin, onClose }: { opened: boolean; isAdmin: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const create = useApiTokenCreate();
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<Set<ApiTokenScope>>(new Set());
  const [expiry, setExpiry] = useState<(typeof EXPIRIES)[number]>('90');
  const [blocks, setBlocks] = useState('');
  const [created, setCreated] = useState<ApiTokenCreatedAnswer | null>(null);
  const areas = API_TOKEN_AREAS.filter((area) => isAdmin || !ADMIN_TOKEN_AREAS.includes(area));
  const fieldErrors = create.error?.fieldErrors ?? {};

  const close = () => {
    setName('');
    setScopes(new Set());
    setExpiry('90');
    setBlocks('');
    setCreated(null);
    create.reset();
    onClose();
  };
  // An answer's errors are about what was sent: a change makes them stale.
  const edited = () => {
    if (create.isError) create.reset();
  };
  const toggle = (scope: ApiTokenScope, on: boolean) => {
    edited();
    const next = new Set(scopes);
    if (on) next.add(scope);
    else next.delete(scope);
    setScopes(next);
  };
  const submit = () =>
    create.mutate(
      {
        name,
        scopes: [...scopes],
        expires_at: expiry === 'never' ? null : new Date(Date.now() + Number(expiry) * DAY).toISOString(),
        allowed_ips: blocks
          .split(/[\s,]+/)
          .map((block) => block.trim())
          .filter(Boolean),
      },
      { onSuccess: setCreated },
    );

  return (
    <AppModal opened={opened} onClose={close} title={created ? t('apiTokens.created.title') : t('apiTokens.form.title')} size="lg">
      {created ? (
        <Stack gap="md">
          <FormAlert kind="success">{created.message ?? t('apiTokens.created.body')}</FormAlert>
          <Group gap="xs" wrap="nowrap" align="flex-start">
            <code className={classes.dsText} data-testid="new-api-token">
              {created.data.token}
            </code>
            <CopyValueButton value={created.data.token} label={t('apiTokens.created.copy')} copiedLabel={t('apiTokens.created.copied')} />
          </Group>
          <Text fz="sm" c="dimmed">
            {t('apiTokens.created.usage')}
          </Text>
          <code className={classes.dsText}>
            curl -H "Authorization: Bearer {created.data.prefix}…" {window.location.origin}/api/user
          </code>
          <Group justify="flex-end">
            <Button onClick={close}>{t('apiTokens.created.done')}</Button>
          </Group>
        </Stack>
      ) : (
        <form
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            submit();
          }}
        >
          <Stack gap="md">
            {create.isError && !create.error.isValidation ? <FormAlert kind="error">{describeError(create.error, t)}</FormAlert> : null}
            <TextInput
              label={t('apiTokens.form.name')}
              description={t('apiTokens.form.nameHint')}
              value={name}
              onChange={(event) => {
                edited();
                setName(event.currentTarget.value);
              }}
              error={errorsOf(fieldErrors, 'name')}
              required
              data-autofocus
            />
            <div>
              <Text fz="sm" fw={500} id="token-scopes">
                {t('apiTokens.form.scopes')}
              </Text>
              <Text fz="xs" c="dimmed" mb={6}>
                {t('apiTokens.form.scopesHint')}
              </Text>
              <Table aria-labelledby="token-scopes" withRowBorders={false} verticalSpacing={4} className={classes.scopeTable}>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('apiTokens.form.area')}</Table.Th>
                    <Table.Th>{t('apiTokens.form.read')}</Table.Th>
                    <Table.Th>{t('apiTokens.form.write')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {areas.map((area) => (
                    <Table.Tr key={area}>
                      <Table.Td>{t(`apiTokens.areas.${area}`)}</Table.Td>
                      {(['read', 'write'] as const).map((kind) => {
                        const scope: ApiTokenScope = `${area}:${kind}`;
                        return (
                          <Table.Td key={kind}>
                            <Checkbox
                              aria-label={t(`apiTokens.form.${kind}Label`, { area: t(`apiTokens.areas.${area}`) })}
                              checked={scopes.has(scope)}
                              onChange={(event) => toggle(scope, event.currentTarget.checked)}
                            />
                          </Table.Td>
                        );
                      })}
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
              {errorsOf(fieldErrors, 'scopes') ? (
                <Text fz="sm" c="red.8" role="alert">
                  {errorsOf(fieldErrors, 'scopes')}
                </Text>
              ) : null}
            </div>
            <NativeSelect
              label={t('apiTokens.form.expiry')}
              value={expiry}
              onChange={(event) => {
                edited();
                setExpiry(event.currentTarget.value as (typeof EXPIRIES)[number]);
              }}
              data={EXPIRIES.map((value) => ({ value, label: t(`apiTokens.form.expiries.${value}`) }))}
              error={errorsOf(fieldErrors, 'expires_at')}
            />
            <Textarea
              label={t('apiTokens.form.blocks')}
              description={t('apiTokens.form.blocksHint')}
              placeholder="203.0.113.0/24"
              autosize
              minRows={2}
              value={blocks}
              onChange={(event) => {
                edited();
                setBlocks(event.currentTarget.value);
              }}
              error={errorsOf(fieldErrors, 'allowed_ips')}
              spellCheck={false}
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                {t('app.cancel')}
              </Button>
              <Button type="submit" loading={create.isPending} leftSection={<IconKey size={16} aria-hidden />}>
                {t('apiTokens.form.submit')}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </AppModal>
  );
}
