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
  /**
   * API answers the page asks for at once, fetched with the page when the browser holds a session
   * cookie (the fetch from the code then takes the preloaded answer instead of waiting its turn).
   */
  data?: string[];
}

const auth = (screen: string) => ['src/auth/AuthLayout.tsx', `src/auth/${screen}.tsx`];
const shell = (...pages: string[]) => ['src/shell/Shell.tsx', 'src/i18n/enAreas.ts', ...pages.map((page) => `src/pages/${page}.tsx`)];
/** What the shell itself asks for on every page (shell/useSignedInUser.ts, api/shell.ts). */
const SHELL_DATA = ['/api/user', '/api/menu'];

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
  { pattern: '^/(dashboard)?$', modules: shell('DashboardPage'), data: [...SHELL_DATA, '/api/dashboard'] },
  { pattern: '^/host/domain$', modules: shell('host/domains/DomainListPage'), data: SHELL_DATA },
  { pattern: '^/host/domain/[^/]+/dns$', modules: shell('host/dns/DnsPage'), data: SHELL_DATA },
  { pattern: '^/host/domain/[^/]+/aliases$', modules: shell('host/mail-aliases/MailAliasesPage'), data: SHELL_DATA },
  { pattern: '^/host/domain/[^/]+/users$', modules: shell('host/domain-users/DomainUsersPage'), data: SHELL_DATA },
  { pattern: '^/host/domain/[^/]+/edit$', modules: shell('host/domains/DomainEditPage'), data: SHELL_DATA },
  { pattern: '^/notifications$', modules: shell('notifications/NotificationsPage'), data: SHELL_DATA },
  { pattern: '^/account$', modules: shell('account/AccountPage'), data: SHELL_DATA },
  { pattern: '^/shop(/.*)?$', modules: shell('shop/ShopRoutes'), data: SHELL_DATA },
  { pattern: '^/account/api-tokens$', modules: shell('account/api-tokens/ApiTokensPage'), data: SHELL_DATA },
  { pattern: '^/system/security$', modules: shell('system/security/SecurityPage'), data: SHELL_DATA },
  { pattern: '^/system/customers(/.*)?$', modules: shell('system/customers/CustomerRoutes'), data: SHELL_DATA },
  { pattern: '', modules: shell(), data: SHELL_DATA },
];
