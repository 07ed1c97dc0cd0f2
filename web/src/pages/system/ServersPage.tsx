import { Badge, Group, Stack, Text } from '@mantine/core';
import { IconServer } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { WebServer } from '@berth/contracts';
import { usePlatformCertificate, useServers } from '../../api/servers.ts';
import { CertificateFacts } from '../host/domains/CertificateSection.tsx';
import { RelativeTime } from '../../components/RelativeTime.tsx';
import { usePageTitle } from '../../components/usePageTitle.ts';
import { EmptyState, LoadingRows } from '../../components/ListStates.tsx';
import { LoadFailed } from '../../components/LoadFailed.tsx';
import { useMay } from '../../shell/useSignedInUser.ts';
import { NotAllowedPage } from '../NotAllowedPage.tsx';
import { PageHeader, Section } from '../PageHeader.tsx';
import classes from '../Pages.module.css';
import serverClasses from './Servers.module.css';

/**
 * /system/servers (super admins): the servers Berth places sites on, how many each serves and what
 * its agent last reported, and the panel's own certificate (every server's default). A site is
 * moved on its domain page (the web server setting).
 */
export function ServersPage() {
  const { t } = useTranslation();
  const may = useMay()('servers.manage');
  const servers = useServers(may);
  const certificate = usePlatformCertificate(may);
  usePageTitle(t('servers.title'));

  if (!may) return <NotAllowedPage title={t('servers.title')} />;
  return (
    <div className={classes.page}>
      <PageHeader title={t('servers.title')} description={t('servers.description')} />
      <Section id="servers" title={t('servers.listTitle')}>
        {servers.isPending ? (
          <LoadingRows height={48} />
        ) : servers.isError ? (
          <LoadFailed error={servers.error} onRetry={() => void servers.refetch()} />
        ) : servers.data.length === 0 ? (
          <EmptyState icon={<IconServer size={24} stroke={1.6} />} title={t('servers.emptyTitle')}>
            {t('servers.empty')}
          </EmptyState>
        ) : (
          <table className={serverClasses.table}>
            <thead>
              <tr>
                <th scope="col">{t('servers.name')}</th>
                <th scope="col">{t('servers.roles')}</th>
                <th scope="col">{t('servers.sites')}</th>
                <th scope="col">{t('servers.php')}</th>
                <th scope="col">{t('servers.reported')}</th>
              </tr>
            </thead>
            <tbody>
              {servers.data.map((server) => (
                <ServerRow key={server.id} server={server} />
              ))}
            </tbody>
          </table>
        )}
      </Section>
      <Section id="certificate" title={t('servers.certificateTitle')} description={t('servers.certificateDescription')}>
        {certificate.isPending ? (
          <LoadingRows height={48} />
        ) : certificate.isError ? (
          <LoadFailed error={certificate.error} onRetry={() => void certificate.refetch()} />
        ) : (
          <Stack gap="sm" data-testid="platform-certificate" data-state={certificate.data.state}>
            <CertificateFacts certificate={certificate.data} noneText={t('servers.certificateNone')} />
          </Stack>
        )}
      </Section>
    </div>
  );
}

function ServerRow({ server }: { server: WebServer }) {
  const { t } = useTranslation();
  return (
    <tr>
      <td data-label={t('servers.name')}>
        <div className={serverClasses.name}>{server.name}</div>
        {server.address ? (
          <Text fz="xs" className={serverClasses.dimmed}>
            {server.address}
          </Text>
        ) : null}
      </td>
      <td data-label={t('servers.roles')}>
        <Group gap={4}>
          {server.roles.map((role) => (
            <Badge key={role} variant="light" size="sm">
              {t(`servers.role_${role}`, { defaultValue: role })}
            </Badge>
          ))}
        </Group>
      </td>
      <td data-label={t('servers.sites')}>{server.sites.toLocaleString()}</td>
      <td data-label={t('servers.php')}>
        {server.php_versions.length > 0 ? server.php_versions.join(', ') : <span className={serverClasses.dimmed}>—</span>}
      </td>
      <td data-label={t('servers.reported')}>
        {server.reported_at ? (
          <RelativeTime iso={server.reported_at} />
        ) : (
          <span className={serverClasses.dimmed}>{t('servers.never')}</span>
        )}
      </td>
    </tr>
  );
}
