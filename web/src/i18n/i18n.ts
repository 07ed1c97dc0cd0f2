import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { LANGUAGES, type LanguageCode } from '@berth/contracts';
import { setRequestLanguage } from '../api/client.ts';
import enBase from './en.json';
import deBase from './de.json';
import csBase from './cs.json';
import { csAreas, deAreas, enAreas } from './areas.ts';

const en = { ...enBase, ...enAreas };
const de = { ...deBase, ...deAreas };
const cs = { ...csBase, ...csAreas };

// `satisfies` makes the build fail when a translation misses a key of the English one.
export const resources = {
  en: { translation: en },
  de: { translation: de satisfies typeof en },
  cs: { translation: cs satisfies typeof en },
} as const;

declare module 'i18next' {
  interface CustomTypeOptions {
    resources: { translation: typeof en };
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
  document.documentElement.lang = language;
  setRequestLanguage(language);
}

export const i18n = i18next.createInstance();

i18n.on('languageChanged', syncDocumentLanguage);

void i18n.use(initReactI18next).init({
  resources,
  lng: initialLanguage(),
  fallbackLng: 'en',
  supportedLngs: [...LANGUAGES],
  interpolation: { escapeValue: false },
  returnNull: false,
  initAsync: false,
});

/** A language picked by hand is remembered on this device for the login screens. */
export function chooseLanguage(language: LanguageCode): void {
  try {
    window.localStorage.setItem(STORAGE_KEY, language);
  } catch {
    // Private mode or blocked storage: the pick still applies for this visit.
  }
  void i18n.changeLanguage(language);
}

/** The signed-in user's language wins over the device's pick. */
export function applyUserLanguage(language: string): void {
  if (isLanguageCode(language) && i18n.resolvedLanguage !== language) {
    void i18n.changeLanguage(language);
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
