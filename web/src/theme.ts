import { ANIMATION_MS, TRANSITION_MS } from '@berth/contracts';
import { createTheme, type CSSVariablesResolver, type MantineColorsTuple } from '@mantine/core';

/**
 * Berth's one theme. Its CSS variables are compiled to a static stylesheet at build time
 * (see vite.config.ts) instead of being injected by MantineProvider as an inline <style>,
 * so the panel runs under `style-src 'self'`.
 */
const harbor: MantineColorsTuple = [
  '#eef5ff',
  '#d9e8ff',
  '#b3d0fd',
  '#86b3f8',
  '#5b94f0',
  '#3b7be6',
  '#2563d6',
  '#1d4fb8',
  '#1b4396',
  '#1a3a78',
];

/** System fonts only: nothing to download, and the CSP needs no font host. */
const FONT_STACK = 'ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif';

export const theme = createTheme({
  primaryColor: 'harbor',
  primaryShade: { light: 6, dark: 5 },
  colors: { harbor },
  defaultRadius: 'md',
  cursorType: 'pointer',
  focusRing: 'auto',
  fontFamily: FONT_STACK,
  headings: {
    fontFamily: FONT_STACK,
    fontWeight: '650',
  },
  shadows: {
    md: '0 1px 2px rgb(16 24 40 / 6%), 0 4px 12px rgb(16 24 40 / 8%)',
    xl: '0 1px 3px rgb(16 24 40 / 6%), 0 12px 32px rgb(16 24 40 / 10%)',
  },
  // docs/product.md §9: dialogs open at the fast speed, menus and tooltips with the short
  // transition, the phone drawer with the long one. Plain objects: naming the components here
  // would pull their code into the login screen's bundle.
  components: {
    Modal: { defaultProps: { transitionProps: { duration: ANIMATION_MS.fast } } },
    Drawer: { defaultProps: { transitionProps: { duration: TRANSITION_MS[2] } } },
    Menu: { defaultProps: { transitionProps: { duration: TRANSITION_MS[0] } } },
    Popover: { defaultProps: { transitionProps: { duration: TRANSITION_MS[0] } } },
    Tooltip: { defaultProps: { transitionProps: { duration: TRANSITION_MS[0] } } },
  },
});

/**
 * Text colours that pass WCAG AA (4.5:1): Mantine's default "dimmed" grey is 3.3:1 on white
 * (ours 5.8:1), its red-6 error text 3.3:1 (red-9: 5.5:1 on white, 4.8:1 on a light alert), and
 * the text of light green/grey/orange/yellow badges and alerts 1.7-3:1 (ours 4.9:1 or more).
 */
export const cssVariablesResolver: CSSVariablesResolver = (t) => ({
  // docs/product.md §9: the CSS modules' transitions use these, not numbers of their own.
  variables: {
    '--berth-speed-fast': `${ANIMATION_MS.fast}ms`,
    '--berth-speed': `${ANIMATION_MS.default}ms`,
    '--berth-speed-slow': `${ANIMATION_MS.slow}ms`,
    '--berth-transition-short': `${TRANSITION_MS[0]}ms`,
    '--berth-transition': `${TRANSITION_MS[1]}ms`,
    '--berth-transition-long': `${TRANSITION_MS[2]}ms`,
  },
  light: {
    '--mantine-color-dimmed': '#5f6670',
    '--mantine-color-error': t.colors.red[9],
    '--mantine-color-red-light-color': t.colors.red[9],
    // `<Text c="red">` (e.g. the captcha's error line) uses this one.
    '--mantine-color-red-text': t.colors.red[9],
    // Light badges and alerts: Mantine's shade-6 text is 2-3:1 on their tinted backgrounds.
    '--mantine-color-green-light-color': '#1e6b30',
    '--mantine-color-gray-light-color': t.colors.gray[7],
    '--mantine-color-orange-light-color': '#8a3c00',
    '--mantine-color-yellow-light-color': '#7a5200',
  },
  dark: {},
});
