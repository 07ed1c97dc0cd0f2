import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { LANGUAGE_COOKIE, LANGUAGES, type LanguageCode } from '@berth/contracts';
import { setRequestLanguage } from '../api/client.ts';
import { en, type Strings } from './en.ts';

/** Languages other than English come as chunks of their own, fetched when someone picks them. */
const catalogues: Record<Exclude<LanguageCode, 'en'>, () => Promise<Strings>> = {
  de: async () => (await import('./de.ts')).de,
  cs: async () => (await import('./cs.ts')).cs,
};

declare module 'i18next' {
  interface CustomTypeOptions {
    resources: { translation: Strings };
  }
}

const STORAGE_KEY = 'berth.language';

export function isLanguageCode(value: unknown): value is LanguageCode {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

function storedLanguage(): LanguageCode | undefined {
  try {
    const value = window.localStorage.getItem(STORAGE_KEY);
    return isLanguageCode(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function browserLanguage(): LanguageCode | undefined {
  for (const tag of navigator.languages) {
    const code = tag.toLowerCase().split('-')[0];
    if (isLanguageCode(code)) return code;
  }
  return undefined;
}

/** Before login: the visitor's own pick, else the browser's languages, else English. */
function initialLanguage(): LanguageCode {
  return storedLanguage() ?? browserLanguage() ?? 'en';
}

function syncDocumentLanguage(language: string): void {
  // No document when the build renders the login page (prerender/loginPage.tsx).
  if (typeof document === 'undefined') return;
  document.documentElement.lang = language;
  setRequestLanguage(language);
}

export const i18n = i18next.createInstance();

i18n.on('languageChanged', syncDocumentLanguage);

void i18n.use(initReactI18next).init({
  resources: { en: { translation: en } },
  lng: 'en',
  fallbackLng: 'en',
  supportedLngs: [...LANGUAGES],
  interpolation: { escapeValue: false },
  returnNull: false,
  initAsync: false,
});

/** Switches to `language` once its strings are here (English always is). */
export async function switchLanguage(language: LanguageCode): Promise<void> {
  if (language !== 'en' && !i18n.hasResourceBundle(language, 'translation')) {
    i18n.addResourceBundle(language, 'translation', await catalogues[language]());
  }
  await i18n.changeLanguage(language);
}

let englishAreas: Promise<void> | undefined;

/**
 * The inner pages' English strings (enAreas.ts), added once before the shell renders: English is
 * every language's fallback, so they load whatever the language (German and Czech hold theirs).
 */
export function loadEnglishAreas(): Promise<void> {
  englishAreas ??= import('./enAreas.ts')
    .then(({ enAreas }) => {
      i18n.addResourceBundle('en', 'translation', enAreas, true, false);
    })
    .catch((error: unknown) => {
      englishAreas = undefined;
      throw error;
    });
  return englishAreas;
}

/** Resolves once the visitor's language is loaded: main.tsx renders after it, so no English flashes first. */
export const i18nReady: Promise<void> = switchLanguage(initialLanguage()).catch(() => undefined);

/** A language picked by hand is remembered on this device for the login screens. */
export function chooseLanguage(language: LanguageCode): void {
  try {
    window.localStorage.setItem(STORAGE_KEY, language);
  } catch {
    // Private mode or blocked storage: the pick still applies for this visit.
  }
  // The server sends the prerendered login page in this language (server/src/http/web-app.ts).
  document.cookie = `${LANGUAGE_COOKIE}=${language}; Path=/; Max-Age=31536000; SameSite=Lax${window.location.protocol === 'https:' ? '; Secure' : ''}`;
  void switchLanguage(language);
}

/** The signed-in user's language wins over the device's pick. */
export function applyUserLanguage(language: string): void {
  if (isLanguageCode(language) && i18n.resolvedLanguage !== language) {
    void switchLanguage(language);
  }
}

export function currentLanguage(): LanguageCode {
  const language = i18n.resolvedLanguage;
  return isLanguageCode(language) ? language : 'en';
}

/**
 * Server messages are either message codes (i18n keys such as `System.UnknownErrorCtrlF5`) or
 * text already in the user's language; translate the former, pass the latter through.
 */
export function translateServerText(text: string): string {
  const t = i18n.t as (key: string) => string;
  const resource: unknown = i18n.getResource(currentLanguage(), 'translation', text);
  const fallback: unknown = i18n.getResource('en', 'translation', text);
  return typeof resource === 'string' || typeof fallback === 'string' ? t(text) : text;
}
