import type { ReactNode } from 'react';
import { MantineProvider } from '@mantine/core';
import { cssVariablesResolver, theme } from '../theme.ts';

/**
 * Mantine with Berth's theme, for the app and for the build's render of the login page
 * (prerender/loginPage.tsx). Its CSS variables come from a static stylesheet (vite.config.ts), not
 * an inline <style> the CSP would refuse (docs/decisions/0002-no-inline-styles.md).
 */
export function ThemeProvider({ children }: { children: ReactNode }) {
  return (
    <MantineProvider
      theme={theme}
      cssVariablesResolver={cssVariablesResolver}
      withCssVariables={false}
      withGlobalClasses={false}
      forceColorScheme="light"
    >
      {children}
    </MantineProvider>
  );
}
