import { createServer, type AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobInfo, JobsAnswer } from '@berth/contracts';
import { ADMIN_EMAIL, createTestApp, type TestApp } from '../../../test/harness.ts';
import { addTenant, addUser, superAdmin, type Caller } from '../../../test/hosting.ts';
import { startSmtpReceiver } from '../../../test/smtp-receiver.ts';
import { within } from '../../../test/within.ts';

/**
 * The durable queue as a super admin sees it on /system/jobs: a mail the SMTP server cannot take
 * is retried with its error shown, fails after its last try, and runs again on "Retry" — once,
 * however many ask at the same instant. A job enqueued in a transaction exists only if it commits.
 */
let t: TestApp;
let admin: Caller;
let smtpPort: number;

/** A loopback port nobody listens on (yet): the SMTP server is down. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const jobs = async (state?: string): Promise<JobsAnswer> => {
  const answer = await admin({ method: 'GET', url: `/api/system/jobs${state ? `?state=${state}` : ''}` });
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json<JobsAnswer>();
};
const mailJob = async (state: string): Promise<JobInfo | undefined> => (await jobs(state)).data.find((job) => job.kind === 'mail');

/** Lets the retry pauses pass (pg-boss keeps them as start_after in the database, on its own clock). */
const pauseOver = () => sql`update pgboss.job set start_after = now() where state = 'retry'`.execute(t.db);

beforeAll(async () => {
  smtpPort = await closedPort();
  t = await createTestApp({ env: { SMTP_URL: `smtp://127.0.0.1:${smtpPort}` } });
  admin = (await superAdmin(t)).call;
});
afterAll(async () => {
  await t?.close();
});

describe('/system/jobs', () => {
  it('is for super admins only: host admins and customers get 403 on the list and on retry', async () => {
    const tenant = await addTenant(t, 'Harbor', 'harbor.test');
    const hostAdmin = await addUser(t, tenant, 'admin@harbor.test', 'host_admin');
    const customer = await addUser(t, tenant, 'cleo@harbor.test');
    for (const caller of [hostAdmin.call, customer.call]) {
      expect((await caller({ method: 'GET', url: '/api/system/jobs' })).statusCode).toBe(403);
      const retry = await caller({ method: 'POST', url: '/api/system/jobs/00000000-0000-4000-8000-000000000000/retry' });
      expect(retry.statusCode).toBe(403);
    }
  });

  it(
    'shows a mail the SMTP server refuses as retrying with its error, then failed; Retry sends it once when 30 ask at once',
    { timeout: 120_000 },
    async () => {
      const forgot = await t.app.inject({ method: 'POST', url: '/api/password/forgot', payload: { email: ADMIN_EMAIL } });
      expect(forgot.statusCode).toBe(200);

      let retrying: JobInfo | undefined;
      await within(
        15_000,
        async () => {
          retrying = await mailJob('retrying');
          expect(retrying).toBeDefined();
        },
        250,
      );
      if (!retrying) throw new Error('no retrying mail job');
      expect(retrying).toMatchObject({ kind: 'mail', subject: ADMIN_EMAIL, state: 'retrying', attempts: 1, max_attempts: 9 });
      expect(retrying.error).toMatch(/ECONNREFUSED/);
      // The first pause of the backoff: about 30 s (with jitter), never at once.
      const pause = new Date(retrying.next_try_at!).getTime() - Date.now();
      expect(pause).toBeGreaterThan(10_000);
      expect(pause).toBeLessThan(70_000);
      // Never the mail's data: the reset link is a credential.
      expect(JSON.stringify(await jobs())).not.toContain('/password/reset/');

      let failed: JobInfo | undefined;
      for (let attempt = 2; attempt <= 10 && !failed; attempt++) {
        await pauseOver();
        await t.services.jobs.idle();
        failed = await mailJob('failed');
      }
      if (!failed) throw new Error('no failed mail job');
      const failedId = failed.id;
      expect(failed).toMatchObject({ id: retrying.id, attempts: 9, max_attempts: 9, next_try_at: null });
      expect(failed.error).toMatch(/ECONNREFUSED/);
      expect((await jobs()).counts.failed).toBe(1);

      // The mail server is back; 30 administrators press Retry at the same instant.
      const smtp = await startSmtpReceiver(smtpPort);
      try {
        const answers = await Promise.all(
          Array.from({ length: 30 }, () => admin({ method: 'POST', url: `/api/system/jobs/${failedId}/retry` })),
        );
        expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(1);
        expect(answers.filter((a) => a.statusCode === 409)).toHaveLength(29);
        expect(answers.find((a) => a.statusCode === 200)!.json()).toEqual({ message: 'The job runs again.' });
        await t.services.jobs.idle();
        expect((await jobs('done')).data.map((job) => job.id)).toContain(failedId);
        expect(smtp.received.filter((mail) => mail.rcptTo.includes(ADMIN_EMAIL))).toHaveLength(1);
        expect(smtp.received[0]!.raw).toContain('/password/reset/');
      } finally {
        await smtp.close();
      }
      const again = await admin({ method: 'POST', url: `/api/system/jobs/${failedId}/retry` });
      expect(again.statusCode).toBe(409);
      expect(again.json().message).toBe('Only a failed job can be retried; this one has not failed.');
      const unknown = await admin({ method: 'POST', url: '/api/system/jobs/00000000-0000-4000-8000-000000000000/retry' });
      expect(unknown.statusCode).toBe(404);
      const malformed = await admin({ method: 'POST', url: '/api/system/jobs/x%27;drop/retry' });
      expect(malformed.statusCode).toBe(422);
    },
  );

  it('a mail queued in a transaction that rolls back is never sent; one that commits is', async () => {
    const before = (await jobs()).data.length;
    const mail = (to: string) => ({
      to,
      language: 'en' as const,
      tenantId: null,
      tenantTitle: 'Berth',
      kind: 'registration_attempt' as const,
      params: { name: 'Ann', loginLink: 'https://panel.test/login', resetLink: 'https://panel.test/password/forgot' },
    });
    await expect(
      t.db.transaction().execute(async (trx) => {
        await t.services.mailer.send(mail('rolled-back@example.net'), { db: trx });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    await t.db.transaction().execute(async (trx) => t.services.mailer.send(mail('committed@example.net'), { db: trx }));
    const subjects = (await jobs()).data.map((job) => job.subject);
    expect(subjects).toContain('committed@example.net');
    expect(subjects).not.toContain('rolled-back@example.net');
    expect((await jobs()).data.length).toBe(before + 1);
  });

  it('keeps no instance registry, whose upkeep would wake an idle server on a 20 ms timer', async () => {
    // The queue has started (the tests above ran jobs); a registered instance is a row here.
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from pgboss.instance`.execute(t.db);
    expect(rows[0]?.n).toBe(0);
  });
});
