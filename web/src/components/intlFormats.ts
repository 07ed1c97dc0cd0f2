/**
 * Intl formatters, built once per language and options and then reused: building one costs about
 * 0.3 ms (four times that on a slow phone), and the domain list alone formats 100 dates.
 */
const formats = new Map<string, Intl.DateTimeFormat | Intl.NumberFormat | Intl.RelativeTimeFormat | Intl.DisplayNames>();

function cached<T extends Intl.DateTimeFormat | Intl.NumberFormat | Intl.RelativeTimeFormat | Intl.DisplayNames>(
  key: string,
  build: () => T,
): T {
  let format = formats.get(key) as T | undefined;
  if (format === undefined) {
    // A constructor that throws (an unknown currency) caches nothing: the caller's catch decides.
    format = build();
    formats.set(key, format);
  }
  return format;
}

/** Undefined in the browser (its own zone); the visitor's while the server renders a page (prerender/shellPage.tsx). */
let defaultTimeZone: string | undefined;

/** Only for the server's render of a page: dates and times in the visitor's zone, not the server's. */
export function setDefaultTimeZone(timeZone: string | undefined): void {
  defaultTimeZone = timeZone;
}

export const dateTimeFormat = (language: string, given: Intl.DateTimeFormatOptions = {}): Intl.DateTimeFormat => {
  const options = defaultTimeZone === undefined || given.timeZone !== undefined ? given : { ...given, timeZone: defaultTimeZone };
  return cached(`date|${language}|${JSON.stringify(options)}`, () => new Intl.DateTimeFormat(language, options));
};

export const numberFormat = (language: string, options: Intl.NumberFormatOptions = {}): Intl.NumberFormat =>
  cached(`number|${language}|${JSON.stringify(options)}`, () => new Intl.NumberFormat(language, options));

export const relativeTimeFormat = (language: string, options: Intl.RelativeTimeFormatOptions = {}): Intl.RelativeTimeFormat =>
  cached(`relative|${language}|${JSON.stringify(options)}`, () => new Intl.RelativeTimeFormat(language, options));

export const displayNames = (language: string, options: Intl.DisplayNamesOptions): Intl.DisplayNames =>
  cached(`names|${language}|${JSON.stringify(options)}`, () => new Intl.DisplayNames([language], options));

/**
 * The first formatter of a language loads that language's ICU data: on the dashboard about 15 ms
 * for numbers and 4 ms for dates (four times that on a slow phone), spent inside the render that
 * shows the first answer. Built in a task of their own while the shell waits for its data, they
 * are ready when that render comes.
 */
export function warmUpFormats(language: string): void {
  numberFormat(language);
  dateTimeFormat(language, { dateStyle: 'medium' });
}
