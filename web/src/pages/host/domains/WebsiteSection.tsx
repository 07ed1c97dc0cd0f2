import { Badge, Group, Loader, Stack, Text } from '@mantine/core';
import { IconWorld } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { Domain } from '@berth/contracts';
import { formatDateTime } from '../../../components/formatDate.ts';
import { FormAlert } from '../../../forms/FormAlert.tsx';
import { Section } from '../../PageHeader.tsx';
import classes from './Domains.module.css';

/**
 * The website of a proven domain as its web server applied it (agent/, migration 0030): live with
 * the change applied and when, applying (the page asks again until it is not), or why the last
 * change could not be applied while the one before keeps serving.
 */
export function WebsiteSection({ domain, web }: { domain: Domain; web: NonNullable<Domain['web']> }) {
  const { t } = useTranslation();
  const badge = {
    // Filled in the darker shades: white text on them passes WCAG AA (axe, e2e website.spec.ts).
    live: { color: 'teal.9', label: t('domains.website.live') },
    applying: { color: 'blue.8', label: t('domains.website.applying') },
    error: { color: 'red.9', label: t('domains.website.error') },
  }[web.state];

  return (
    <Section id="website" title={t('domains.website.title')} description={t('domains.website.description')}>
      <Stack gap="sm" data-testid="domain-website" data-state={web.state}>
        <Group gap="sm" wrap="nowrap" align="center">
          <IconWorld size={20} stroke={1.6} aria-hidden />
          <a className={classes.mono} href={`http://${domain.name}/`} target="_blank" rel="noreferrer">
            {domain.name}
          </a>
          <Badge
            color={badge.color}
            variant="filled"
            data-testid="website-state"
            leftSection={web.state === 'applying' ? <Loader size={10} color="white" /> : null}
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
        <Text fz="sm">{t('domains.website.folder', { folder: `${domain.settings.document_root}/` })}</Text>
      </Stack>
    </Section>
  );
}
