import { useState } from 'react';
import { Link } from 'react-router';
import { Anchor, Button, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconInfoCircle, IconMailbox, IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { usePageHost } from '../../../prerender/serverViewport.ts';
import type { Domain, DomainUser } from '@berth/contracts';
import { useDomainUserDelete, useDomainUsers } from '../../../api/domainUsers.ts';
import { Section } from '../../PageHeader.tsx';
import { AccountCreateDialog } from './AccountCreateDialog.tsx';
import { AccountsTable } from './AccountsTable.tsx';
import { DeleteDialog } from '../../../components/DeleteDialog.tsx';
import { DomainPageFrame, useDomainIdParam } from './DomainPageFrame.tsx';
import { PasswordResetDialog } from './PasswordResetDialog.tsx';
import { QuotaDialog } from './QuotaDialog.tsx';
import { SpamFilterDialog } from './SpamFilterDialog.tsx';
import { MailLogDialog } from './MailLogDialog.tsx';
import { MailClientDialog } from './MailClientDialog.tsx';
import { AutoreplyDialog } from './AutoreplyDialog.tsx';
import classes from './DomainPages.module.css';
import { LoadingRows, LoadMore } from '../../../components/ListStates.tsx';
import { LoadFailed } from '../../../components/LoadFailed.tsx';
import { ServingNotice } from '../../../components/ServingNotice.tsx';
import { useHostingServices } from '../../../api/services.ts';

/** /host/domain/{id}/users: the domain's mailbox/FTP accounts. */
export function DomainUsersPage() {
  const { t } = useTranslation();
  const domainId = useDomainIdParam();
  const [creating, setCreating] = useState(false);
  // The accounts load alongside the domain rather than after it.
  useDomainUsers(domainId ?? 0, domainId !== null);

  return (
    <DomainPageFrame
      domainId={domainId}
      pageName={t('domainUsers.pageName')}
      title={(domain) => t('domainUsers.title', { domain })}
      description={t('domainUsers.description')}
      actions={() => (
        <Button
          leftSection={<IconPlus size={16} aria-hidden />}
          onClick={() => {
            setCreating(true);
          }}
        >
          {t('domainUsers.add')}
        </Button>
      )}
    >
      {(domain) => (
        <>
          <ServingNotice service="mail" />
          <Accounts domain={domain} onCreate={() => setCreating(true)} />
          <AccountCreateDialog
            opened={creating}
            onClose={() => {
              setCreating(false);
            }}
            domainId={domain.id}
            domainText={domain.text}
          />
        </>
      )}
    </DomainPageFrame>
  );
}

/** The accounts section: loading, failure, empty state or the table, and its dialogs. */
function Accounts({ domain, onCreate }: { domain: Domain; onCreate: () => void }) {
  const { t } = useTranslation();
  const users = useDomainUsers(domain.id);
  const host = usePageHost();
  const remove = useDomainUserDelete(domain.id);
  const services = useHostingServices();
  const [resetting, setResetting] = useState<DomainUser | null>(null);
  const [editingQuota, setEditingQuota] = useState<DomainUser | null>(null);
  const [deleting, setDeleting] = useState<DomainUser | null>(null);
  const [showing, setShowing] = useState<DomainUser | null>(null);
  const [replying, setReplying] = useState<DomainUser | null>(null);
  const [filtering, setFiltering] = useState<DomainUser | null>(null);
  const [logging, setLogging] = useState<DomainUser | null>(null);
  const accounts = users.data?.pages.flatMap((page) => page.data) ?? [];

  return (
    <Section
      id="accounts"
      title={t('domainUsers.listTitle')}
      aside={
        users.isSuccess && !users.hasNextPage ? (
          <Text fz="sm" c="dimmed">
            {t('domainUsers.count', { count: accounts.length })}
          </Text>
        ) : null
      }
    >
      {users.isPending ? (
        <LoadingRows height={44} />
      ) : users.isError ? (
        <LoadFailed error={users.error} onRetry={() => void users.refetch()} />
      ) : accounts.length === 0 ? (
        <Stack align="center" gap="xs" ta="center" className={classes.empty}>
          <ThemeIcon size={48} radius="xl" variant="light" color="gray" aria-hidden>
            <IconMailbox size={24} stroke={1.6} />
          </ThemeIcon>
          <Text fw={600}>{t('domainUsers.empty.title')}</Text>
          <Text fz="sm" c="dimmed" maw={420}>
            {t('domainUsers.empty.body', { domain: domain.text })}
          </Text>
          <Button mt="xs" variant="light" leftSection={<IconPlus size={16} aria-hidden />} onClick={onCreate}>
            {t('domainUsers.add')}
          </Button>
        </Stack>
      ) : (
        <>
          <AccountsTable
            domainId={domain.id}
            accounts={accounts}
            onResetPassword={setResetting}
            onEditQuota={setEditingQuota}
            onDelete={setDeleting}
            onShowSettings={setShowing}
            onEditAutoreply={setReplying}
            onEditSpamFilter={setFiltering}
            onShowMailLog={setLogging}
            webmailUrl={services.data?.webmail_url ?? null}
          />
          <LoadMore pages={users} label={t('domainUsers.more')} />
        </>
      )}

      <p className={classes.hint}>
        <IconInfoCircle size={16} aria-hidden />
        <span>
          {t('domainUsers.selfService')}{' '}
          <Anchor component={Link} to="/change-password" fz="sm" fw={600}>
            {`${host}/change-password`}
          </Anchor>
        </span>
      </p>

      <MailClientDialog account={showing} domainText={domain.text} onClose={() => setShowing(null)} />
      <AutoreplyDialog domainId={domain.id} account={replying} onClose={() => setReplying(null)} />
      <SpamFilterDialog domainId={domain.id} account={filtering} onClose={() => setFiltering(null)} />
      <MailLogDialog domainId={domain.id} account={logging} onClose={() => setLogging(null)} />
      <PasswordResetDialog
        domainId={domain.id}
        account={resetting}
        onClose={() => {
          setResetting(null);
        }}
      />
      <QuotaDialog
        domainId={domain.id}
        account={editingQuota}
        onClose={() => {
          setEditingQuota(null);
        }}
      />
      <DeleteDialog
        target={deleting}
        title={t('domainUsers.delete.title')}
        confirmLabel={t('domainUsers.delete.confirm')}
        remove={(account) => remove.mutateAsync(account)}
        done="domainUsers.delete.done"
        onClose={() => {
          setDeleting(null);
        }}
      >
        {t('domainUsers.delete.body', { uid: deleting?.uid ?? '' })}
      </DeleteDialog>
    </Section>
  );
}
