import { describe, expect, it } from 'vitest';
import type { MenuItem } from '@berth/contracts';
import { activeTrail, routeCovers, toggleOpen, withState } from './menuTree.ts';

const item = (id: string, route: string | null, children: MenuItem[] = []): MenuItem => ({
  id,
  title: `menu.${id}`,
  route,
  href: null,
  target: null,
  icon: null,
  badge: null,
  children,
  is_iframe: false,
  isActive: false,
  isOpen: false,
});

const tree = [
  item('dashboard', '/dashboard'),
  item('domains', null, [item('domains.list', '/host/domain'), item('domains.create', '/host/domain/create')]),
  item('shop', null, [item('shop.catalogue', '/shop'), item('shop.cart', '/shop/cart')]),
  item('account', null, [item('account.profile', '/account'), item('account.2fa', '/account/2fa')]),
];

const ids = (items: MenuItem[]) => items.map((i) => i.id);

describe('menu tree', () => {
  it('matches whole path segments only', () => {
    expect(routeCovers('/account', '/account/2fa')).toBe(true);
    expect(routeCovers('/account', '/accountant')).toBe(false);
    expect(routeCovers('/shop', '/shop')).toBe(true);
  });

  it('picks the longest covering route and its ancestors', () => {
    expect(ids(activeTrail(tree, '/shop/cart'))).toEqual(['shop', 'shop.cart']);
    expect(ids(activeTrail(tree, '/shop/product/1'))).toEqual(['shop', 'shop.catalogue']);
    expect(ids(activeTrail(tree, '/host/domain/5/dns'))).toEqual(['domains', 'domains.list']);
    expect(ids(activeTrail(tree, '/host/domain/create'))).toEqual(['domains', 'domains.create']);
    expect(ids(activeTrail(tree, '/nowhere'))).toEqual([]);
  });

  it('toggles an item and closes the items outside its ancestry', () => {
    const opened = toggleOpen(tree, new Set(['domains']), 'shop');
    expect([...opened]).toEqual(['shop']);
    expect([...toggleOpen(tree, opened, 'shop')]).toEqual([]);
    expect([...toggleOpen(tree, new Set(['shop']), 'shop.cart')].sort()).toEqual(['shop', 'shop.cart']);
  });

  it('marks active and open items', () => {
    const marked = withState(tree, new Set(['shop', 'shop.cart']), new Set(['shop']));
    expect(marked[2]?.isActive).toBe(true);
    expect(marked[2]?.isOpen).toBe(true);
    expect(marked[2]?.children[1]?.isActive).toBe(true);
    expect(marked[1]?.isOpen).toBe(false);
  });
});
