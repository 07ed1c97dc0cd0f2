import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { RouteError } from './components/RouteError.tsx';
import { loadEnglishAreas } from './i18n/i18n.ts';

/** React.lazy for a named export (the codebase uses named exports only). */
function lazyScreen(load: () => Promise<ComponentType>): LazyExoticComponent<ComponentType> {
  return lazy(async () => ({ default: await load() }));
}

const AuthLayout = lazyScreen(async () => (await import('./auth/AuthLayout.tsx')).AuthLayout);
const LoginScreen = lazyScreen(async () => (await import('./auth/LoginScreen.tsx')).LoginScreen);
const TwoFactorScreen = lazyScreen(async () => (await import('./auth/TwoFactorScreen.tsx')).TwoFactorScreen);
const RecoveryCodeScreen = lazyScreen(async () => (await import('./auth/RecoveryCodeScreen.tsx')).RecoveryCodeScreen);
const ForgotPasswordScreen = lazyScreen(async () => (await import('./auth/ForgotPasswordScreen.tsx')).ForgotPasswordScreen);
const ResetPasswordScreen = lazyScreen(async () => (await import('./auth/ResetPasswordScreen.tsx')).ResetPasswordScreen);
const RegisterScreen = lazyScreen(async () => (await import('./auth/RegisterScreen.tsx')).RegisterScreen);
const RegisterVerifyScreen = lazyScreen(async () => (await import('./auth/RegisterVerifyScreen.tsx')).RegisterVerifyScreen);
const ChangePasswordScreen = lazyScreen(async () => (await import('./auth/ChangePasswordScreen.tsx')).ChangePasswordScreen);
const OtpRequestScreen = lazyScreen(async () => (await import('./auth/OtpRequestScreen.tsx')).OtpRequestScreen);
const OtpLoginScreen = lazyScreen(async () => (await import('./auth/OtpLoginScreen.tsx')).OtpLoginScreen);
// The inner pages' English strings come with the shell, fetched side by side (i18n/enAreas.ts).
const Shell = lazyScreen(async () => (await Promise.all([import('./shell/Shell.tsx'), loadEnglishAreas()]))[0].Shell);

/** docs/product.md §2: the public routes in the order of docs/product.md §2, then the shell for every other path. */
export const routes: RouteObject[] = [
  {
    element: <AuthLayout />,
    errorElement: <RouteError />,
    children: [
      { path: '/login/:email?', element: <LoginScreen /> },
      { path: '/login2fa', element: <TwoFactorScreen /> },
      { path: '/login2fa/recovery', element: <RecoveryCodeScreen /> },
      { path: '/password/forgot', element: <ForgotPasswordScreen /> },
      { path: '/password/reset/:uniq_id/:token', element: <ResetPasswordScreen /> },
      { path: '/register', element: <RegisterScreen /> },
      { path: '/register/verify/:code', element: <RegisterVerifyScreen /> },
      { path: '/change-password', element: <ChangePasswordScreen /> },
      { path: '/password/otp', element: <OtpRequestScreen /> },
      { path: '/password/otplogin', element: <OtpLoginScreen /> },
    ],
  },
  { path: '*', element: <Shell />, errorElement: <RouteError /> },
];

export function createRouter() {
  return createBrowserRouter(routes);
}
