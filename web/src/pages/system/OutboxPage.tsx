import { useMemo, useState } from 'react';
import { Anchor, Button, Text } from '@mantine/core';
import { IconInbox, IconRefresh } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { OutboxMail } from '@berth/contracts';
import { useOutbox } from '../../api/account.ts';
import { RelativeTime } from '../../components/RelativeTime.tsx';
import { usePageTitle } from '../../components/usePageTitle.ts';
import { useMay } from '../../shell/useSignedInUser.ts';
import { NotAllowedPage } from '../NotAllowedPage.tsx';
import { PageHeader, Section } from '../PageHeader.tsx';
import { OutboxMailModal } from './OutboxMailModal.tsx';
import classes from '../Pages.module.css';
import outboxClasses from './Outbox.module.css';
import { EmptyState, LoadingRows } from '../../components/ListStates.tsx';
import { LoadFailed } from '../../components/LoadFailed.tsx';

/**
 * /system/outbox: without SMTP_URL the server keeps every mail here instead of sending it, so
 * a super admin can pass on verification and reset links. Newest first.
 */
export function OutboxPage() {
  const { t } = useTranslation();
  const may = useMay()('outbox.view');
  // Only who may read it is asked (the server would answer 403).
  const outbox = useOutbox(may);
  const [openId, setOpenId] = useState<number | null>(null);
  usePageTitle(t('outbox.title'));

  const mails = useMemo(
    () => [...(outbox.data ?? [])].sort((a, b) => new Date(b.created_at).getTime() - new Date(a.created_at).getTime() || b.id - a.id),
    [outbox.data],
  );
  const open = mails.find((mail) => mail.id === openId) ?? null;

  if (!may) return <NotAllowedPage title={t('outbox.title')} />;

  return (
    <div className={classes.page}>
      <PageHeader
        title={t('outbox.title')}
        description={t('outbox.description')}
        actions={
          <Button
            variant="default"
            leftSection={<IconRefresh size={16} aria-hidden />}
            loading={outbox.isFetching && !outbox.isPending}
            onClick={() => void outbox.refetch()}
          >
            {t('outbox.refresh')}
          </Button>
        }
      />
      <Section
        id="mails"
        title={t('outbox.listTitle')}
        aside={
          outbox.isSuccess ? (
            <Text fz="sm" c="dimmed">
              {t('outbox.count', { count: mails.length })}
            </Text>
          ) : null
        }
      >
        {outbox.isPending ? (
          <LoadingRows height={48} />
        ) : outbox.isError ? (
          <LoadFailed error={outbox.error} onRetry={() => void outbox.refetch()} />
        ) : mails.length === 0 ? (
          <EmptyState icon={<IconInbox size={24} stroke={1.6} />} title={t('outbox.emptyTitle')}>
            {t('outbox.empty')}
          </EmptyState>
        ) : (
          <table className={outboxClasses.table}>
            <thead>
              <tr>
                <th scope="col">{t('outbox.to')}</th>
                <th scope="col">{t('outbox.subject')}</th>
                <th scope="col">{t('outbox.date')}</th>
              </tr>
            </thead>
            <tbody>
              {mails.map((mail) => (
                <MailRow
                  key={mail.id}
                  mail={mail}
                  onOpen={() => {
                    setOpenId(mail.id);
                  }}
                />
              ))}
            </tbody>
          </table>
        )}
      </Section>
      <OutboxMailModal
        mail={open}
        onClose={() => {
          setOpenId(null);
        }}
      />
    </div>
  );
}

function MailRow({ mail, onOpen }: { mail: OutboxMail; onOpen: () => void }) {
  return (
    <tr>
      <td className={outboxClasses.to}>{mail.to}</td>
      <td className={outboxClasses.subject}>
        {/* The subject opens the mail; the whole row is clickable for the mouse. */}
        <Anchor component="button" type="button" fw={600} fz="sm" onClick={onOpen} className={outboxClasses.open}>
          {mail.subject}
        </Anchor>
      </td>
      <td className={outboxClasses.date}>
        <RelativeTime iso={mail.created_at} />
      </td>
    </tr>
  );
}
