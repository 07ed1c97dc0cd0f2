import './zodConfig.ts';
import './styles/mantineEntry.ts';
import 'virtual:mantine-theme.css';
import './styles/global.css';
import { StrictMode, Suspense, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { hydrate, QueryClientProvider } from '@tanstack/react-query';
import { FullPageLoader } from './components/FullPageLoader.tsx';
import { createQueryClient, queryKeys } from './api/queries.ts';
import { i18n, i18nReady, isLanguageCode, switchLanguage } from './i18n/i18n.ts';
import {
  afterPress,
  handOffPrerender,
  prerenderedAnswers,
  prerenderedLanguage,
  prerenderedTenant,
  rememberTimeZone,
} from './prerender/handoff.ts';
import { createRouter } from './routes.tsx';
import { ThemeProvider } from './components/ThemeProvider.tsx';

const queryClient = createQueryClient();
const router = createRouter();

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element.');

// The prerendered login page holds the host's tenant: the login screen starts with it.
const tenant = prerenderedTenant();
if (tenant) queryClient.setQueryData(queryKeys.tenant, tenant);
// The pages the server renders show dates and times in this browser's zone from the next one on.
rememberTimeZone();
// A signed-in page rendered by the server holds the answers it was made with.
const answers = prerenderedAnswers();
if (answers) hydrate(queryClient, answers);

// German or Czech strings arrive as a chunk of their own: render once they are here.
await i18nReady;
const prerendered = prerenderedLanguage();
if (answers && prerendered !== undefined && isLanguageCode(prerendered) && prerendered !== i18n.resolvedLanguage) {
  // The server rendered the page in the user's language, which the app would switch to anyway.
  await switchLanguage(prerendered);
}
// The prerendered login screen (scripts/prerender.ts) may be in another language than the one
// this visitor picked on this device: it stays until the app's login screen takes its place, in
// the same frame and with what was typed into it (auth/LoginScreen.tsx).
// The first navigation ends a prerendered page too.
const stopWatching = router.subscribe(() => {
  afterPress(() => void handOffPrerender());
  stopWatching();
});

const root = createRoot(container);
// The first render as a transition: React renders it in slices of 5 ms between which the browser
// may paint and answer input, instead of one task that blocked /login for 65 ms per step on a slow
// phone (Lighthouse's blocking time on /login: 170 -> 125 ms, the median of five paired runs).
startTransition(() =>
  root.render(
    <StrictMode>
      <ThemeProvider>
        <QueryClientProvider client={queryClient}>
          <Suspense fallback={<FullPageLoader message={i18n.t('app.loading')} />}>
            <RouterProvider router={router} />
          </Suspense>
        </QueryClientProvider>
      </ThemeProvider>
    </StrictMode>,
  ),
);
