import { useEffect } from 'react';

/**
 * Keeps the page behind a dialog from scrolling with a class on <html> (global.css), because
 * Mantine's own lock (react-remove-scroll) injects a <style> element the CSP refuses.
 */
export function useScrollLock(locked: boolean): void {
  useEffect(() => {
    if (!locked) return undefined;
    const root = document.documentElement;
    root.classList.add('berth-scroll-locked');
    return () => {
      root.classList.remove('berth-scroll-locked');
    };
  }, [locked]);
}
