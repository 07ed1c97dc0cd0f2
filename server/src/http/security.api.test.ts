import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCustomer, createTestApp, login, type TestApp } from '../../test/harness.ts';
import { newestLinkTo } from '../../test/outbox.ts';

let t: TestApp;
let logLines: string[];
beforeEach(async () => {
  logLines = [];
  // Production: outside it the outbox deliberately logs mail links for developers.
  t = await createTestApp({ logLines, env: { NODE_ENV: 'production' } });
});
afterEach(async () => {
  await t.close();
});

describe('CSRF on every state-changing route', () => {
  it('refuses a cross-site request to each POST, PATCH and DELETE of the API with 403', async () => {
    const { cookie } = await login(t.app);
    const doc = (await t.app.inject({ url: '/api/docs/json' })).json() as { paths: Record<string, Record<string, unknown>> };
    const calls = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.keys(methods)
        .filter((m) => ['post', 'patch', 'put', 'delete'].includes(m))
        .map((m) => ({ method: m.toUpperCase() as 'POST', url: path.replace(/\{[^}]+\}/g, 'x') })),
    );
    expect(calls.length).toBeGreaterThanOrEqual(15);
    for (const call of calls) {
      for (const headers of [{ 'sec-fetch-site': 'cross-site' }, { origin: 'https://attacker.example' }]) {
        const response = await t.app.inject({ ...call, headers: { cookie, ...headers }, payload: {} });
        expect(response.statusCode, `${call.method} ${call.url}`).toBe(403);
      }
    }
    // The session survived every attempt.
    expect((await t.app.inject({ url: '/api/user', headers: { cookie } })).statusCode).toBe(200);
  });
});

describe('CSRF compares the whole origin', () => {
  it("refuses another port, another scheme and `null` of the panel's own host, and accepts its own origin", async () => {
    const { cookie } = await login(t.app);
    const change = (headers: Record<string, string>) =>
      t.app.inject({
        method: 'PATCH',
        url: '/api/user/language',
        headers: { cookie, host: 'localhost:3000', ...headers },
        payload: { language: 'de' },
      });
    for (const origin of [
      'http://localhost:9999',
      'https://localhost:3000',
      'http://localhost',
      'null',
      'http://localhost:3000.evil.example',
    ]) {
      const answer = await change({ origin, 'sec-fetch-site': 'same-site' });
      expect(answer.statusCode, origin).toBe(403);
    }
    // Without Fetch Metadata (an older browser) the Origin alone decides, by the same rule.
    expect((await change({ origin: 'http://localhost:9999' })).statusCode).toBe(403);
    expect((await change({ origin: 'http://localhost:3000', 'sec-fetch-site': 'same-site' })).statusCode).toBe(200);
    expect((await change({ origin: 'http://localhost:3000' })).statusCode).toBe(200);
  });
});

describe('secrets never reach the logs or the audit trail', () => {
  it('keeps passwords, reset tokens and OTP codes out of both', async () => {
    const customer = await createCustomer(t, 'logs@localhost');
    await t.app.inject({ method: 'POST', url: '/api/login', payload: { email: customer.email, password: 'a wrong password typed here' } });
    await login(t.app, customer.email, customer.password);

    await t.app.inject({ method: 'POST', url: '/api/password/forgot', payload: { email: customer.email } });
    const resetPath = new URL(await newestLinkTo(t.db, customer.email, '/password/reset/')).pathname;
    const token = resetPath.split('/').pop() ?? '';
    const newPassword = 'the replacement passphrase 99';
    await t.app.inject({ method: 'POST', url: `/api${resetPath}`, payload: { password: newPassword, password_confirmation: newPassword } });

    const otp = await t.app.inject({ method: 'POST', url: '/api/password/otp', payload: { email: customer.email } });
    const otpLink = new URL(await newestLinkTo(t.db, customer.email, '/password/otplogin'));
    const code = otpLink.searchParams.get('otp') ?? '';
    await t.app.inject({ method: 'POST', url: '/api/password/otplogin', payload: { uniq_id: otp.json().data.uniq_id, otp: code } });

    const logs = logLines.join('\n');
    const audit = JSON.stringify(await t.db.selectFrom('audit_log').selectAll().execute());
    expect(logLines.length).toBeGreaterThan(5);
    expect(logs).toContain('/api/password/reset/[redacted]');
    for (const secret of [customer.password, 'a wrong password typed here', newPassword, token]) {
      expect(logs).not.toContain(secret);
      expect(audit).not.toContain(secret);
    }
    expect(logs).not.toMatch(new RegExp(`otp[^\\n]{0,40}${code}`));
    // Every login success, failure and credential change is in the audit trail with user, tenant and IP.
    const actions = await t.db.selectFrom('audit_log').select(['action', 'tenant_id', 'ip']).execute();
    expect(actions.map((a) => a.action)).toEqual(
      expect.arrayContaining(['auth.login.failure', 'auth.login.success', 'auth.password_reset.done', 'auth.otp.success']),
    );
    expect(actions.every((a) => a.tenant_id === 1 && a.ip === '127.0.0.1')).toBe(true);
  });
});
