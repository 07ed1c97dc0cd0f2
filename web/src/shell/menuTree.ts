import type { MenuItem } from '@berth/contracts';

/* Pure helpers for the navigation tree: which items the path makes active and open. */

/** `route` covers `path` when they are equal or the path is below it (`/account` → `/account/2fa`). */
export function routeCovers(route: string, path: string): boolean {
  const base = route.length > 1 ? route.replace(/\/+$/, '') : route;
  return path === base || path.startsWith(`${base}/`);
}

/**
 * The chain of items from the root down to the one whose route best covers `path` (the longest
 * route wins: `/shop/cart` over `/shop`), or an empty list when none does.
 */
export function activeTrail(items: readonly MenuItem[], path: string): MenuItem[] {
  let best: MenuItem[] = [];
  let bestLength = -1;
  const visit = (list: readonly MenuItem[], trail: MenuItem[]) => {
    for (const item of list) {
      const here = [...trail, item];
      if (item.route && routeCovers(item.route, path) && item.route.length > bestLength) {
        best = here;
        bestLength = item.route.length;
      }
      visit(item.children, here);
    }
  };
  visit(items, []);
  return best;
}

/** The ids of an item's ancestors (not the item itself), or undefined when it is not in the tree. */
export function ancestorIds(items: readonly MenuItem[], id: string): string[] | undefined {
  for (const item of items) {
    if (item.id === id) return [];
    const below = ancestorIds(item.children, id);
    if (below) return [item.id, ...below];
  }
  return undefined;
}

/**
 * docs/product.md §4: a click toggles the item and closes every open item outside its ancestry
 * (its siblings, their children, other branches).
 */
export function toggleOpen(items: readonly MenuItem[], open: ReadonlySet<string>, id: string): Set<string> {
  const ancestors = ancestorIds(items, id) ?? [];
  const next = new Set(ancestors);
  if (!open.has(id)) next.add(id);
  return next;
}

/** The items with isActive/isOpen set from the path and the open set (the server sends false). */
export function withState(items: readonly MenuItem[], activeIds: ReadonlySet<string>, open: ReadonlySet<string>): MenuItem[] {
  return items.map((item) => ({
    ...item,
    isActive: activeIds.has(item.id),
    isOpen: item.children.length > 0 && open.has(item.id),
    children: withState(item.children, activeIds, open),
  }));
}
