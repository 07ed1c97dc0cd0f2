// Run time, on the server (server/src/http/signed-in-page.ts): a signed-in page rendered to HTML
// with the user's own data, so a phone shows it with the stylesheets alone while the app's scripts
// arrive; the app then takes over with the same data (prerender/handoff.ts). The render asks the
// API what the page asks for, through the server's own routes, until it asks for nothing new.
import '../zodConfig.ts';
import { prerender } from 'react-dom/static';
import { MemoryRouter } from 'react-router';
import { dehydrate, QueryClientProvider, type Query } from '@tanstack/react-query';
import type { ShellPage, ShellPageRequest } from '@berth/contracts';
import { ApiError, setApiSender } from '../api/client.ts';
import { createQueryClient } from '../api/queries.ts';
import { setDefaultTimeZone } from '../components/intlFormats.ts';
import { ThemeProvider } from '../components/ThemeProvider.tsx';
import { loadEnglishAreas, switchLanguage } from '../i18n/i18n.ts';
import { Shell } from '../shell/Shell.tsx';
import { ServerRequest } from './serverViewport.ts';

/** Rounds of "render, then fetch what it asked for": a page asks in two at most today. */
const MAX_ROUNDS = 4;

// One render at a time: the language and the API sender are the module's (the i18n instance is
// the app's single one), and a render never waits on anything but this server's own answers.
let queue: Promise<unknown> = Promise.resolve();

export function renderShellPage(request: ShellPageRequest): Promise<ShellPage | undefined> {
  const run = queue.then(() => (Date.now() < request.deadline ? renderNow(request) : undefined));
  queue = run.catch(() => undefined);
  return run;
}

const enabled = (query: Query) => {
  const option = (query.options as { enabled?: unknown }).enabled;
  return typeof option === 'function' ? (option as (query: Query) => boolean)(query) !== false : option !== false;
};

async function renderNow({ url, language, wide, host, timeZone, send }: ShellPageRequest): Promise<ShellPage | undefined> {
  setApiSender(send);
  setDefaultTimeZone(timeZone);
  await Promise.all([switchLanguage(language), loadEnglishAreas()]);
  const queryClient = createQueryClient();
  const asked = new Set<string>();
  let markup = '';
  // A component that fails here would show the error screen of its boundary: the server sends
  // the plain page instead (and says why in its log).
  let failure: unknown;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const { prelude } = await prerender(
      <ServerRequest.Provider value={{ wide, host }}>
        <ThemeProvider>
          <QueryClientProvider client={queryClient}>
            <MemoryRouter initialEntries={[url]}>
              <Shell />
            </MemoryRouter>
          </QueryClientProvider>
        </ThemeProvider>
      </ServerRequest.Provider>,
      {
        // Never a boundary completed by an inline script (the CSP refuses them).
        progressiveChunkSize: Number.POSITIVE_INFINITY,
        onError: (error) => {
          failure ??= error;
        },
      },
    );
    markup = await new Response(prelude).text();
    if (failure !== undefined) throw failure instanceof Error ? failure : new Error(String(failure));
    const waiting = queryClient
      .getQueryCache()
      .getAll()
      .filter((query) => query.state.status === 'pending' && enabled(query) && !asked.has(query.queryHash));
    if (waiting.length === 0) break;
    for (const query of waiting) asked.add(query.queryHash);
    // No second try: the server's own answers do not get better by waiting, and the page is late.
    await Promise.all(waiting.map((query) => queryClient.prefetchQuery({ ...query.options, queryKey: query.queryKey, retry: false })));
  }
  if (markup.includes('<script')) return undefined;
  // An answer that failed on the server's side (the database away, say) is the app's to retry and
  // explain; a page rendered with it would show the failure until the app took over.
  const failed = queryClient
    .getQueryCache()
    .getAll()
    .some(
      ({ state }) =>
        state.status === 'error' && (!(state.error instanceof ApiError) || state.error.status === 0 || state.error.status >= 500),
    );
  if (failed) return undefined;
  return { markup, state: dehydrate(queryClient) };
}
