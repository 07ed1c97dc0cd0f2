import { useEffect, useSyncExternalStore } from 'react';

/**
 * How many parts of the app are loading right now (a lazy page's code, the menu). While any is,
 * the shell's messages area shows a loading indicator instead of its messages (docs/product.md §4).
 */
let loading = 0;
const listeners = new Set<() => void>();

function change(delta: number): void {
  loading += delta;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

const snapshot = (): boolean => loading > 0;

export function useAppLoading(): boolean {
  return useSyncExternalStore(subscribe, snapshot, snapshot);
}

/** Counts the caller as loading for as long as `active` is true and it is mounted. */
export function useMarkAppLoading(active = true): void {
  useEffect(() => {
    if (!active) return undefined;
    change(1);
    return () => {
      change(-1);
    };
  }, [active]);
}
