import { createContext, useContext } from 'react';

/** On the server, which has no window: the request the page is rendered for (prerender/shellPage.tsx). */
export const ServerRequest = createContext<{ wide: boolean; host: string } | undefined>(undefined);

/** Whether `query` matches now: the window's answer in the browser, the server's guess while it renders. */
export function useInitialMediaMatch(query: string): boolean {
  const server = useContext(ServerRequest);
  if (typeof window === 'undefined') return server?.wide ?? true;
  return window.matchMedia(query).matches;
}

/** The host name (and port) of the page's address, in the browser and while the server renders it. */
export function usePageHost(): string {
  const server = useContext(ServerRequest);
  if (typeof window === 'undefined') return server?.host ?? '';
  return window.location.host;
}
