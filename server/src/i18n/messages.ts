import type { LanguageCode } from '@berth/contracts';

const en = {
  'validation.required': 'This field is required.',
  'validation.invalid': 'This value is not valid.',
  'validation.too_short': 'Use at least {min} characters.',
  'validation.too_long': 'Use at most {max} characters.',
  'validation.email': 'Enter a valid e-mail address.',
  'validation.failed': 'Some fields need your attention.',
  'auth.failed': 'These credentials do not match our records.',
  'auth.locked': 'This account is locked. Please contact your administrator.',
  'auth.throttled': 'Too many login attempts. Please try again in {seconds} seconds.',
  'auth.unauthenticated': 'Please log in to continue.',
  'auth.logged_out': 'You have been logged out.',
  'http.forbidden_cross_site': 'Cross-site requests are not allowed.',
  'http.not_found': 'Not found.',
  'http.bad_request': 'The request could not be read.',
  'http.too_many_requests': 'Too many requests. Please try again in {seconds} seconds.',
  'System.UnknownErrorCtrlF5': 'An unknown error occurred. Please reload the page (Ctrl+F5).',
} as const;

export type MessageKey = keyof typeof en;
type Dictionary = Record<MessageKey, string>;

const de: Dictionary = {
  'validation.required': 'Dieses Feld ist erforderlich.',
  'validation.invalid': 'Dieser Wert ist ungültig.',
  'validation.too_short': 'Verwenden Sie mindestens {min} Zeichen.',
  'validation.too_long': 'Verwenden Sie höchstens {max} Zeichen.',
  'validation.email': 'Geben Sie eine gültige E-Mail-Adresse ein.',
  'validation.failed': 'Einige Felder benötigen Ihre Aufmerksamkeit.',
  'auth.failed': 'Diese Zugangsdaten stimmen nicht mit unseren Daten überein.',
  'auth.locked': 'Dieses Konto ist gesperrt. Bitte wenden Sie sich an Ihren Administrator.',
  'auth.throttled': 'Zu viele Anmeldeversuche. Bitte versuchen Sie es in {seconds} Sekunden erneut.',
  'auth.unauthenticated': 'Bitte melden Sie sich an, um fortzufahren.',
  'auth.logged_out': 'Sie wurden abgemeldet.',
  'http.forbidden_cross_site': 'Websiteübergreifende Anfragen sind nicht erlaubt.',
  'http.not_found': 'Nicht gefunden.',
  'http.bad_request': 'Die Anfrage konnte nicht gelesen werden.',
  'http.too_many_requests': 'Zu viele Anfragen. Bitte versuchen Sie es in {seconds} Sekunden erneut.',
  'System.UnknownErrorCtrlF5': 'Ein unbekannter Fehler ist aufgetreten. Bitte laden Sie die Seite neu (Strg+F5).',
};

const cs: Dictionary = {
  'validation.required': 'Toto pole je povinné.',
  'validation.invalid': 'Tato hodnota není platná.',
  'validation.too_short': 'Použijte alespoň {min} znaků.',
  'validation.too_long': 'Použijte nejvýše {max} znaků.',
  'validation.email': 'Zadejte platnou e-mailovou adresu.',
  'validation.failed': 'Některá pole vyžadují vaši pozornost.',
  'auth.failed': 'Tyto přihlašovací údaje neodpovídají našim záznamům.',
  'auth.locked': 'Tento účet je zablokován. Obraťte se prosím na svého správce.',
  'auth.throttled': 'Příliš mnoho pokusů o přihlášení. Zkuste to prosím znovu za {seconds} sekund.',
  'auth.unauthenticated': 'Pro pokračování se prosím přihlaste.',
  'auth.logged_out': 'Byli jste odhlášeni.',
  'http.forbidden_cross_site': 'Požadavky z jiných webů nejsou povoleny.',
  'http.not_found': 'Nenalezeno.',
  'http.bad_request': 'Požadavek nelze přečíst.',
  'http.too_many_requests': 'Příliš mnoho požadavků. Zkuste to prosím znovu za {seconds} sekund.',
  'System.UnknownErrorCtrlF5': 'Došlo k neznámé chybě. Obnovte prosím stránku (Ctrl+F5).',
};

const dictionaries: Record<LanguageCode, Dictionary> = { en, de, cs };

export function translate(lang: LanguageCode, key: MessageKey, params: Record<string, string | number> = {}): string {
  const template = dictionaries[lang][key];
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => String(params[name] ?? whole));
}

/** Picks the best supported language from an Accept-Language header. */
export function languageFromHeader(header: string | undefined, fallback: LanguageCode = 'en'): LanguageCode {
  if (!header) return fallback;
  const ranked = header
    .split(',')
    .map((part) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.find((p) => p.trim().startsWith('q='));
      return { code: tag.toLowerCase().split('-')[0] ?? '', q: q ? Number(q.trim().slice(2)) : 1 };
    })
    .filter((entry) => entry.code && !Number.isNaN(entry.q))
    .sort((a, b) => b.q - a.q);
  for (const entry of ranked) if (isLanguage(entry.code)) return entry.code;
  return fallback;
}

export function isLanguage(code: string): code is LanguageCode {
  return code === 'en' || code === 'de' || code === 'cs';
}
