import { Alert } from '@mantine/core';
import { IconPlugConnectedX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useHostingServices } from '../api/services.ts';

/**
 * On the embedded database the DNS and mail pages keep their data, but no name or mail server can
 * read it (they read PostgreSQL, docs/deploy.md): say so instead of letting people wait for it.
 */
export function ServingNotice({ service }: { service: 'dns' | 'mail' }) {
  const { t } = useTranslation();
  const services = useHostingServices();
  if (!services.data || services.data[service]) return null;
  return (
    <Alert
      role="note"
      color="yellow"
      variant="light"
      icon={<IconPlugConnectedX aria-hidden />}
      title={t(`serving.${service}.title`)}
      mb="lg"
    >
      {t(`serving.${service}.body`)}
    </Alert>
  );
}
