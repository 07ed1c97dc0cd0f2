import { useState } from 'react';
import { Badge, Button, Group, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconKey, IconPlus, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { ApiToken } from '@berth/contracts';
import { useApiTokenRevoke, useApiTokens } from '../../../api/apiTokens.ts';
import { DeleteDialog } from '../../../components/DeleteDialog.tsx';
import { formatDateTime } from '../../../components/formatDate.ts';
import { LoadingRows } from '../../../components/ListStates.tsx';
import { LoadFailed } from '../../../components/LoadFailed.tsx';
import { usePageTitle } from '../../../components/usePageTitle.ts';
import { useMay } from '../../../shell/useSignedInUser.ts';
import { PageHeader, Section } from '../../PageHeader.tsx';
import classes from '../../host/domain-users/DomainPages.module.css';
import { ApiTokenCreateDialog } from './ApiTokenCreateDialog.tsx';

/**
 * /account/api-tokens: personal tokens for scripts (`Authorization: Bearer …`), each with its
 * scopes, expiry and address blocks, made here and shown once; admins also see the tenant's.
 */
export function ApiTokensPage() {
  const { t } = useTranslation();
  const may = useMay();
  const [creating, setCreating] = useState(false);
  usePageTitle(t('apiTokens.title'));
  // The tenant's tokens are part of its security settings.
  const isAdmin = may('security.manage');

  return (
    <>
      <PageHeader
        title={t('apiTokens.title')}
        description={t('apiTokens.description')}
        actions={
          <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setCreating(true)}>
            {t('apiTokens.new')}
          </Button>
        }
      />
      <TokenList scope="own" title={t('apiTokens.own')} />
      {isAdmin ? <TokenList scope="tenant" title={t('apiTokens.tenant')} description={t('apiTokens.tenantHint')} /> : null}
      <ApiTokenCreateDialog opened={creating} isAdmin={isAdmin} onClose={() => setCreating(false)} />
    </>
  );
}

function TokenList({ scope, title, description }: { scope: 'own' | 'tenant'; title: string; description?: string }) {
  const { t } = useTranslation();
  const tokens = useApiTokens(scope);
  const revoke = useApiTokenRevoke(scope);
  const [revoking, setRevoking] = useState<ApiToken | null>(null);
  const id = scope === 'own' ? 'own-tokens' : 'tenant-tokens';

  return (
    <Section
      id={id}
      title={title}
      description={description}
      aside={
        tokens.data ? (
          <Text fz="sm" c="dimmed">
            {t('apiTokens.count', { count: tokens.data.length })}
          </Text>
        ) : null
      }
    >
      {tokens.isPending ? (
        <LoadingRows height={44} />
      ) : tokens.isError ? (
        <LoadFailed error={tokens.error} onRetry={() => void tokens.refetch()} />
      ) : tokens.data.length === 0 ? (
        <Stack align="center" gap="xs" ta="center" className={classes.empty}>
          <ThemeIcon size={48} radius="xl" variant="light" color="gray" aria-hidden>
            <IconKey size={24} stroke={1.6} />
          </ThemeIcon>
          <Text fw={600}>{t('apiTokens.emptyTitle')}</Text>
          <Text fz="sm" c="dimmed" maw={440}>
            {t('apiTokens.empty')}
          </Text>
        </Stack>
      ) : (
        <table className={classes.table}>
          <thead>
            <tr>
              <th scope="col">{t('apiTokens.columns.name')}</th>
              <th scope="col">{t('apiTokens.columns.scopes')}</th>
              <th scope="col">{t('apiTokens.columns.lastUsed')}</th>
              <th scope="col">{t('apiTokens.columns.expires')}</th>
              <th scope="col">
                <span className={classes.visuallyHidden}>{t('apiTokens.columns.actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {tokens.data.map((token) => (
              <tr key={token.id} data-testid="api-token-row">
                <th scope="row" className={classes.primaryCell}>
                  <div>{token.name}</div>
                  <Text fz="xs" c="dimmed" className={classes.mono}>
                    {token.prefix}…
                  </Text>
                  {scope === 'tenant' ? (
                    <Text fz="xs" c="dimmed">
                      {token.owner.display_name}
                    </Text>
                  ) : null}
                </th>
                <td data-label={t('apiTokens.columns.scopes')}>
                  <Group gap={4}>
                    {token.scopes.map((item) => (
                      <Badge key={item} variant="light" radius="sm" className={classes.typeBadge}>
                        {item}
                      </Badge>
                    ))}
                  </Group>
                  {token.allowed_ips.length ? (
                    <Text fz="xs" c="dimmed" mt={4}>
                      {t('apiTokens.onlyFrom', { blocks: token.allowed_ips.join(', ') })}
                    </Text>
                  ) : null}
                </td>
                <td data-label={t('apiTokens.columns.lastUsed')}>
                  {token.last_used_at ? `${formatDateTime(token.last_used_at)} · ${token.last_used_ip ?? ''}` : t('apiTokens.never')}
                </td>
                <td data-label={t('apiTokens.columns.expires')}>
                  {token.expires_at ? formatDateTime(token.expires_at) : t('apiTokens.noExpiry')}
                </td>
                <td className={classes.actionCell}>
                  <Button
                    size="xs"
                    variant="subtle"
                    color="red"
                    leftSection={<IconTrash size={14} aria-hidden />}
                    onClick={() => setRevoking(token)}
                    aria-label={t('apiTokens.revokeLabel', { name: token.name })}
                  >
                    {t('apiTokens.revoke')}
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <DeleteDialog
        target={revoking}
        title={t('apiTokens.revokeTitle')}
        confirmLabel={t('apiTokens.revoke')}
        remove={(token) => revoke.mutateAsync(token)}
        done="apiTokens.revoked"
        onClose={() => setRevoking(null)}
      >
        {revoking ? t('apiTokens.revokeBody', { name: revoking.name }) : null}
      </DeleteDialog>
    </Section>
  );
}
