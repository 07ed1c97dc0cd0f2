import { useMemo } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { FieldErrors, FieldValues, Path, Resolver, UseFormSetError } from 'react-hook-form';
import type { z } from 'zod';
import { PASSWORD_MIN_LENGTH } from '@berth/contracts';
import { ApiError } from '../api/client.ts';
import { i18n, translateServerText } from '../i18n/i18n.ts';

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

/**
 * Contracts schemas name some messages by key (`validation.email`, `validation.totp`, ...):
 * those win over the error map, so they are translated here, at every depth of the errors.
 */
function translateMessages(errors: Record<string, unknown> | unknown[]): void {
  for (const [key, value] of Object.entries(errors)) {
    // The errors of a list field (useFieldArray) are an array of the items' errors.
    if (Array.isArray(value)) {
      translateMessages(value);
      continue;
    }
    // `ref` is the field's element: not an error, and full of cycles.
    if (key === 'ref' || !isPlainObject(value)) continue;
    if (typeof value.message === 'string') value.message = translateServerText(value.message);
    translateMessages(value);
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** A react-hook-form resolver for a contracts schema, with translated messages. */
export function useSchemaResolver<
  S extends z.ZodType<unknown, FieldValues>,
  Input extends FieldValues = z.input<S> & FieldValues,
  Output = z.output<S>,
>(schema: S): Resolver<Input, unknown, Output> {
  const { t } = useTranslation();
  return useMemo(() => {
    const resolve = zodResolver(schema, { error: createErrorMap(t) }) as unknown as Resolver<Input, unknown, Output>;
    return async (values, context, options) => {
      const result = await resolve(values, context, options);
      translateMessages(result.errors as FieldErrors as Record<string, unknown>);
      return result;
    };
  }, [schema, t]);
}

type StringKeys<T> = { [K in keyof T]: T[K] extends string ? K : never }[keyof T] & string;

/**
 * Adds what the server checks on every new password and people should learn before they
 * submit: the minimum length (docs/product.md §5; contracts' PASSWORD_MIN_LENGTH) and that
 * the confirmation matches. Both run even while other fields are still invalid.
 */
export function withNewPassword<T extends z.ZodObject>(
  schema: T,
  password: StringKeys<z.output<T>>,
  confirmation: StringKeys<z.output<T>>,
): T {
  const fieldsOf = (value: unknown): { password: unknown; confirmation: unknown } => {
    const record = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
    return { password: record[password], confirmation: record[confirmation] };
  };
  return schema
    .refine(
      (value) => {
        const fields = fieldsOf(value);
        return typeof fields.password !== 'string' || fields.password.length === 0 ? true : fields.password.length >= PASSWORD_MIN_LENGTH;
      },
      {
        path: [password],
        error: () => i18n.t('validation.passwordTooShort', { min: PASSWORD_MIN_LENGTH }),
        when: (payload) => typeof fieldsOf(payload.value).password === 'string',
      },
    )
    .refine(
      (value) => {
        const fields = fieldsOf(value);
        return fields.password === fields.confirmation;
      },
      {
        path: [confirmation],
        error: () => i18n.t('validation.confirmation'),
        when: (payload) => {
          const fields = fieldsOf(payload.value);
          return typeof fields.password === 'string' && typeof fields.confirmation === 'string';
        },
      },
    );
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

/**
 * What a form shows above its fields when a submit fails: field errors go under their fields;
 * the answer's message is shown only when no field took an error (it is then the whole story),
 * and errors for fields the form does not have are shown instead of it.
 */
export function formErrorOf<T extends FieldValues>(
  error: unknown,
  fields: readonly Path<T>[],
  setError: UseFormSetError<T>,
  t: TFunction,
): string | null {
  if (error instanceof ApiError && error.isValidation) {
    const rest = applyFieldErrors(error, fields, setError);
    if (rest.length > 0) return rest.join(' ');
    if (Object.keys(error.fieldErrors).length === 0) return describeError(error, t);
    return null;
  }
  return describeError(error, t);
}

/** One sentence for a failed call: the server's message, plus when to retry a 429. */
export function describeError(error: unknown, t: TFunction): string {
  if (!(error instanceof ApiError)) return t('errors.unknown');
  const message = translateServerText(error.message);
  if (!error.isThrottled || error.retryAfter === undefined) return message;
  // The server's own throttle message usually names the wait already ("in 55 minutes").
  if (/\d/.test(message)) return message;
  const retry =
    error.retryAfter >= 90
      ? t('errors.retryInMinutes', { count: Math.ceil(error.retryAfter / 60) })
      : t('errors.retryInSeconds', { count: Math.max(1, error.retryAfter) });
  return `${message} ${retry}`;
}
