import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCustomer, createTestApp, type TestApp } from '../../../test/harness.ts';
import { addDomainWithUser } from '../../../test/hosting.ts';

let t: TestApp;
const UID = 'info@example.com';
const OLD = 'the mailbox password of old';
const NEW = 'a new mailbox passphrase 2026';

beforeEach(async () => {
  t = await createTestApp();
  const { user } = await createCustomer(t, 'owner@localhost');
  await addDomainWithUser(t, user.id, UID, OLD);
});
afterEach(async () => {
  await t.close();
});

const change = (uid: string, oldPassword: string, password = NEW, confirmation = password) =>
  t.app.inject({
    method: 'PATCH',
    url: '/api/host/domain-user/change-password',
    payload: { uid, user_password_old: oldPassword, user_password: password, user_password_confirmation: confirmation },
  });

describe('PATCH /api/host/domain-user/change-password', () => {
  it('changes the password with the old one, then only the new one works', async () => {
    const answer = await change('INFO@example.com', OLD);
    expect(answer.statusCode).toBe(200);
    expect(answer.json().message).toBe('The password of info@example.com has been changed.');
    expect((await change(UID, OLD, `${NEW} again`)).statusCode).toBe(422);
    expect((await change(UID, NEW, `${NEW} again`)).statusCode).toBe(200);
    const row = await t.db.selectFrom('domain_users').select('password_hash').executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
  });

  it('gives a wrong uid and a wrong password the same combined error', async () => {
    const wrongUid = await change('nobody@example.com', OLD);
    const wrongPassword = await change(UID, 'not the old password');
    expect(wrongUid.statusCode).toBe(422);
    expect(wrongUid.body).toBe(wrongPassword.body);
    expect(wrongUid.json().errors).toEqual({
      valid_uid_and_password: ['The login (uid) or the current password is not correct.'],
    });
  });

  it('applies the password policy to the new password, on its own fields', async () => {
    expect((await change(UID, OLD, 'short one')).json().errors.user_password[0]).toMatch(/at least 15/);
    expect((await change(UID, OLD, UID)).json().errors.user_password[0]).toMatch(/must not be your e-mail/);
    expect((await change(UID, OLD, NEW, `${NEW}x`)).json().errors.user_password_confirmation).toBeDefined();
  });

  it('locks a uid for 15 minutes after 5 wrong passwords', async () => {
    for (let i = 0; i < 5; i++) expect((await change(UID, `wrong ${i} password`)).statusCode).toBe(422);
    const locked = await change(UID, OLD);
    expect(locked.statusCode).toBe(429);
    expect(locked.headers['retry-after']).toBeDefined();
    t.clock.advance(15 * 60_000 + 1000);
    expect((await change(UID, OLD)).statusCode).toBe(200);
  });
});
