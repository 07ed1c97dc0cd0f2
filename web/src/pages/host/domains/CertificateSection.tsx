import { Badge, Button, Group, Loader, Stack, Text } from '@mantine/core';
import { IconLock, IconRefresh } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { Certificate, Domain } from '@berth/contracts';
import { useCertificate, useCertificateRenew } from '../../../api/certificates.ts';
import { cx } from '../../../components/cx.ts';
import { formatDate, formatDateTime } from '../../../components/formatDate.ts';
import { NOTICE_TIMEOUT_MS, pushMessage } from '../../../components/messageStore.ts';
import { FormAlert } from '../../../forms/FormAlert.tsx';
import { describeError } from '../../../forms/validation.ts';
import { Section } from '../../PageHeader.tsx';
import { OwnCertificateForm } from './OwnCertificateForm.tsx';
import pageClasses from '../../Pages.module.css';
import classes from './Domains.module.css';

/**
 * The domain's certificate (modules/certificates): issued on its own once Berth serves the
 * domain's DNS; what it covers, who issued it, until when, how the CA checked it, and — when an
 * order failed — the CA's reason and the next try. Hidden where certificates are off.
 */
export function CertificateSection({ domain }: { domain: Domain }) {
  const { t } = useTranslation();
  const certificate = useCertificate(domain.id);
  const renew = useCertificateRenew(domain.id);
  const data = certificate.data;
  // Without a CA (or before Berth serves the zone) the section stays for a site a web server serves: one's own can be used.
  if (!data || (data.state === 'none' && !domain.web?.server)) return null;
  return (
    <Section id="certificate" title={t('domains.certificate.title')} description={t('domains.certificate.description')}>
      <Stack gap="sm" data-testid="domain-certificate" data-state={data.state}>
        <CertificateFacts certificate={data} />
        {renew.isError ? <FormAlert kind="error">{describeError(renew.error, t)}</FormAlert> : null}
        {data.state !== 'pending' && data.state !== 'none' ? (
          <Group gap="sm">
            <Button
              variant="default"
              size="sm"
              leftSection={<IconRefresh size={16} aria-hidden />}
              loading={renew.isPending}
              onClick={() => {
                renew.mutate(undefined, {
                  onSuccess: (answer) => {
                    if (answer.message) pushMessage({ type: 'notice', data: answer.message, timeout: NOTICE_TIMEOUT_MS });
                  },
                });
              }}
            >
              {t('domains.certificate.renewNow')}
            </Button>
          </Group>
        ) : null}
        <OwnCertificateForm domainId={domain.id} />
      </Stack>
    </Section>
  );
}

/** A certificate's state, the CA's reason when an order failed, and what it covers until when (the domain page, the servers page). */
export function CertificateFacts({ certificate: data, noneText }: { certificate: Certificate; noneText?: string }) {
  const { t } = useTranslation();
  const badge = {
    none: { color: 'gray.7', label: t('domains.certificate.none') },
    // Filled in the darker shades: white text on them passes WCAG AA.
    pending: { color: 'blue.8', label: t('domains.certificate.pending') },
    valid: { color: 'teal.9', label: t('domains.certificate.valid') },
    renewing: { color: 'yellow.9', label: t('domains.certificate.renewing') },
    failed: { color: 'red.9', label: t('domains.certificate.failed') },
  }[data.state];

  return (
    <>
      <Group gap="sm" wrap="wrap" align="center">
        <IconLock size={20} stroke={1.6} aria-hidden />
        <Badge
          color={badge.color}
          variant="filled"
          data-testid="certificate-state"
          leftSection={data.state === 'pending' ? <Loader size={10} color="white" /> : null}
        >
          {badge.label}
        </Badge>
        {data.state === 'pending' || data.state === 'none' ? (
          <Text fz="sm" c="dimmed">
            {data.state === 'pending' ? t('domains.certificate.pendingText') : (noneText ?? t('domains.certificate.noneText'))}
          </Text>
        ) : null}
      </Group>
      {data.problem ? <Problem certificate={data} /> : null}
      {data.not_after ? (
        <dl className={cx(pageClasses.facts, classes.facts)}>
          <div className={pageClasses.fact}>
            <dt>{t('domains.certificate.names')}</dt>
            <dd className={classes.mono}>{data.names.join(', ')}</dd>
          </div>
          <div className={pageClasses.fact}>
            <dt>{t('domains.certificate.issuer')}</dt>
            <dd>{data.issuer}</dd>
          </div>
          <div className={pageClasses.fact}>
            <dt>{t('domains.certificate.validity')}</dt>
            <dd>{t('domains.certificate.validityText', { from: formatDate(data.not_before ?? ''), until: formatDate(data.not_after) })}</dd>
          </div>
          <div className={pageClasses.fact}>
            <dt>{t('domains.certificate.method')}</dt>
            <dd>{data.method ? t(`domains.certificate.methods.${data.method}`) : ''}</dd>
          </div>
          {data.renew_at ? (
            <div className={pageClasses.fact}>
              <dt>{t('domains.certificate.renewAt')}</dt>
              <dd>
                <time dateTime={data.renew_at}>{formatDate(data.renew_at)}</time>
              </dd>
            </div>
          ) : null}
        </dl>
      ) : null}
    </>
  );
}

function Problem({ certificate }: { certificate: Certificate }) {
  const { t } = useTranslation();
  return (
    <FormAlert kind={certificate.state === 'failed' ? 'error' : 'info'}>
      <Stack gap={4}>
        <span>{t(certificate.state === 'failed' ? 'domains.certificate.failedText' : 'domains.certificate.renewingText')}</span>
        <span data-testid="certificate-problem">{t('domains.certificate.caSays', { problem: certificate.problem ?? '' })}</span>
        {certificate.next_try_at ? (
          <span>
            <time dateTime={certificate.next_try_at}>
              {t('domains.certificate.nextTry', { time: formatDateTime(certificate.next_try_at) })}
            </time>
          </span>
        ) : null}
      </Stack>
    </FormAlert>
  );
}
