import { useRoutes } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useMay } from '../../../shell/useSignedInUser.ts';
import { NotFoundPage } from '../../NotFoundPage.tsx';
import { NotAllowed } from './NotAllowed.tsx';
import { TenantCreatePage } from './TenantCreatePage.tsx';
import { TenantEditPage } from './TenantEditPage.tsx';
import { TenantListPage } from './TenantListPage.tsx';

/** /system/tenants/*: the list, `new` and `:id` (settings, logos, host admins). Super admins only. */
export function TenantRoutes() {
  const { t } = useTranslation();
  const may = useMay();
  const page = useRoutes([
    { index: true, element: <TenantListPage /> },
    { path: 'new', element: <TenantCreatePage /> },
    { path: ':id', element: <TenantEditPage /> },
    { path: '*', element: <NotFoundPage /> },
  ]);
  if (!may('tenants.manage')) return <NotAllowed title={t('tenants.notAllowed.title')} body={t('tenants.notAllowed.body')} />;
  return page;
}
