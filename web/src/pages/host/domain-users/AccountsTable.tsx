import { useState } from 'react';
import { ActionIcon, Badge, Button, Menu, Switch } from '@mantine/core';
import {
  IconDots,
  IconExternalLink,
  IconGauge,
  IconHistory,
  IconKey,
  IconMailForward,
  IconPlugConnected,
  IconShieldCheck,
  IconTrash,
} from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { DomainUser } from '@berth/contracts';
import { useDomainUserUpdate } from '../../../api/domainUsers.ts';
import { formatDate, formatDateTime } from '../../../components/formatDate.ts';
import { NOTICE_TIMEOUT_MS, pushMessage } from '../../../components/messageStore.ts';
import { describeError } from '../../../forms/validation.ts';
import { formatQuota } from './accountForms.ts';
import classes from './DomainPages.module.css';

interface AccountsTableProps {
  domainId: number;
  accounts: DomainUser[];
  onResetPassword: (account: DomainUser) => void;
  onEditQuota: (account: DomainUser) => void;
  onDelete: (account: DomainUser) => void;
  onShowSettings: (account: DomainUser) => void;
  onEditAutoreply: (account: DomainUser) => void;
  onEditSpamFilter: (account: DomainUser) => void;
  onShowMailLog: (account: DomainUser) => void;
  /** Roundcube's address (GET /api/host/services), or null where no mail is served. */
  webmailUrl: string | null;
}

/** Webmail's login page with the mailbox's address filled in (Roundcube reads `_user`). */
function webmailLink(base: string, uid: string): string {
  const url = new URL(base);
  url.searchParams.set('_user', uid);
  return url.toString();
}

/** One row per account: uid, quota, an enabled switch, when it was made, and its actions. */
export function AccountsTable({
  domainId,
  accounts,
  onResetPassword,
  onEditQuota,
  onDelete,
  onShowSettings,
  onEditAutoreply,
  onEditSpamFilter,
  onShowMailLog,
  webmailUrl,
}: AccountsTableProps) {
  const { t } = useTranslation();
  const update = useDomainUserUpdate(domainId);
  const [toggling, setToggling] = useState<number | null>(null);

  const toggle = (account: DomainUser, enabled: boolean) => {
    setToggling(account.id);
    update.mutate(
      { account, changes: { enabled } },
      {
        onSuccess: (answer) => {
          pushMessage({ type: 'notice', data: answer.message ?? 'domainUsers.saved', timeout: NOTICE_TIMEOUT_MS });
        },
        onError: (error) => {
          pushMessage({ type: 'error', data: describeError(error, t) });
        },
        onSettled: () => {
          setToggling(null);
        },
      },
    );
  };

  return (
    <table className={classes.table}>
      <thead>
        <tr>
          <th scope="col">{t('domainUsers.columns.uid')}</th>
          <th scope="col">{t('domainUsers.columns.quota')}</th>
          <th scope="col">{t('domainUsers.columns.status')}</th>
          <th scope="col">{t('domainUsers.columns.created')}</th>
          <th scope="col">
            <span className={classes.visuallyHidden}>{t('domainUsers.columns.actions')}</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {accounts.map((account) => (
          <tr key={account.id} data-testid="domain-user-row">
            <th scope="row" className={classes.primaryCell}>
              {account.uid}
            </th>
            <td data-label={t('domainUsers.columns.quota')} className={classes.numberCell}>
              {formatQuota(account.quota_mb)}
            </td>
            <td data-label={t('domainUsers.columns.status')}>
              <div className={classes.statusGroup}>
                <Switch
                  checked={account.enabled}
                  disabled={toggling === account.id}
                  onChange={(event) => {
                    toggle(account, event.currentTarget.checked);
                  }}
                  aria-label={t('domainUsers.toggle', { uid: account.uid })}
                />
                <Badge variant="dot" color={account.enabled ? 'green' : 'gray'} radius="sm" className={classes.badge}>
                  {account.enabled ? t('domainUsers.enabled') : t('domainUsers.disabled')}
                </Badge>
                {account.autoreply ? (
                  <Badge variant="light" color="harbor" radius="sm" className={classes.badge}>
                    {t('domainUsers.autoreply.badge')}
                  </Badge>
                ) : null}
                {account.spam_filter !== 'normal' ? (
                  <Badge variant="light" color={account.spam_filter === 'off' ? 'orange' : 'gray'} radius="sm" className={classes.badge}>
                    {t(`domainUsers.spamFilter.badge.${account.spam_filter}`)}
                  </Badge>
                ) : null}
              </div>
            </td>
            <td data-label={t('domainUsers.columns.created')} className={classes.dimCell}>
              <time dateTime={account.created_at} title={formatDateTime(account.created_at)}>
                {formatDate(account.created_at)}
              </time>
            </td>
            <td className={classes.actionCell}>
              {webmailUrl && account.enabled ? (
                <Button
                  component="a"
                  href={webmailLink(webmailUrl, account.uid)}
                  target="_blank"
                  rel="noopener noreferrer"
                  variant="subtle"
                  size="compact-sm"
                  rightSection={<IconExternalLink size={14} aria-hidden />}
                  aria-label={t('domainUsers.webmail.aria', { uid: account.uid })}
                  className={classes.webmailLink}
                >
                  {t('domainUsers.webmail.label')}
                </Button>
              ) : null}
              <Menu position="bottom-end" withinPortal shadow="md" radius="md">
                <Menu.Target>
                  <ActionIcon variant="subtle" color="gray" size="lg" aria-label={t('domainUsers.actionsFor', { uid: account.uid })}>
                    <IconDots size={18} aria-hidden />
                  </ActionIcon>
                </Menu.Target>
                <Menu.Dropdown>
                  <Menu.Item leftSection={<IconPlugConnected size={16} aria-hidden />} onClick={() => onShowSettings(account)}>
                    {t('domainUsers.actions.settings')}
                  </Menu.Item>
                  <Menu.Item leftSection={<IconHistory size={16} aria-hidden />} onClick={() => onShowMailLog(account)}>
                    {t('domainUsers.mailLog.action')}
                  </Menu.Item>
                  <Menu.Item leftSection={<IconMailForward size={16} aria-hidden />} onClick={() => onEditAutoreply(account)}>
                    {t('domainUsers.actions.autoreply')}
                  </Menu.Item>
                  <Menu.Item leftSection={<IconShieldCheck size={16} aria-hidden />} onClick={() => onEditSpamFilter(account)}>
                    {t('domainUsers.spamFilter.action')}
                  </Menu.Item>
                  <Menu.Item leftSection={<IconKey size={16} aria-hidden />} onClick={() => onResetPassword(account)}>
                    {t('domainUsers.actions.resetPassword')}
                  </Menu.Item>
                  <Menu.Item leftSection={<IconGauge size={16} aria-hidden />} onClick={() => onEditQuota(account)}>
                    {t('domainUsers.actions.quota')}
                  </Menu.Item>
                  <Menu.Divider />
                  <Menu.Item color="red" leftSection={<IconTrash size={16} aria-hidden />} onClick={() => onDelete(account)}>
                    {t('domainUsers.actions.delete')}
                  </Menu.Item>
                </Menu.Dropdown>
              </Menu>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
