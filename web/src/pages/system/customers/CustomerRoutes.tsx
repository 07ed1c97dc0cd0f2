import { Route, Routes } from 'react-router';
import { useTranslation } from 'react-i18next';
import { NotFoundPage } from '../../NotFoundPage.tsx';
import { useMay } from '../../../shell/useSignedInUser.ts';
import { CustomerCreatePage } from './CustomerCreatePage.tsx';
import { CustomerCreditPage } from './CustomerCreditPage.tsx';
import { CustomerDetailPage } from './CustomerDetailPage.tsx';
import { CustomerListPage } from './CustomerListPage.tsx';
import { NotAllowed } from '../tenants/NotAllowed.tsx';

/**
 * /system/customers/*: the list, /create, /{id} and /{id}/credit. Host admins manage their tenant's customers,
 * super admins everyone's; a customer is told so instead of being sent 403s.
 */
export function CustomerRoutes() {
  const { t } = useTranslation();
  const may = useMay();
  if (!may('customers.manage')) return <NotAllowed title={t('customers.title')} body={t('customers.noAccess')} />;
  return (
    <Routes>
      <Route index element={<CustomerListPage />} />
      <Route path="create" element={<CustomerCreatePage />} />
      <Route path=":id" element={<CustomerDetailPage />} />
      <Route path=":id/credit" element={<CustomerCreditPage />} />
      <Route path="*" element={<NotFoundPage />} />
    </Routes>
  );
}
