import { Badge, Group, Loader, Progress, Stack, Text } from '@mantine/core';
import { IconWorld } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { Domain } from '@berth/contracts';
import { formatDateTime } from '../../../components/formatDate.ts';
import { numberFormat } from '../../../components/intlFormats.ts';
import { FormAlert } from '../../../forms/FormAlert.tsx';
import { Section } from '../../PageHeader.tsx';
import classes from './Domains.module.css';
import { WebsiteLogs } from './WebsiteLogs.tsx';

/**
 * The website of a proven domain as its web server applied it (agent/, migration 0030): live with
 * the change applied and when, applying (the page asks again until it is not), or why the last
 * change could not be applied while the one before keeps serving.
 */
export function WebsiteSection({ domain, web }: { domain: Domain; web: NonNullable<Domain['web']> }) {
  const { t } = useTranslation();
  const shown = web.server === null ? 'unplaced' : web.state;
  const badge = {
    // Filled in the darker shades: white text on them passes WCAG AA (axe, e2e website.spec.ts).
    live: { color: 'teal.9', label: t('domains.website.live') },
    applying: { color: 'blue.8', label: t('domains.website.applying') },
    error: { color: 'red.9', label: t('domains.website.error') },
    // No web server yet (the embedded database, or `npm run services` not started): nothing to wait for.
    unplaced: { color: 'gray.7', label: t('domains.website.notServed') },
  }[shown];

  return (
    <Section id="website" title={t('domains.website.title')} description={t('domains.website.description')}>
      <Stack gap="sm" data-testid="domain-website" data-state={shown}>
        <Group gap="sm" wrap="nowrap" align="center">
          <IconWorld size={20} stroke={1.6} aria-hidden />
          <a className={classes.mono} href={`http://${domain.name}/`} target="_blank" rel="noreferrer">
            {domain.name}
          </a>
          <Badge
            color={badge.color}
            variant="filled"
            data-testid="website-state"
            leftSection={shown === 'applying' ? <Loader size={10} color="white" /> : null}
          >
            {badge.label}
          </Badge>
        </Group>
        {web.state === 'live' && web.applied_at ? (
          <Text fz="sm" c="dimmed">
            <time dateTime={web.applied_at} title={formatDateTime(web.applied_at)}>
              {t('domains.website.liveText', { server: web.server ?? '', revision: web.revision, time: formatDateTime(web.applied_at) })}
            </time>
          </Text>
        ) : null}
        {web.state === 'applying' ? (
          <Text fz="sm" c="dimmed">
            {web.server ? t('domains.website.applyingText') : t('domains.website.noServer')}
          </Text>
        ) : null}
        {web.state === 'error' ? <FormAlert kind="error">{t('domains.website.errorText', { error: web.error ?? '' })}</FormAlert> : null}
        {web.note ? (
          <Text fz="sm" data-testid="website-note">
            {web.note}
          </Text>
        ) : null}
        <Text fz="sm" data-testid="website-names">
          {t('domains.website.names', { names: servedNames(domain).join(', ') })}
          {domain.settings.www_redirect === 'none'
            ? null
            : ` ${t('domains.website.redirect', redirectOf(domain.text, domain.settings.www_redirect))}`}
        </Text>
        <Text fz="sm">{t('domains.website.folder', { folder: `${domain.settings.document_root}/` })}</Text>
        <DiskUsage disk={web.disk} />
        {shown === 'unplaced' ? null : (
          <>
            <Text fz="sm" fw={600} mt="xs">
              {t('domains.website.logs')}
            </Text>
            <WebsiteLogs domainId={domain.id} />
          </>
        )}
      </Stack>
    </Section>
  );
}

/** What the site's folder holds against the owner's plans' disk; warned from 90 %. */
function DiskUsage({ disk }: { disk: NonNullable<Domain['web']>['disk'] }) {
  const { t, i18n } = useTranslation();
  if (disk.bytes === null) return null;
  const size = (bytes: number) => {
    const units = ['byte', 'kilobyte', 'megabyte', 'gigabyte', 'terabyte'] as const;
    const step = Math.min(units.length - 1, Math.max(0, Math.floor(Math.log(Math.max(bytes, 1)) / Math.log(1024))));
    return numberFormat(i18n.language, { style: 'unit', unit: units[step], unitDisplay: 'short', maximumFractionDigits: 1 }).format(
      bytes / 1024 ** step,
    );
  };
  const quota = disk.quota_mb === null ? null : disk.quota_mb * 1024 * 1024;
  const share = quota === null ? null : Math.min(100, (disk.bytes / quota) * 100);
  return (
    <Stack gap={4} data-testid="website-disk">
      <Text fz="sm">
        {quota === null
          ? t('domains.website.disk', { used: size(disk.bytes) })
          : t('domains.website.diskOf', { used: size(disk.bytes), quota: size(quota) })}
      </Text>
      {share !== null ? (
        <Progress
          className={classes.diskBar}
          value={share}
          color={share >= 90 ? 'red.8' : 'blue.7'}
          aria-label={t('domains.website.diskShare', { share: Math.round(share) })}
        />
      ) : null}
      {share !== null && share >= 90 ? (
        <FormAlert kind="error">{t('domains.website.diskNearlyFull', { share: Math.round(share) })}</FormAlert>
      ) : null}
    </Stack>
  );
}

/** The other names the site answers: www and its aliases (agent/src/nginx.ts serves the same). */
function servedNames(domain: Domain): string[] {
  return [`www.${domain.text}`, ...domain.settings.aliases.map((alias) => `${alias}.${domain.text}`)];
}

/** Which of the two names sends visitors on to the other. */
function redirectOf(name: string, redirect: 'to_apex' | 'to_www'): { from: string; to: string } {
  return redirect === 'to_apex' ? { from: `www.${name}`, to: name } : { from: name, to: `www.${name}` };
}
