import { useEffect, useRef, type RefObject } from 'react';
import { useLocation } from 'react-router';
import { readRouteState } from '../components/RouteStateMessage.tsx';
import { smoothScrollTo } from '../components/smoothScroll.ts';

/** How long to wait for the target element of a navigation to render (its page may still load). */
const FIND_TARGET_MS = 2_000;
const GAP_PX = 12;

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
    const find = () => {
      const target = document.getElementById(scrollTo);
      if (target) {
        const offset = (header.current?.getBoundingClientRect().height ?? 0) + GAP_PX;
        smoothScrollTo(target.getBoundingClientRect().top + window.scrollY - offset);
      } else if (performance.now() - started < FIND_TARGET_MS) {
        frame = window.requestAnimationFrame(find);
      }
    };
    find();
    return () => {
      window.cancelAnimationFrame(frame);
    };
  }, [location.key, location.state, header]);
}
