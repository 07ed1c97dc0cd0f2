import { Navigate, useRoutes } from 'react-router';
import { NotFoundPage } from '../NotFoundPage.tsx';
import { AdminInvoicesPage } from './AdminInvoicesPage.tsx';
import { CataloguePage } from './catalogue/CataloguePage.tsx';
import { CreditPage } from './CreditPage.tsx';
import { PromoPage } from './PromoPage.tsx';

/** /system/partner/credit, /system/partner/promo and /system/partner/invoices. */
export function PartnerRoutes() {
  return useRoutes([
    { index: true, element: <Navigate to="/system/partner/credit" replace /> },
    { path: 'credit', element: <CreditPage /> },
    { path: 'promo', element: <PromoPage /> },
    { path: 'invoices', element: <AdminInvoicesPage /> },
    { path: 'catalogue', element: <CataloguePage /> },
    { path: '*', element: <NotFoundPage /> },
  ]);
}
