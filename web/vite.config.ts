import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin, type Rolldown } from 'vite';
import react from '@vitejs/plugin-react';
import postcssPresetMantine from 'postcss-preset-mantine';
import postcssSimpleVars from 'postcss-simple-vars';
import {
  DEFAULT_THEME,
  convertCssVariables,
  defaultCssVariablesResolver,
  mergeMantineTheme,
  type ConvertCSSVariablesInput,
  type MantineTheme,
} from '@mantine/core';
import { cssVariablesResolver, theme } from './src/theme.ts';
import { ROUTE_PRELOADS } from './src/routePreloads.ts';
import { writeCompressedCopies } from './scripts/compress.ts';
import type { RoutePreloads } from '@berth/contracts';

const THEME_CSS_ID = 'virtual:mantine-theme.css';
const RESOLVED_THEME_CSS_ID = `\0${THEME_CSS_ID}`;

/** What MantineProvider would emit for `t`: Mantine's variables, then our resolver's. */
function themeVariables(t: MantineTheme): ConvertCSSVariablesInput {
  const base = defaultCssVariablesResolver(t);
  const extra = cssVariablesResolver(t);
  return {
    variables: { ...base.variables, ...extra.variables },
    light: { ...base.light, ...extra.light },
    dark: { ...base.dark, ...extra.dark },
  };
}

type Variables = Record<string, string>;

function diff(ours: Variables, defaults: Variables): Variables {
  return Object.fromEntries(Object.entries(ours).filter(([key, value]) => defaults[key] !== value));
}

/**
 * MantineProvider normally writes the theme's CSS variables into an inline <style> element,
 * which a strict `style-src 'self'` CSP blocks. We render the provider with
 * `withCssVariables={false}` and compile the same variables (only those that differ from
 * `@mantine/core/styles.css`) into a static stylesheet here.
 */
function mantineThemeCss(): Plugin {
  return {
    name: 'berth:mantine-theme-css',
    resolveId(source) {
      return source === THEME_CSS_ID ? RESOLVED_THEME_CSS_ID : undefined;
    },
    load(id) {
      if (id !== RESOLVED_THEME_CSS_ID) return undefined;
      const ours = themeVariables(mergeMantineTheme(DEFAULT_THEME, theme));
      // What @mantine/core/styles.css already declares.
      const defaults = defaultCssVariablesResolver(DEFAULT_THEME);
      return convertCssVariables(
        {
          variables: diff(ours.variables, defaults.variables),
          light: diff(ours.light, defaults.light),
          dark: diff(ours.dark, defaults.dark),
        },
        ':root',
      );
    },
  };
}

const COMPRESSIBLE = /\.(js|css|html|svg|json|txt|map)$/;

/** Brotli and gzip copies of every text asset (scripts/compress.ts). */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'berth:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      for (const entry of readdirSync(outDir, { recursive: true, withFileTypes: true })) {
        if (!entry.isFile() || !COMPRESSIBLE.test(entry.name)) continue;
        const file = path.join(entry.parentPath, entry.name);
        writeCompressedCopies(file, readFileSync(file));
      }
    },
  };
}

/** The chunks of a bundle by file name, and the set of `fileNames` with everything they import statically. */
function chunkGraph(bundle: Rolldown.OutputBundle) {
  const chunks = Object.values(bundle).filter((file) => file.type === 'chunk');
  const byFileName = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const closure = (fileNames: Iterable<string>) => {
    const seen = new Set<string>();
    const visit = (fileName: string) => {
      if (seen.has(fileName)) return;
      seen.add(fileName);
      for (const imported of byFileName.get(fileName)?.imports ?? []) visit(imported);
    };
    for (const fileName of fileNames) visit(fileName);
    return seen;
  };
  return { chunks, byFileName, closure };
}

/**
 * V8's explicit compile hint (Chrome 136 and later): a script that starts with this comment is
 * compiled whole on a background thread while it streams in, instead of function by function on
 * the main thread at each first call. Only for the chunks whose code runs at start on every page.
 * Lighthouse (mean of alternating runs with and without): /login script evaluation 1,384 -> 1,091 ms,
 * blocking time 977 -> 844 ms; /dashboard script evaluation 2,390 -> 1,693 ms, blocking time
 * 2,752 -> 1,873 ms.
 */
const COMPILE_HINT = '//# allFunctionsCalledOnLoad\n';

function compileHints(): Plugin {
  return {
    name: 'berth:compile-hints',
    apply: 'build',
    generateBundle: {
      // After vite has written the dynamic imports' preload lists into the chunks.
      order: 'post',
      handler(_options, bundle) {
        const { chunks, byFileName, closure } = chunkGraph(bundle);
        const atStart = closure(
          chunks.filter((chunk) => chunk.isEntry || SHELL_CHUNKS.includes(chunk.name)).map((chunk) => chunk.fileName),
        );
        for (const fileName of atStart) {
          const chunk = byFileName.get(fileName);
          // The hint must be the file's first line.
          if (chunk) chunk.code = COMPILE_HINT + chunk.code;
        }
      },
    },
  };
}

/**
 * dist/route-preloads.json: for each pattern of src/routePreloads.ts, the chunks (with their
 * static imports) and stylesheets of its modules that index.html does not already load.
 */
function routePreloads(): Plugin {
  let root = '';
  let base = '/';
  return {
    name: 'berth:route-preloads',
    apply: 'build',
    configResolved(config) {
      root = config.root;
      base = config.base;
    },
    generateBundle(_options, bundle) {
      const { chunks, byFileName, closure } = chunkGraph(bundle);
      const cssOf = (fileNames: Iterable<string>) =>
        [...fileNames].flatMap((fileName) => [...(byFileName.get(fileName)?.viteMetadata?.importedCss ?? [])]);
      const entry = closure(chunks.filter((chunk) => chunk.isEntry).map((chunk) => chunk.fileName));
      const entryCss = new Set(cssOf(entry));
      const routes = ROUTE_PRELOADS.map(({ pattern, modules, data = [] }) => {
        const roots = modules.map((module) => {
          const id = path.resolve(root, module);
          const chunk = chunks.find((candidate) => candidate.facadeModuleId === id);
          if (!chunk) throw new Error(`src/routePreloads.ts names ${module}, which is no lazily loaded chunk`);
          return chunk.fileName;
        });
        // The public screens must not pull in the shell's chunks: the `app` and `mantine-shell`
        // groups below are lists read off the module graph, and a new import can outgrow them.
        if (!modules.includes(SHELL_MODULE)) {
          const reached = [...closure([...entry, ...roots])].filter((fileName) =>
            SHELL_CHUNKS.includes(byFileName.get(fileName)?.name ?? ''),
          );
          if (reached.length > 0) {
            throw new Error(
              `the public route ${pattern} loads the shell's chunks ${reached.join(', ')}: see codeSplitting in web/vite.config.ts`,
            );
          }
        }
        const scripts = [...closure(roots)].filter((fileName) => !entry.has(fileName));
        const styles = [...new Set(cssOf(closure(roots)))].filter((fileName) => !entryCss.has(fileName));
        return { pattern, scripts: scripts.map((f) => base + f), styles: styles.map((f) => base + f), data };
      });
      const preloads: RoutePreloads = routes;
      this.emitFile({ type: 'asset', fileName: 'route-preloads.json', source: JSON.stringify(preloads, null, 1) });
    },
  };
}

/** The signed-in shell, and the chunks only it may load (the public screens must not). */
const SHELL_MODULE = 'src/shell/Shell.tsx';
const SHELL_CHUNKS = ['shell', 'mantine-shell'];

/**
 * Scripts are preloaded behind the stylesheets: index.html paints its loading dots with the
 * stylesheets alone, and a preload's default high priority would hold that first paint back until
 * every script is in (seconds on a slow phone network). The server marks the route preloads it
 * adds the same way (server/src/http/web-app.ts).
 */
function lowPriorityScriptPreloads(): Plugin {
  return {
    name: 'berth:low-priority-script-preloads',
    apply: 'build',
    transformIndexHtml: {
      // After vite has written its preload links into the page.
      order: 'post',
      handler: (html) => html.replaceAll('<link rel="modulepreload" ', '<link rel="modulepreload" fetchpriority="low" '),
    },
  };
}

/** Mantine's components no login screen uses (checked with the build's module graph when this was written). */
const SHELL_ONLY_MANTINE =
  /node_modules[\\/]@mantine[\\/]core[\\/]esm[\\/]components[\\/](Accordion|Avatar|Badge|Collapse|Drawer|Fieldset|FileButton|FileInput|FloatingIndicator|List|Menu|MultiSelect|NumberInput|Pill|PillsInput|Progress|Radio|SegmentedControl|Select|Table|TagsInput|Textarea)[\\/]/;

const breakpoints = {
  'mantine-breakpoint-xs': '36em',
  'mantine-breakpoint-sm': '48em',
  'mantine-breakpoint-md': '62em',
  'mantine-breakpoint-lg': '75em',
  'mantine-breakpoint-xl': '88em',
};

export default defineConfig(({ command, isSsrBuild }) => ({
  root: fileURLToPath(new URL('.', import.meta.url)),
  // The SPA answers at every path; only its built assets live under /admin/ (the server
  // serves them there). The dev server serves everything at `/` with an SPA fallback.
  base: command === 'build' ? '/admin/' : '/',
  // The server-side build renders the login page to HTML at build time (scripts/prerender.ts):
  // the same CSS modules (same class names), none of the browser bundle's post-processing.
  plugins: isSsrBuild
    ? [react()]
    : [react(), mantineThemeCss(), lowPriorityScriptPreloads(), routePreloads(), compileHints(), precompress()],
  css: {
    postcss: {
      plugins: [postcssPresetMantine(), postcssSimpleVars({ variables: breakpoints })],
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Emit every asset as a file so the CSP needs no `data:` sources for them.
    assetsInlineLimit: 0,
    rolldownOptions: {
      output: {
        // Modules run in import order even across chunks: src/zodConfig.ts must configure zod
        // before @berth/contracts builds its schemas, wherever the bundler puts either.
        strictExecutionOrder: true,
        // Libraries every page needs, in chunks that survive app-only deploys in the cache.
        // Libraries of lazy routes (floating-ui, react-hook-form, ...) keep the default
        // splitting so the login page does not download them up front.
        codeSplitting: {
          groups: [
            {
              name: 'react',
              priority: 2,
              test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/,
            },
            {
              name: 'mantine',
              // Before mantine-shell: the core and the components shared with the login page.
              priority: 1,
              // Scripts only: Mantine's stylesheets stay split between the entry and the shell.
              test: (id: string) =>
                /node_modules[\\/](@mantine[\\/]core|@floating-ui|react-remove-scroll|react-textarea-autosize|clsx)[\\/]/.test(id) &&
                !SHELL_ONLY_MANTINE.test(id) &&
                !id.endsWith('.css'),
            },
            {
              // Mantine's components that only the shell's pages use: the login page does not
              // download them (the shell loads this chunk beside its own).
              name: 'mantine-shell',
              test: (id: string) => SHELL_ONLY_MANTINE.test(id) && !id.endsWith('.css'),
            },
            {
              name: 'libs',
              test: /node_modules[\\/](zod|@tanstack[\\/](query-core|react-query)|i18next|react-i18next)[\\/]/,
            },
            {
              // The date field with its calendar and day.js (forms/DateField.tsx): only the pages
              // with a date load it, never the login screens.
              name: 'dates',
              test: (id: string) =>
                /node_modules[\\/](@mantine[\\/]dates|dayjs)[\\/]|web[\\/]src[\\/]forms[\\/](DateField|dateFormat)\./.test(id) &&
                !id.endsWith('.css'),
            },
            {
              // The auth screens, the components and form fields every page shares and the API modules
              // they use, in one
              // chunk: split by use they were 20 files of 1-3 KB, and the login page waited on
              // them one connection slot at a time (34 requests; now 16). The captcha stays out:
              // its library (80 KB) loads only when a screen shows a challenge.
              name: 'app',
              test: (id: string) =>
                /web[\\/]src[\\/](components|forms|auth)[\\/]|web[\\/]src[\\/]api[\\/](client|queries|authFlows|passkeys|services)\.ts$|@tabler[\\/]icons-react[\\/]dist[\\/]esm[\\/](createReactComponent|defaultAttributes)|@simplewebauthn/.test(
                  id,
                ) &&
                !/[\\/]captcha[\\/]|[\\/]forms[\\/](DateField|dateFormat)\./.test(id) &&
                !id.endsWith('.css'),
            },
            {
              // The shell (header, menu, messages) with everything it imports that the groups
              // above do not hold: its icons, API hooks and the page helpers it shares with the
              // pages. Split by use these were 50 files of about 1 KB on every signed-in page.
              name: 'shell',
              test: (id: string) => /web[\\/]src[\\/]shell[\\/]/.test(id) && !id.endsWith('.css'),
            },
          ],
        },
      },
    },
  },
  server: {
    proxy: {
      '/api': 'http://localhost:3000',
    },
  },
}));
