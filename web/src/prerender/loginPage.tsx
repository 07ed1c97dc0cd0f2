// Build time only (web/scripts/prerender.ts): the login screen rendered to HTML, so a visitor sees
// it with the stylesheets alone instead of loading dots while 250 KB of scripts arrive. It is
// rendered for a made-up tenant whose title, logo and year are markers (@berth/contracts) that the
// server replaces with the host's own (server/src/http/web-app.ts); the app takes over with its
// own render when the visitor starts using the page (prerender/handoff.ts).
import '../zodConfig.ts';
import { prerender } from 'react-dom/static';
import { MemoryRouter, Route, Routes } from 'react-router';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { OPERATOR_TENANT_ID, TENANT_MARKERS, type LanguageCode, type LoginPageVariant, type Tenant } from '@berth/contracts';
import { AuthLayout } from '../auth/AuthLayout.tsx';
import { LoginScreen } from '../auth/LoginScreen.tsx';
import { switchLanguage } from '../i18n/i18n.ts';
import { ThemeProvider } from '../components/ThemeProvider.tsx';
import { queryKeys } from '../api/queries.ts';

/** The markup of /login in `language` for a tenant of this variant, as the app renders it with the tenant known. */
export async function renderLoginPage(language: LanguageCode, variant: LoginPageVariant): Promise<string> {
  await switchLanguage(language);
  const queryClient = new QueryClient();
  const tenant: Tenant = {
    // The operator's host offers the one-time-code login (offersOtpLogin); any other id does not.
    id: variant.otp ? OPERATOR_TENANT_ID : OPERATOR_TENANT_ID + 1,
    title: TENANT_MARKERS.title,
    config: { admin_logo: variant.logo ? TENANT_MARKERS.logo : null, admin_logo_footer: null, host_purchases: null },
  };
  queryClient.setQueryData(queryKeys.tenant, tenant);
  // Waits for everything that suspends (lazily loaded parts), unlike renderToString.
  const { prelude } = await prerender(
    <ThemeProvider>
      <QueryClientProvider client={queryClient}>
        <MemoryRouter initialEntries={['/login']}>
          <Routes>
            <Route element={<AuthLayout year={TENANT_MARKERS.year} />}>
              <Route path="/login" element={<LoginScreen />} />
            </Route>
          </Routes>
        </MemoryRouter>
      </QueryClientProvider>
    </ThemeProvider>,
    // Never a boundary outlined to be completed by an inline script (which the CSP refuses): React
    // does so with boundaries larger than this, and the login card with its OTP button is.
    { progressiveChunkSize: Number.POSITIVE_INFINITY },
  );
  return new Response(prelude).text();
}
