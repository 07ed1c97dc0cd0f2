import { isDeepStrictEqual } from 'node:util';

/** A stored value as compared: dates as instants, numeric columns (bigint, numeric) as numbers. */
const comparable = (value: unknown): unknown =>
  value instanceof Date ? value.toISOString() : typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value;

/**
 * The fields of an edit whose value really changed, for the audit log's `changed`: an edit form
 * sends every field, and the log should name only what the person changed.
 */
export function changedFields(fields: readonly string[], before: object, after: object): string {
  const was = before as Record<string, unknown>;
  const now = after as Record<string, unknown>;
  return fields.filter((field) => !isDeepStrictEqual(comparable(was[field]), comparable(now[field]))).join(',');
}
