import { useCallback, useMemo, useState } from 'react';
import type { MenuItem } from '@berth/contracts';
import { activeTrail, toggleOpen, withState } from './menuTree.ts';

interface ManualOpen {
  /** The navigation (location.key) the clicks belong to: the next one starts from the path again. */
  navigation: string;
  source: readonly MenuItem[];
  open: Set<string>;
}

export interface NavigationTree {
  /** The tree with isActive/isOpen computed client-side. */
  items: MenuItem[];
  /** Root → best matching item for the current path (the breadcrumb's menu part). */
  trail: MenuItem[];
  toggle: (id: string) => void;
}

const EMPTY: readonly MenuItem[] = [];

/**
 * docs/product.md §4: active and open flags come from the path on every navigation; between
 * navigations, clicks toggle items (closing those outside the clicked item's ancestry).
 */
export function useNavigationTree(source: readonly MenuItem[] | undefined, pathname: string, navigation: string): NavigationTree {
  const tree = source ?? EMPTY;
  const trail = useMemo(() => activeTrail(tree, pathname), [tree, pathname]);
  const [manual, setManual] = useState<ManualOpen | null>(null);

  const fromPath = useMemo(() => new Set(trail.filter((item) => item.children.length > 0).map((item) => item.id)), [trail]);
  const open = manual && manual.navigation === navigation && manual.source === tree ? manual.open : fromPath;

  const items = useMemo(() => withState(tree, new Set(trail.map((item) => item.id)), open), [tree, trail, open]);

  const toggle = useCallback(
    (id: string) => {
      setManual({ navigation, source: tree, open: toggleOpen(tree, open, id) });
    },
    [navigation, tree, open],
  );

  return { items, trail, toggle };
}
