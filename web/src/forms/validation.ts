import { useMemo } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import type { z } from 'zod';
import { ApiError } from '../api/client.ts';
import { translateServerText } from '../i18n/i18n.ts';

/** zod's issues in the user's language, phrased for people rather than for developers. */
export function createErrorMap(t: TFunction): z.core.$ZodErrorMap {
  return (issue) => {
    if (issue.code === 'too_small' || (issue.code === 'invalid_type' && issue.input == null)) {
      return t('validation.required');
    }
    if (issue.code === 'too_big') {
      return t('validation.tooLong', { max: Number(issue.maximum) });
    }
    return t('validation.invalid');
  };
}

/** A react-hook-form resolver for a contracts schema, with translated messages. */
export function useSchemaResolver<S extends z.ZodType<unknown, FieldValues>>(schema: S) {
  const { t } = useTranslation();
  return useMemo(() => zodResolver(schema, { error: createErrorMap(t) }), [schema, t]);
}

/**
 * Puts a 422's field errors under the form's own fields (focusing the first) and returns the
 * texts of errors that belong to no field, for a form-level message.
 */
export function applyFieldErrors<T extends FieldValues>(
  error: ApiError,
  fields: readonly Path<T>[],
  setError: UseFormSetError<T>,
): string[] {
  const unmatched: string[] = [];
  let focused = false;
  for (const [field, texts] of Object.entries(error.fieldErrors)) {
    const message = texts.map(translateServerText).join(' ');
    const target = fields.find((name) => name === field);
    if (target === undefined) {
      unmatched.push(message);
      continue;
    }
    setError(target, { type: 'server', message }, { shouldFocus: !focused });
    focused = true;
  }
  return unmatched;
}

/** One sentence for a failed call: the server's message, plus when to retry a 429. */
export function describeError(error: unknown, t: TFunction): string {
  if (!(error instanceof ApiError)) return t('errors.unknown');
  const message = translateServerText(error.message);
  if (!error.isThrottled || error.retryAfter === undefined) return message;
  // The server's own throttle message usually names the wait already.
  if (message.includes(String(error.retryAfter))) return message;
  const retry =
    error.retryAfter >= 90
      ? t('errors.retryInMinutes', { count: Math.ceil(error.retryAfter / 60) })
      : t('errors.retryInSeconds', { count: Math.max(1, error.retryAfter) });
  return `${message} ${retry}`;
}
