import { useEffect, useRef, type RefObject } from 'react';
import { useLocation } from 'react-router';
import { readRouteState } from '../components/RouteStateMessage.tsx';
import { smoothScrollTo } from '../components/smoothScroll.ts';

/**
 * How long to wait for the target element of a navigation to render: its page chunk and texts
 * may still be loading on a slow line, and a page that loads late should still land on it.
 */
const FIND_TARGET_MS = 10_000;
/** How long after the target appeared a layout shift above it is corrected. */
const KEEP_ALIGNED_MS = 2_000;
const GAP_PX = 12;
/** Anything the user does to scroll themselves ends the hunt: their scrolling wins. */
const USER_SCROLL_EVENTS = ['wheel', 'touchstart', 'keydown', 'pointerdown'] as const;

/**
 * docs/product.md §2: on every route change scroll smoothly (SCROLL_MS) to the top, or to the
 * element whose id the navigation state names (`{ scrollTo: 'id' }`), below the sticky header.
 */
export function useScrollOnNavigate(header: RefObject<HTMLElement | null>): void {
  const location = useLocation();
  const first = useRef(true);

  useEffect(() => {
    const { scrollTo } = readRouteState(location.state);
    const initial = first.current;
    first.current = false;
    // The first render keeps the browser's own position (e.g. after a reload).
    if (!scrollTo) {
      if (!initial) smoothScrollTo(0);
      return undefined;
    }
    const started = performance.now();
    let frame = 0;
    let foundAt: number | undefined;
    let destination: number | undefined;
    const stop = () => {
      window.cancelAnimationFrame(frame);
      for (const type of USER_SCROLL_EVENTS) window.removeEventListener(type, stop, true);
    };
    // Each frame: wait for the target, then scroll to it, and again whenever content above it
    // (data, images, texts arriving) moved it during the first KEEP_ALIGNED_MS.
    const track = () => {
      const now = performance.now();
      const target = document.getElementById(scrollTo);
      if (target) {
        foundAt ??= now;
        const offset = (header.current?.getBoundingClientRect().height ?? 0) + GAP_PX;
        const top = Math.round(target.getBoundingClientRect().top + window.scrollY - offset);
        if (destination === undefined || Math.abs(top - destination) > 1) {
          destination = top;
          smoothScrollTo(top);
        }
        if (now - foundAt > KEEP_ALIGNED_MS) {
          stop();
          return;
        }
      } else if (now - started > FIND_TARGET_MS) {
        stop();
        return;
      }
      frame = window.requestAnimationFrame(track);
    };
    for (const type of USER_SCROLL_EVENTS) window.addEventListener(type, stop, true);
    track();
    return stop;
  }, [location.key, location.state, header]);
}
