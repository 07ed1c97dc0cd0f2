/**
 * CSV for spreadsheets: every text cell quoted, and a cell that a spreadsheet would run as a
 * formula (=, +, -, @, tab, CR first) starts with an apostrophe (OWASP "CSV injection").
 */
export const csvCell = (value: string): string => `"${(/^[=+\-@\t\r]/.test(value) ? `'${value}` : value).replace(/"/g, '""')}"`;

/** A header line and rows, CRLF-separated as RFC 4180 has it; cells are already formatted. */
export const csvDocument = (header: readonly string[], rows: readonly (readonly string[])[]): string =>
  `${[header.join(','), ...rows.map((row) => row.join(','))].join('\r\n')}\r\n`;

/** The most rows one export carries (a reseller's customers or domains). */
export const CSV_EXPORT_MAX = 10_000;

/**
 * Every page of a keyset-paged list, up to CSV_EXPORT_MAX rows: the export sees exactly what the
 * list's own scope and filters allow.
 */
export async function allPages<T>(load: (cursor: string | undefined) => Promise<{ data: T[]; next_cursor: string | null }>): Promise<T[]> {
  const rows: T[] = [];
  let cursor: string | undefined;
  do {
    const page = await load(cursor);
    rows.push(...page.data);
    cursor = page.next_cursor ?? undefined;
  } while (cursor !== undefined && rows.length < CSV_EXPORT_MAX);
  return rows.slice(0, CSV_EXPORT_MAX);
}
