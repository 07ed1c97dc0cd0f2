import { HttpError } from '../../http/errors.ts';
import { checkPasswordPolicy } from '../../lib/password-policy.ts';

/**
 * Checks a new password and its confirmation together, so the form shows every problem at once
 * (field names differ between the panel forms and the domain-user form).
 */
export function assertNewPassword(
  password: string,
  confirmation: string,
  identifiers: readonly string[],
  fields: { password: string; confirmation: string } = { password: 'password', confirmation: 'password_confirmation' },
): void {
  const errors: NonNullable<HttpError['fieldErrors']> = {};
  const violation = checkPasswordPolicy(password, identifiers);
  if (violation) errors[fields.password] = [{ key: violation.key, params: violation.params }];
  if (password !== confirmation) errors[fields.confirmation] = [{ key: 'validation.confirmation' }];
  if (Object.keys(errors).length) throw new HttpError(422, 'validation.failed', { fields: errors });
}
