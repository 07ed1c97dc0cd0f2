import { z } from 'zod';
import { emailAddressSchema, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, roleSchema } from '@berth/contracts';
import type { Db } from '../../db/connection.ts';
import { tenantPasswordContext } from '../tenants/service.ts';
import type { Clock } from '../../lib/clock.ts';
import type { PasswordHasher } from '../../lib/password.ts';
import { findUserById, findUserByTenantEmail, insertUser, updatePasswordHash } from './queries.ts';
import { checkPasswordPolicy } from '../../lib/password-policy.ts';
import { translate } from '../../i18n/messages.ts';

export const newUserSchema = z.object({
  tenantId: z.number().int().positive(),
  email: emailAddressSchema,
  password: z.string().min(PASSWORD_MIN_LENGTH).max(PASSWORD_MAX_LENGTH),
  role: roleSchema,
  given_name: z.string().max(100).default(''),
  sn: z.string().max(100).default(''),
  language: z.enum(['en', 'de', 'cs']).default('en'),
  verified: z.boolean().default(true),
});
export type NewUser = z.input<typeof newUserSchema>;

export class UserExistsError extends Error {}

/** Creates a user with an argon2id hash; used by bootstrap, the CLI and (later) registration. */
/** The rule of lib/password-policy.ts for paths without a form (CLI, first admin): a plain error that says why. */
export class WeakPasswordError extends Error {}
function assertStrongPassword(password: string, identifiers: string[]): void {
  const violation = checkPasswordPolicy(password, identifiers);
  if (violation) throw new WeakPasswordError(translate('en', violation.key, violation.params));
}

export async function createUser(db: Db, hasher: PasswordHasher, clock: Clock, input: NewUser) {
  const user = newUserSchema.parse(input);
  assertStrongPassword(user.password, [user.email, user.given_name, user.sn, ...(await tenantPasswordContext(db, user.tenantId))]);
  if (await findUserByTenantEmail(db, user.tenantId, user.email)) {
    throw new UserExistsError(`A user with the e-mail ${user.email} already exists in tenant ${user.tenantId}.`);
  }
  return insertUser(db, {
    tenant_id: user.tenantId,
    email: user.email,
    password_hash: await hasher.hash(user.password),
    role: user.role,
    given_name: user.given_name,
    sn: user.sn,
    language: user.language,
    email_verified_at: user.verified ? clock.now() : null,
  });
}

export async function setPassword(db: Db, hasher: PasswordHasher, clock: Clock, userId: number, password: string) {
  z.string().min(PASSWORD_MIN_LENGTH).max(PASSWORD_MAX_LENGTH).parse(password);
  const user = await findUserById(db, userId);
  assertStrongPassword(password, user ? [user.email, user.given_name ?? '', user.sn ?? ''] : []);
  await updatePasswordHash(db, userId, await hasher.hash(password), clock.now());
}
