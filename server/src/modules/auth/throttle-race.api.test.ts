import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { generate } from 'otplib';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  createCustomer,
  createTestApp,
  login,
  sessionCookieFrom,
  type TestApp,
} from '../../../test/harness.ts';
import { addDomainWithUser, addTenant } from '../../../test/hosting.ts';
import { newestLinkTo } from '../../../test/outbox.ts';

// Every throttle on a guessable secret holds when 30 tries arrive at the same instant: each try
// is counted before it is checked, so no more than the limit (5) are ever checked.

const LIMIT = 5;
const BURST = 30;
let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});
afterEach(async () => {
  await t.close();
});

/** 30 tries at once: the right one last in the list, each from its own address. */
const burst = (send: (index: number, right: boolean) => Promise<{ statusCode: number }>) =>
  Promise.all(Array.from({ length: BURST }, (_, index) => send(index, index === BURST - 1)));

const checked = (answers: { statusCode: number }[]) => answers.filter((answer) => answer.statusCode !== 429);

const inject = (method: 'POST' | 'PATCH', url: string, payload: unknown, options: { cookie?: string; ip?: string; host?: string } = {}) =>
  t.app.inject({
    method,
    url,
    payload: payload as Record<string, unknown>,
    headers: { ...(options.cookie ? { cookie: options.cookie } : {}), ...(options.host ? { host: options.host } : {}) },
    ...(options.ip ? { remoteAddress: options.ip } : {}),
  });

async function loginFailures(): Promise<number> {
  const rows = await t.db
    .selectFrom('audit_log')
    .select('action')
    .where('action', 'in', ['auth.login.failure', 'auth.login.success'])
    .execute();
  return rows.length;
}

describe('30 simultaneous tries', () => {
  it('login: 29 wrong passwords and the right one from 30 addresses: at most 5 are checked', async () => {
    const answers = await burst((index, right) =>
      inject(
        'POST',
        '/api/login',
        { email: ADMIN_EMAIL, password: right ? ADMIN_PASSWORD : `wrong password ${index}`, remember: false },
        { ip: `203.0.113.${index + 1}` },
      ),
    );
    expect(checked(answers).length).toBeLessThanOrEqual(LIMIT);
    expect(answers.filter((answer) => answer.statusCode === 429).length).toBeGreaterThanOrEqual(BURST - LIMIT);
    expect(await loginFailures()).toBeLessThanOrEqual(LIMIT);
    // The right password arriving after the burst is refused too: the account is locked.
    if (!answers.some((answer) => answer.statusCode === 200)) {
      expect(
        (await inject('POST', '/api/login', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD }, { ip: '198.51.100.1' })).statusCode,
      ).toBe(429);
    }
  });

  it("login: a super admin's account is one throttle on every tenant's host", async () => {
    await addTenant(t, 'Second', 'second.example.com');
    await addTenant(t, 'Third', 'third.example.com');
    for (let i = 0; i < LIMIT; i++) {
      const host = ['localhost', 'second.example.com', 'third.example.com'][i % 3]!;
      expect((await inject('POST', '/api/login', { email: ADMIN_EMAIL, password: `wrong ${i} password` }, { host })).statusCode).toBe(422);
    }
    for (const host of ['localhost', 'second.example.com', 'third.example.com']) {
      expect((await inject('POST', '/api/login', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD }, { host })).statusCode).toBe(429);
    }
  });

  it('second factor: 30 codes on one pending session: at most 5 are checked, recovery codes share the count', async () => {
    const { cookie } = await login(t.app);
    const setup = await inject('POST', '/api/account/2fa/setup', { password: ADMIN_PASSWORD }, { cookie });
    const secret: string = setup.json().data.secret;
    const enabled = await inject(
      'POST',
      '/api/account/2fa/enable',
      { code: await generate({ secret, epoch: Math.floor(t.clock.now().getTime() / 1000) }) },
      { cookie },
    );
    expect(enabled.statusCode).toBe(200);
    t.clock.advance(30_000);
    const pending = sessionCookieFrom(
      (await inject('POST', '/api/login', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD })).headers['set-cookie'],
    );
    const answers = await burst((index) =>
      index % 2
        ? inject('POST', '/api/login2fa', { code: String(100000 + index) }, { cookie: pending })
        : inject('POST', '/api/login2fa/recovery', { code: `wrong-recovery-${index}` }, { cookie: pending }),
    );
    expect(checked(answers).length).toBeLessThanOrEqual(LIMIT);
    const right = await generate({ secret, epoch: Math.floor(t.clock.now().getTime() / 1000) });
    expect((await inject('POST', '/api/login2fa', { code: right }, { cookie: pending })).statusCode).toBe(429);
  });

  it('one-time code login: 30 guesses for one code: at most 5 are checked', async () => {
    const { user } = await createCustomer(t, 'otp@localhost');
    const request = await inject('POST', '/api/password/otp', { email: user.email });
    const uniqId: string = request.json().data.uniq_id;
    const code = new URL(await newestLinkTo(t.db, user.email, '/password/otplogin')).searchParams.get('otp') ?? '';
    const answers = await burst((index, right) =>
      inject('POST', '/api/password/otplogin', {
        uniq_id: uniqId,
        otp: right ? code : String((Number(code) + index + 1) % 1_000_000).padStart(6, '0'),
      }),
    );
    expect(checked(answers).length).toBeLessThanOrEqual(LIMIT);
  });

  it('forgot password: 30 requests for one address send at most 3 mails', async () => {
    const { user } = await createCustomer(t, 'forgot@localhost');
    const answers = await burst((index) =>
      inject('POST', '/api/password/forgot', { email: user.email }, { ip: `198.51.100.${index + 1}` }),
    );
    expect(answers.every((answer) => answer.statusCode === 200)).toBe(true);
    // The mails are jobs: counted once the queue has run them.
    await t.services.jobs.idle();
    const mails = await t.db.selectFrom('outbox').select('id').where('recipient', '=', user.email).execute();
    expect(mails.length).toBeGreaterThan(0);
    expect(mails.length).toBeLessThanOrEqual(3);
  });

  it('domain-user password: 29 wrong old passwords and the right one: at most 5 checked, the password changes at most once', async () => {
    const { user } = await createCustomer(t, 'owner@localhost');
    const old = 'the mailbox password of old';
    await addDomainWithUser(t, user.id, 'info@example.com', old);
    const answers = await burst((index, right) =>
      inject(
        'PATCH',
        '/api/host/domain-user/change-password',
        {
          uid: 'info@example.com',
          user_password_old: right ? old : `wrong old password ${index}`,
          user_password: 'a brand new mailbox passphrase',
          user_password_confirmation: 'a brand new mailbox passphrase',
        },
        { ip: `203.0.113.${index + 1}` },
      ),
    );
    expect(checked(answers).length).toBeLessThanOrEqual(LIMIT);
    const changed = answers.filter((answer) => answer.statusCode === 200).length;
    const row = await t.db.selectFrom('domain_users').select('password_hash').executeTakeFirstOrThrow();
    expect(await t.services.hasher.verify(row.password_hash, old)).toBe(changed === 0);
  });

  it('re-authentication: 30 wrong current passwords on a password change: at most 5 checked', async () => {
    const { cookie } = await login(t.app);
    const answers = await burst((index) =>
      inject(
        'PATCH',
        '/api/account/password',
        {
          current_password: `wrong current ${index}`,
          password: 'a new passphrase for me 2026',
          password_confirmation: 'a new passphrase for me 2026',
        },
        { cookie },
      ),
    );
    expect(checked(answers).length).toBeLessThanOrEqual(LIMIT);
    expect(
      (
        await inject(
          'PATCH',
          '/api/account/password',
          {
            current_password: ADMIN_PASSWORD,
            password: 'a new passphrase for me 2026',
            password_confirmation: 'a new passphrase for me 2026',
          },
          { cookie },
        )
      ).statusCode,
    ).toBe(429);
  });
});
