/**
 * The lazily loaded modules each path renders at once (routes.tsx, shell/ShellRoutes.tsx). The
 * build turns this into dist/route-preloads.json (vite.config.ts) and the server links those
 * chunks and stylesheets from the page's <head> (server/src/http/web-app.ts), so the browser
 * fetches them with the entry instead of one level after another. The build fails when a module
 * named here is no chunk of its own. First match wins; every other path is the shell.
 */
export interface RoutePreload {
  /** A regular expression over the URL's path. */
  pattern: string;
  /** Source modules, relative to web/. */
  modules: string[];
}

const auth = (screen: string) => ['src/auth/AuthLayout.tsx', `src/auth/${screen}.tsx`];
const shell = (...pages: string[]) => ['src/shell/Shell.tsx', ...pages.map((page) => `src/pages/${page}.tsx`)];

export const ROUTE_PRELOADS: RoutePreload[] = [
  { pattern: '^/login(/[^/]*)?$', modules: auth('LoginScreen') },
  { pattern: '^/login2fa$', modules: auth('TwoFactorScreen') },
  { pattern: '^/login2fa/recovery$', modules: auth('RecoveryCodeScreen') },
  { pattern: '^/password/forgot$', modules: auth('ForgotPasswordScreen') },
  { pattern: '^/password/reset/[^/]+/[^/]+$', modules: auth('ResetPasswordScreen') },
  { pattern: '^/register$', modules: auth('RegisterScreen') },
  { pattern: '^/register/verify/[^/]+$', modules: auth('RegisterVerifyScreen') },
  { pattern: '^/change-password$', modules: auth('ChangePasswordScreen') },
  { pattern: '^/password/otp$', modules: auth('OtpRequestScreen') },
  { pattern: '^/password/otplogin$', modules: auth('OtpLoginScreen') },
  { pattern: '^/(dashboard)?$', modules: shell('DashboardPage') },
  { pattern: '^/host/domain$', modules: shell('host/domains/DomainListPage') },
  { pattern: '^/host/domain/[^/]+/dns$', modules: shell('host/dns/DnsPage') },
  { pattern: '^/host/domain/[^/]+/users$', modules: shell('host/domain-users/DomainUsersPage') },
  { pattern: '^/host/domain/[^/]+/edit$', modules: shell('host/domains/DomainEditPage') },
  { pattern: '^/notifications$', modules: shell('notifications/NotificationsPage') },
  { pattern: '^/account$', modules: shell('account/AccountPage') },
  { pattern: '^/shop(/.*)?$', modules: shell('shop/ShopRoutes') },
  { pattern: '^/system/customers(/.*)?$', modules: shell('system/customers/CustomerRoutes') },
  { pattern: '', modules: shell() },
];
