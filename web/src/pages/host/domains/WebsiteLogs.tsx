import { useState } from 'react';
import { SegmentedControl, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useSiteLogs } from '../../../api/domains.ts';
import { LoadFailed } from '../../../components/LoadFailed.tsx';
import classes from './Domains.module.css';

/** The site's last 100 access or error log lines, newest first, as the web server's agent last read them. */
export function WebsiteLogs({ domainId }: { domainId: number }) {
  const { t } = useTranslation();
  const [kind, setKind] = useState<'access' | 'error'>('access');
  const logs = useSiteLogs(domainId);
  const lines = logs.data?.[kind] ?? [];

  return (
    <Stack gap="xs" data-testid="website-logs">
      <SegmentedControl
        value={kind}
        onChange={(value) => setKind(value === 'error' ? 'error' : 'access')}
        data={[
          { value: 'access', label: t('domains.website.accessLog') },
          { value: 'error', label: t('domains.website.errorLog') },
        ]}
        aria-label={t('domains.website.logs')}
        className={classes.logTabs}
      />
      {logs.isError ? (
        <LoadFailed error={logs.error} onRetry={() => void logs.refetch()} />
      ) : lines.length === 0 ? (
        <Text fz="sm" c="dimmed">
          {logs.isPending ? t('domains.website.logsLoading') : t('domains.website.logsEmpty')}
        </Text>
      ) : (
        <pre
          className={classes.logLines}
          tabIndex={0}
          aria-label={t(kind === 'access' ? 'domains.website.accessLog' : 'domains.website.errorLog')}
        >
          {lines.join('\n')}
        </pre>
      )}
    </Stack>
  );
}
