import { Badge, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { DnsZone } from '../../../api/dns.ts';
import { Section } from '../../PageHeader.tsx';
import { cx } from '../../../components/cx.ts';
import { formatDuration } from './formatDuration.ts';
import pageClasses from '../../Pages.module.css';
import classes from '../domain-users/DomainPages.module.css';

/** The zone's start of authority: its serial (bumped by every change), master and timers, and its name servers. */
export function SoaSection({ zone }: { zone: DnsZone }) {
  const { t } = useTranslation();
  const { soa } = zone;
  const nameServers = zone.records.filter((record) => record.type === 'NS' && record.name === '@').map((record) => record.content);

  return (
    <Section
      id="soa"
      title={t('dns.soa.title')}
      description={t('dns.soa.description')}
      aside={
        <Badge variant="light" radius="sm" className={pageClasses.badge}>
          {zone.zone}
        </Badge>
      }
    >
      <dl className={cx(pageClasses.facts, classes.soaFacts)}>
        <div className={pageClasses.fact}>
          <dt>{t('dns.soa.serial')}</dt>
          <dd className={classes.serial} data-testid="soa-serial">
            {soa.serial}
          </dd>
        </div>
        <div className={pageClasses.fact}>
          <dt>{t('dns.soa.nameServers')}</dt>
          <dd>
            {nameServers.length ? (
              <ul className={classes.nameServers} aria-label={t('dns.soa.nameServers')}>
                {nameServers.map((host) => (
                  <li key={host} className={classes.mono}>
                    {host}
                  </li>
                ))}
              </ul>
            ) : (
              <Text fz="sm" c="dimmed">
                {t('dns.soa.noNameServers')}
              </Text>
            )}
          </dd>
        </div>
        <div className={pageClasses.fact}>
          <dt>{t('dns.soa.primary')}</dt>
          <dd className={classes.mono}>{soa.mname}</dd>
        </div>
        <div className={pageClasses.fact}>
          <dt>{t('dns.soa.contact')}</dt>
          <dd className={classes.mono}>{soa.rname}</dd>
        </div>
        <div className={pageClasses.fact}>
          <dt>{t('dns.soa.timers')}</dt>
          <dd>
            {t('dns.soa.timersValue', {
              refresh: formatDuration(soa.refresh),
              retry: formatDuration(soa.retry),
              expire: formatDuration(soa.expire),
            })}
          </dd>
        </div>
        <div className={pageClasses.fact}>
          <dt>{t('dns.soa.minimum')}</dt>
          <dd>{formatDuration(soa.minimum)}</dd>
        </div>
      </dl>
    </Section>
  );
}
