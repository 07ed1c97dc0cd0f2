import { useLayoutEffect } from 'react';

/**
 * /login comes with the login screen already in the page (scripts/prerender.ts), inert, and the
 * app's root hidden beside it (styles/global.css). It goes once the app shows that screen itself
 * (in the same frame, so nothing flashes), or whatever else the app shows instead.
 */
export function handOffPrerender(): void {
  document.getElementById('prerender')?.remove();
}

/** For the screens that take the prerendered page's place: the login screen, and an error. */
export function usePrerenderHandoff(): void {
  useLayoutEffect(handOffPrerender, []);
}

/** The language the page was prerendered in, if the page came prerendered. */
export function prerenderedLanguage(): string | undefined {
  return document.getElementById('prerender')?.dataset.language;
}
