import { Alert, Badge, Group, Loader, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconArrowDownLeft, IconArrowUpRight } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { MAIL_LOG_DAYS, type DomainUser, type MailLogEntry } from '@berth/contracts';
import { AppModal } from '../../../components/AppModal.tsx';
import { formatDateTime } from '../../../components/formatDate.ts';
import { describeError } from '../../../forms/validation.ts';
import { useMailLog } from '../../../api/domainUsers.ts';

interface MailLogDialogProps {
  domainId: number;
  /** The mailbox whose log is shown; null closes the dialog. */
  account: DomainUser | null;
  onClose: () => void;
}

const STATUS_COLOR: Record<MailLogEntry['status'], string> = { delivered: 'green', deferred: 'orange', bounced: 'red' };

/** "Where did my mail go": what a mailbox received and sent in the last days, with each delivery's status. */
export function MailLogDialog({ domainId, account, onClose }: MailLogDialogProps) {
  const { t } = useTranslation();
  const log = useMailLog(domainId, account?.id ?? null);
  return (
    <AppModal opened={account !== null} onClose={onClose} title={t('domainUsers.mailLog.title', { uid: account?.uid ?? '' })} size="lg">
      <Text fz="sm" c="dimmed" mb="md">
        {t('domainUsers.mailLog.intro', { days: MAIL_LOG_DAYS })}
      </Text>
      {log.isPending ? (
        <Group justify="center" py="lg">
          <Loader size="sm" aria-label={t('domainUsers.mailLog.loading')} />
        </Group>
      ) : log.isError ? (
        <Alert color="red">{describeError(log.error, t)}</Alert>
      ) : log.data.length === 0 ? (
        <Text fz="sm" ta="center" py="lg">
          {t('domainUsers.mailLog.empty', { days: MAIL_LOG_DAYS })}
        </Text>
      ) : (
        <Stack gap={0} component="ul" data-testid="mail-log" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
          {log.data.map((entry) => (
            <Group
              key={`${entry.at}-${entry.direction}-${entry.peer}`}
              component="li"
              gap="sm"
              wrap="nowrap"
              align="flex-start"
              py="sm"
              style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}
            >
              <ThemeIcon variant="light" color={entry.direction === 'in' ? 'harbor' : 'gray'} radius="xl" size="md" aria-hidden>
                {entry.direction === 'in' ? <IconArrowDownLeft size={16} /> : <IconArrowUpRight size={16} />}
              </ThemeIcon>
              <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
                <Group gap="xs" justify="space-between" wrap="wrap">
                  <Text fz="sm" style={{ overflowWrap: 'anywhere' }}>
                    <Text span c="dimmed" fz="sm">
                      {t(entry.direction === 'in' ? 'domainUsers.mailLog.from' : 'domainUsers.mailLog.to')}{' '}
                    </Text>
                    <Text span fw={600} fz="sm">
                      {entry.peer}
                    </Text>
                  </Text>
                  <Badge variant="light" color={STATUS_COLOR[entry.status]} radius="sm">
                    {t(`domainUsers.mailLog.status.${entry.status}`)}
                  </Badge>
                </Group>
                <Text fz="xs" c="dimmed">
                  <time dateTime={entry.at}>{formatDateTime(entry.at)}</time>
                </Text>
                {entry.detail ? (
                  <Text fz="xs" style={{ overflowWrap: 'anywhere' }}>
                    {entry.detail}
                  </Text>
                ) : null}
              </Stack>
            </Group>
          ))}
        </Stack>
      )}
    </AppModal>
  );
}
