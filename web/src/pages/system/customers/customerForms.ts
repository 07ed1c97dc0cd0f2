import { ApiError } from '../../../api/client.ts';

/** What the create and the edit form have in common (react-hook-form values). */
export interface ContactValues {
  email: string;
  contact: { given_name: string; sn: string; phone: string[] };
  language: 'en' | 'de' | 'cs';
}

export const CONTACT_FIELDS = ['email', 'contact.given_name', 'contact.sn', 'contact.phone', 'language'] as const;

/**
 * The phone numbers are one field (a tags input): the server's errors for single numbers
 * (`contact.phone.2`) belong under it.
 */
export function phoneErrorsOnField(error: unknown): unknown {
  if (!(error instanceof ApiError) || !error.isValidation) return error;
  const fields: Record<string, string[]> = {};
  for (const [field, texts] of Object.entries(error.fieldErrors)) {
    const name = /^contact\.phone\.\d+$/.test(field) ? 'contact.phone' : field;
    fields[name] = [...(fields[name] ?? []), ...texts];
  }
  return new ApiError(error.status, error.message, fields, error.retryAfter);
}
