import { z } from 'zod';

/*
 * The rules every input passes before any field rule: the server applies them to every body,
 * query and path (server/src/http/input-guard.ts), so no field can carry them to the database.
 */

/** The largest id a PostgreSQL `integer` key holds: a larger one is "not found", never an overflow. */
export const ID_MAX = 2_147_483_647;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why `value` is not text the database can store, as a message key, or null: a NUL character (PostgreSQL refuses it) or a lone UTF-16 surrogate (not Unicode). */
export const textProblem = (value: string): 'validation.nul' | 'validation.surrogate' | null =>
  value.includes('\u0000') ? 'validation.nul' : LONE_SURROGATE.test(value) ? 'validation.surrogate' : null;

export const isStorableText = (value: string): boolean => textProblem(value) === null;

/** A string field that keeps the rule inside a schema too (for values decoded from cursors). */
export const storableText = () => z.string().refine(isStorableText, { message: 'Contains characters that cannot be stored.' });

/** How deep a JSON body may nest: far beyond any payload of the API, far below a stack overflow. */
export const INPUT_DEPTH_MAX = 32;
