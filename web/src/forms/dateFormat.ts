const formats = new Map<string, string>();

/**
 * The day.js pattern of a short date in a language, read from Intl ("DD. MM. YYYY" in Czech,
 * "DD.MM.YYYY" in German, "MM/DD/YYYY" in English), so typed and shown dates follow the reader.
 */
export function dateFormatOf(language: string): string {
  let format = formats.get(language);
  if (!format) {
    const parts = new Intl.DateTimeFormat(language, { day: '2-digit', month: '2-digit', year: 'numeric' }).formatToParts(
      new Date(2026, 10, 28),
    );
    format = parts
      .map((part) => (part.type === 'day' ? 'DD' : part.type === 'month' ? 'MM' : part.type === 'year' ? 'YYYY' : part.value))
      .join('');
    formats.set(language, format);
  }
  return format;
}

/** The day a calendar week starts on (0 Sunday, 1 Monday), read from Intl where the browser knows it. */
export function firstDayOfWeekOf(language: string): 0 | 1 {
  const locale = new Intl.Locale(language === 'en' ? 'en-US' : language) as Intl.Locale & {
    getWeekInfo?: () => { firstDay: number };
    weekInfo?: { firstDay: number };
  };
  const firstDay = locale.getWeekInfo?.().firstDay ?? locale.weekInfo?.firstDay ?? (language === 'en' ? 7 : 1);
  // Intl counts Monday 1 … Sunday 7.
  return firstDay === 7 ? 0 : 1;
}
