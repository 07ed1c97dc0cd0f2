import { useState } from 'react';
import { Badge, Button, Group, Stack, Text } from '@mantine/core';
import { IconShieldCheck, IconShieldOff } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { DsRecord } from '@berth/contracts';
import { useDnssec, type DnsZone } from '../../../api/dns.ts';
import { ConfirmDialog } from '../../../components/ConfirmDialog.tsx';
import { CopyValueButton } from '../../../components/CopyValueButton.tsx';
import { NOTICE_TIMEOUT_MS, pushMessage } from '../../../components/messageStore.ts';
import { FormAlert } from '../../../forms/FormAlert.tsx';
import { describeError } from '../../../forms/validation.ts';
import { Section } from '../../PageHeader.tsx';
import pageClasses from '../../Pages.module.css';
import classes from '../domain-users/DomainPages.module.css';

/** The DS record as registrars and `dig` write it. */
export const dsText = (zone: string, ds: DsRecord) => `${zone}. IN DS ${ds.key_tag} ${ds.algorithm} ${ds.digest_type} ${ds.digest}`;

/** DNSSEC of the zone: sign it (the name servers sign every answer), show the DS for the registrar, stop signing. */
export function DnssecSection({ domainId, zone }: { domainId: number; zone: DnsZone }) {
  const { t } = useTranslation();
  const dnssec = useDnssec(domainId);
  const [confirming, setConfirming] = useState(false);
  const { signed, ds } = zone.dnssec;

  const sign = async () => {
    const answer = await dnssec.mutateAsync(true);
    pushMessage({ type: 'notice', data: answer.message ?? 'dns.dnssec.signedDone', timeout: NOTICE_TIMEOUT_MS });
  };

  return (
    <Section
      id="dnssec"
      title={t('dns.dnssec.title')}
      description={t('dns.dnssec.description')}
      aside={
        <Badge color={signed ? 'green' : 'gray'} variant="light" radius="sm" className={pageClasses.badge}>
          {signed ? t('dns.dnssec.signed') : t('dns.dnssec.unsigned')}
        </Badge>
      }
    >
      <Stack gap="md">
        {dnssec.isError && !confirming ? <FormAlert kind="error">{describeError(dnssec.error, t)}</FormAlert> : null}
        {signed ? (
          <>
            <Text fz="sm">{t('dns.dnssec.dsHint')}</Text>
            {ds.map((record) => (
              <div key={record.key_tag} className={classes.dsRecord}>
                <dl className={pageClasses.facts}>
                  <div className={pageClasses.fact}>
                    <dt>{t('dns.dnssec.keyTag')}</dt>
                    <dd className={classes.mono}>{record.key_tag}</dd>
                  </div>
                  <div className={pageClasses.fact}>
                    <dt>{t('dns.dnssec.algorithm')}</dt>
                    <dd>{t('dns.dnssec.algorithmValue', { number: record.algorithm })}</dd>
                  </div>
                  <div className={pageClasses.fact}>
                    <dt>{t('dns.dnssec.digestType')}</dt>
                    <dd>{t('dns.dnssec.digestTypeValue', { number: record.digest_type })}</dd>
                  </div>
                </dl>
                <Group gap="xs" wrap="nowrap" align="flex-start" mt="sm">
                  <code className={classes.dsText} data-testid="ds-record">
                    {dsText(zone.zone, record)}
                  </code>
                  <CopyValueButton value={dsText(zone.zone, record)} label={t('dns.dnssec.copy')} copiedLabel={t('dns.dnssec.copied')} />
                </Group>
              </div>
            ))}
            <div>
              <Button
                variant="default"
                color="red"
                leftSection={<IconShieldOff size={16} aria-hidden />}
                onClick={() => setConfirming(true)}
              >
                {t('dns.dnssec.unsign')}
              </Button>
            </div>
          </>
        ) : (
          <div>
            <Button
              leftSection={<IconShieldCheck size={16} aria-hidden />}
              loading={dnssec.isPending}
              onClick={() => void sign().catch(() => undefined)}
            >
              {t('dns.dnssec.sign')}
            </Button>
          </div>
        )}
      </Stack>
      <ConfirmDialog
        opened={confirming}
        title={t('dns.dnssec.unsignTitle')}
        confirmLabel={t('dns.dnssec.unsign')}
        danger
        icon={<IconShieldOff size={16} aria-hidden />}
        onClose={() => setConfirming(false)}
        onConfirm={async () => {
          const answer = await dnssec.mutateAsync(false);
          pushMessage({ type: 'notice', data: answer.message ?? 'dns.dnssec.unsignedDone', timeout: NOTICE_TIMEOUT_MS });
        }}
      >
        {t('dns.dnssec.unsignBody')}
      </ConfirmDialog>
    </Section>
  );
}
