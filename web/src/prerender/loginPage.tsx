// Build time only (web/scripts/prerender.ts): the login screen rendered to HTML, so a visitor sees
// it with the stylesheets alone instead of loading dots while 250 KB of scripts arrive. The page
// the browser gets shows it inert; the app takes over with its own render (prerender/handoff.ts).
import '../zodConfig.ts';
import { prerender } from 'react-dom/static';
import { MemoryRouter, Route, Routes } from 'react-router';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { LanguageCode } from '@berth/contracts';
import { AuthLayout } from '../auth/AuthLayout.tsx';
import { LoginScreen } from '../auth/LoginScreen.tsx';
import { switchLanguage } from '../i18n/i18n.ts';
import { ThemeProvider } from '../components/ThemeProvider.tsx';

/** The markup of /login in `language`, as the app's first render with nothing fetched yet shows it. */
export async function renderLoginPage(language: LanguageCode): Promise<string> {
  await switchLanguage(language);
  // Nothing is fetched here (no effects run on the server): the tenant shows its placeholder,
  // exactly as in the app's first render.
  const queryClient = new QueryClient();
  // Waits for everything that suspends (lazily loaded parts), unlike renderToString.
  const { prelude } = await prerender(
    <ThemeProvider>
      <QueryClientProvider client={queryClient}>
        <MemoryRouter initialEntries={['/login']}>
          <Routes>
            <Route element={<AuthLayout />}>
              <Route path="/login" element={<LoginScreen />} />
            </Route>
          </Routes>
        </MemoryRouter>
      </QueryClientProvider>
    </ThemeProvider>,
  );
  return new Response(prelude).text();
}
