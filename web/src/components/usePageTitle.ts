import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useTenant } from '../api/queries.ts';

/** Sets the window title to "Page · Tenant" (the tenant's title, else "Berth"). */
export function usePageTitle(page: string | undefined): void {
  const { t } = useTranslation();
  const { data: tenant } = useTenant();
  const site = tenant?.title ?? t('app.name');
  useEffect(() => {
    document.title = page ? `${page} · ${site}` : site;
  }, [page, site]);
}
