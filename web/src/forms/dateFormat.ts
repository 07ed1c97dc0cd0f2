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
