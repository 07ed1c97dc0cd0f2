import { Badge, Button, Group, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck, IconCircleX, IconKey, IconPlus, IconRefresh } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { MailCheck } from '@berth/contracts';
import { useDkimPublish, useDkimRotate, useDnsRecordCreate, type DnsZone } from '../../../api/dns.ts';
import { formatDateTime } from '../../../components/formatDate.ts';
import { NOTICE_TIMEOUT_MS, pushMessage } from '../../../components/messageStore.ts';
import { describeError } from '../../../forms/validation.ts';
import { Section } from '../../PageHeader.tsx';
import pageClasses from '../../Pages.module.css';
import classes from '../domain-users/DomainPages.module.css';

const STATE_LOOK = {
  ok: { color: 'green', icon: IconCircleCheck },
  warning: { color: 'orange', icon: IconAlertTriangle },
  missing: { color: 'red', icon: IconCircleX },
} as const;

const KIND_LABEL = { mx: 'MX', spf: 'SPF', dkim: 'DKIM', dmarc: 'DMARC' } as const;

/** A proposal as a zone file line: `_dmarc TXT "v=DMARC1; p=quarantine"`. */
const proposalText = (proposal: NonNullable<MailCheck['proposal']>) =>
  [proposal.name, proposal.type, proposal.priority ?? '', proposal.type === 'TXT' ? `"${proposal.content}"` : proposal.content]
    .filter((part) => part !== '')
    .join(' ');

/**
 * The records receivers look up before they accept and trust mail from the domain (MX, SPF, DKIM,
 * DMARC), each green (present and correct), orange (present but wrong or weak) or red (missing),
 * with the record Berth proposes and a button that adds it.
 */
export function MailRecordsSection({ domainId, zone }: { domainId: number; zone: DnsZone }) {
  const { t } = useTranslation();
  const create = useDnsRecordCreate(domainId);
  const dkim = useDkimPublish(domainId);
  const rotate = useDkimRotate(domainId);
  const rotation = zone.mail.dkim_rotation;
  const failed = (error: unknown) => pushMessage({ type: 'error', data: describeError(error, t), timeout: NOTICE_TIMEOUT_MS });
  const ready = zone.mail.checks.filter((check) => check.state === 'ok').length;

  const add = (check: MailCheck) => {
    if (!check.proposal) return;
    create.mutate(
      { ...check.proposal, disabled: false },
      {
        onSuccess: () =>
          pushMessage({ type: 'notice', data: t('dns.mail.added', { kind: KIND_LABEL[check.kind] }), timeout: NOTICE_TIMEOUT_MS }),
        onError: failed,
      },
    );
  };
  const rotateKey = () =>
    rotate.mutate(undefined, {
      onSuccess: (answer) => pushMessage({ type: 'notice', data: answer.message ?? t('dns.mail.rotateDone'), timeout: NOTICE_TIMEOUT_MS }),
      onError: failed,
    });
  const publishKey = () =>
    dkim.mutate(undefined, {
      onSuccess: (answer) => pushMessage({ type: 'notice', data: answer.message ?? t('dns.mail.keyDone'), timeout: NOTICE_TIMEOUT_MS }),
      onError: failed,
    });

  return (
    <Section
      id="mail-records"
      title={t('dns.mail.title')}
      description={t('dns.mail.description', { domain: zone.zone })}
      aside={
        <Text fz="sm" c="dimmed">
          {t('dns.mail.summary', { ready, count: zone.mail.checks.length })}
        </Text>
      }
    >
      <ul className={classes.mailChecks} aria-label={t('dns.mail.title')}>
        {zone.mail.checks.map((check) => {
          const look = STATE_LOOK[check.state];
          const Icon = look.icon;
          const label = KIND_LABEL[check.kind];
          return (
            <li key={check.kind} className={classes.mailCheck} data-testid={`mail-check-${check.kind}`} data-state={check.state}>
              <Text fw={600}>{label}</Text>
              <div className={classes.mailCheckBody}>
                <Stack gap={6}>
                  <Group gap="xs" wrap="wrap">
                    <Badge
                      color={look.color}
                      variant="light"
                      radius="sm"
                      className={pageClasses.badge}
                      leftSection={<Icon size={14} aria-hidden />}
                    >
                      {t(`dns.mail.states.${check.state}`)}
                    </Badge>
                    <Text fz="sm">{t(`dns.mail.reason.${check.reason}`, check.params)}</Text>
                  </Group>
                  <Text fz="xs" c="dimmed">
                    {t(`dns.mail.kinds.${check.kind}`)}
                  </Text>
                  {check.proposal ? (
                    <Group gap="xs" wrap="nowrap" align="flex-start">
                      <code className={classes.dsText} data-testid={`mail-proposal-${check.kind}`}>
                        {proposalText(check.proposal)}
                      </code>
                      <Button
                        size="xs"
                        variant="light"
                        leftSection={<IconPlus size={14} aria-hidden />}
                        loading={create.isPending && create.variables.name === check.proposal.name}
                        onClick={() => add(check)}
                        aria-label={t('dns.mail.addLabel', { kind: label })}
                      >
                        {t('dns.mail.add')}
                      </Button>
                    </Group>
                  ) : null}
                  {check.kind === 'dkim' && check.reason !== 'dkim_no_key' && rotation ? (
                    <Text fz="sm" data-testid="dkim-rotation">
                      {rotation.next_selector && rotation.signs_at
                        ? t('dns.mail.rotationNext', { selector: rotation.next_selector, at: formatDateTime(rotation.signs_at) })
                        : rotation.old_selector && rotation.removed_at
                          ? t('dns.mail.rotationOld', { selector: rotation.old_selector, at: formatDateTime(rotation.removed_at) })
                          : null}
                    </Text>
                  ) : null}
                  {check.kind === 'dkim' && check.reason !== 'dkim_no_key' && !rotation ? (
                    <div>
                      <Button
                        size="xs"
                        variant="default"
                        leftSection={<IconRefresh size={14} aria-hidden />}
                        loading={rotate.isPending}
                        onClick={rotateKey}
                      >
                        {t('dns.mail.rotate')}
                      </Button>
                    </div>
                  ) : null}
                  {check.reason === 'dkim_no_key' ? (
                    <div>
                      <Button
                        size="xs"
                        variant="light"
                        leftSection={<IconKey size={14} aria-hidden />}
                        loading={dkim.isPending}
                        onClick={publishKey}
                      >
                        {t('dns.mail.createKey')}
                      </Button>
                    </div>
                  ) : null}
                </Stack>
              </div>
            </li>
          );
        })}
      </ul>
    </Section>
  );
}
