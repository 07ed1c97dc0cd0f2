import { useRoutes } from 'react-router';
import { NotFoundPage } from '../NotFoundPage.tsx';
import { CartPage } from './CartPage.tsx';
import { CataloguePage } from './CataloguePage.tsx';

/** /shop (the catalogue) and /shop/cart. */
export function ShopRoutes() {
  return useRoutes([
    { index: true, element: <CataloguePage /> },
    { path: 'cart', element: <CartPage /> },
    { path: '*', element: <NotFoundPage /> },
  ]);
}
