import { SCROLL_MS } from '@berth/contracts';

let running: number | undefined;

const easeInOutCubic = (t: number): number => (t < 0.5 ? 4 * t * t * t : 1 - (-2 * t + 2) ** 3 / 2);

function prefersReducedMotion(): boolean {
  return window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/**
 * Scrolls the window to `top` in exactly `duration` ms (docs/product.md §9: 400 ms), which the
 * browser's own `behavior: 'smooth'` does not promise. Each frame jumps with `behavior: 'instant'`
 * because global.css makes plain scrolls smooth. A new call cancels the running one.
 */
export function smoothScrollTo(top: number, duration: number = SCROLL_MS): void {
  if (running !== undefined) window.cancelAnimationFrame(running);
  running = undefined;
  const max = Math.max(0, document.documentElement.scrollHeight - window.innerHeight);
  const target = Math.min(Math.max(0, Math.round(top)), max);
  const start = window.scrollY;
  if (start === target || duration <= 0 || prefersReducedMotion()) {
    window.scrollTo({ top: target, behavior: 'instant' });
    return;
  }
  const startedAt = performance.now();
  // performance.now() rather than the frame's timestamp: one clock for the start and each step.
  const step = () => {
    const progress = Math.min(1, (performance.now() - startedAt) / duration);
    window.scrollTo({ top: start + (target - start) * easeInOutCubic(progress), behavior: 'instant' });
    running = progress < 1 ? window.requestAnimationFrame(step) : undefined;
  };
  running = window.requestAnimationFrame(step);
}
