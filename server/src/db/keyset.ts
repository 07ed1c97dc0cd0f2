import type { z } from 'zod';
import { ID_MAX, textProblem } from '@berth/contracts';
import { fieldError } from '../http/errors.ts';

/**
 * Keyset pagination cursors: the sort key of the last row of a page (and the sort it belongs to),
 * opaque to clients. A page asks for one row more than it shows to know whether another follows.
 */
export function encodeCursor(sort: string, key: readonly (string | number | null)[]): string {
  return Buffer.from(JSON.stringify([sort, ...key])).toString('base64url');
}

/** The key of a cursor made for `sort`; anything else is a 422 on `cursor`. */
export function decodeCursor<T extends z.ZodTuple>(cursor: string, sort: string, shape: T): z.infer<T> {
  try {
    const [cursorSort, ...key] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    if (cursorSort !== sort) throw new Error('cursor of another sort');
    // A cursor comes back from the client: its values obey the input rules of contracts/src/input.ts
    // too, so a forged one cannot overflow an integer key or carry a NUL to the database.
    for (const value of key) {
      if (typeof value === 'string' && textProblem(value)) throw new Error('unstorable text');
      if (typeof value === 'number' && !(Number.isSafeInteger(value) && Math.abs(value) <= ID_MAX)) throw new Error('out of range');
    }
    return shape.parse(key);
  } catch {
    throw fieldError('cursor', 'validation.invalid');
  }
}

/** Cuts the extra row off and makes the cursor of the page's last row. */
export function pageOfRows<R>(rows: R[], limit: number, cursorOf: (row: R) => string): { rows: R[]; nextCursor: string | null } {
  if (rows.length <= limit) return { rows, nextCursor: null };
  const page = rows.slice(0, limit);
  return { rows: page, nextCursor: cursorOf(page[page.length - 1] as R) };
}

/** A LIKE pattern matching `text` literally. */
export const escapeLike = (text: string): string => text.replace(/[\\%_]/g, (c) => `\\${c}`);
