import { Link } from 'react-router';
import { Tooltip } from '@mantine/core';
import { IconShoppingCart } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { Tenant } from '@berth/contracts';
import { useShopCart } from '../api/shop.ts';
import classes from './Header.module.css';

interface CartLinkProps {
  tenant: Tenant;
}

/**
 * The cart with its row count (docs/product.md §2). A tenant that sells through its own shop
 * (host_purchases) has its cart there, outside this app.
 */
export function CartLink({ tenant }: CartLinkProps) {
  const { t } = useTranslation();
  // The same query as the cart page's: a change there, or `cart-updated` from another tab or
  // device (api/realtime.ts invalidates it), updates the badge.
  const cart = useShopCart();
  const count = cart.data?.rows.length ?? 0;
  const label = t('cart.label', { count });
  const external = tenant.config.host_purchases;

  const content = (
    <>
      <IconShoppingCart size={20} stroke={1.7} aria-hidden />
      {count > 0 ? (
        <span className={classes.cartCount} data-testid="cart-count" aria-hidden>
          {count > 99 ? '99+' : count}
        </span>
      ) : null}
    </>
  );

  return (
    <Tooltip label={t('cart.tooltip')} openDelay={400}>
      {external ? (
        <a href={external} className={classes.iconButton} aria-label={label} data-testid="cart-link">
          {content}
        </a>
      ) : (
        <Link to="/shop/cart" className={classes.iconButton} aria-label={label} data-testid="cart-link">
          {content}
        </Link>
      )}
    </Tooltip>
  );
}
