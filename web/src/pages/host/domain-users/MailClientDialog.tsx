import { Group, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { MAIL_CLIENT_PORTS, type DomainUser } from '@berth/contracts';
import { AppModal } from '../../../components/AppModal.tsx';
import { CopyValueButton } from '../../../components/CopyValueButton.tsx';

interface MailClientDialogProps {
  account: DomainUser | null;
  /** The domain as people write it: the mail host is mail.<domain>, as the MX record proposes. */
  domainText: string;
  onClose: () => void;
}

/**
 * What a mail program (Thunderbird, Outlook, a phone) asks for, for one mailbox: the servers,
 * ports and encryption of IMAP, POP3 and SMTP, and the user name, which is the full address.
 */
export function MailClientDialog({ account, domainText, onClose }: MailClientDialogProps) {
  const { t } = useTranslation();
  const host = `mail.${domainText}`;
  const rows = account
    ? [
        { label: t('domainUsers.client.username'), value: account.uid, copy: true },
        { label: t('domainUsers.client.password'), value: t('domainUsers.client.passwordValue'), copy: false },
        { label: t('domainUsers.client.imap'), value: `${host} · ${MAIL_CLIENT_PORTS.imap} · SSL/TLS`, copy: false },
        { label: t('domainUsers.client.pop3'), value: `${host} · ${MAIL_CLIENT_PORTS.pop3} · SSL/TLS`, copy: false },
        { label: t('domainUsers.client.smtp'), value: `${host} · ${MAIL_CLIENT_PORTS.smtp} · STARTTLS`, copy: false },
        { label: t('domainUsers.client.server'), value: host, copy: true },
      ]
    : [];
  return (
    <AppModal opened={account !== null} onClose={onClose} title={t('domainUsers.client.title', { uid: account?.uid ?? '' })} size="lg">
      <Text fz="sm" c="dimmed" mb="md">
        {t('domainUsers.client.intro')}
      </Text>
      <Table variant="vertical" layout="fixed" withTableBorder data-testid="mail-client-settings">
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={row.label}>
              <Table.Th w={140} ta="left" fz="sm" fw={600} c="dimmed">
                {row.label}
              </Table.Th>
              <Table.Td>
                <Group gap="xs" wrap="nowrap" justify="space-between">
                  <Text fz="sm" style={{ overflowWrap: 'anywhere' }}>
                    {row.value}
                  </Text>
                  {row.copy ? (
                    <CopyValueButton
                      value={row.value}
                      label={t('domainUsers.client.copy', { what: row.label })}
                      copiedLabel={t('domainUsers.client.copied')}
                    />
                  ) : null}
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </AppModal>
  );
}
