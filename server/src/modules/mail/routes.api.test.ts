import Fastify, { type FastifyInstance } from 'fastify';
import cookie from '@fastify/cookie';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATOR_TENANT_ID, outboxAnswerSchema } from '@berth/contracts';
import { openTestDatabase, type TestDatabase } from '../../../test/harness.ts';
import { registerRequestContext } from '../../http/context.ts';
import { registerErrorHandler } from '../../http/errors.ts';
import { ManualClock } from '../../lib/clock.ts';
import { PasswordHasher } from '../../lib/password.ts';
import { ApiTokenService } from '../api-tokens/service.ts';
import { AuditService } from '../audit/service.ts';
import { SessionService } from '../sessions/service.ts';
import { ensureOperator } from '../tenants/bootstrap.ts';
import { TenantResolver } from '../tenants/service.ts';
import { createUser } from '../users/service.ts';
import { Mailer } from './mailer.ts';
import { outboxRoutes } from './routes.ts';

// The route on its own small app (the lead mounts it in app.ts), with the real request context.
let database: TestDatabase;
let app: FastifyInstance;
let mailer: Mailer;
const cookies: Record<'super_admin' | 'host_admin' | 'customer', string> = { super_admin: '', host_admin: '', customer: '' };
let resellerId: number;

beforeAll(async () => {
  database = await openTestDatabase({ migrated: true });
  const { db } = database;
  const clock = new ManualClock(new Date('2026-11-01T09:00:00Z'));
  const hasher = new PasswordHasher({ memoryCost: 19_456, timeCost: 2 });
  await ensureOperator(db, hasher, clock, {
    adminEmail: 'root@example.com',
    adminPassword: 'sturdy lantern orchard velvet',
    publicUrl: undefined,
  });
  const sessions = new SessionService(db, clock);

  const password = 'another long enough password';
  const hostAdmin = await createUser(db, hasher, clock, {
    tenantId: OPERATOR_TENANT_ID,
    email: 'host@example.com',
    password,
    role: 'host_admin',
  });
  const customer = await createUser(db, hasher, clock, {
    tenantId: OPERATOR_TENANT_ID,
    email: 'cust@example.com',
    password,
    role: 'customer',
  });
  const root = await db.selectFrom('users').select('id').where('email', '=', 'root@example.com').executeTakeFirstOrThrow();
  for (const [role, userId] of [
    ['super_admin', root.id],
    ['host_admin', hostAdmin.id],
    ['customer', customer.id],
  ] as const) {
    const { token } = await sessions.create({ userId, tenantId: OPERATOR_TENANT_ID, remember: false, ip: null, userAgent: null });
    cookies[role] = `berth_session=${token}`;
  }

  resellerId = (await db.insertInto('tenants').values({ title: 'Reseller' }).returning('id').executeTakeFirstOrThrow()).id;
  mailer = new Mailer({ db, clock, log: pino({ level: 'silent' }), from: 'noreply@example.com', production: false });
  const base = { tenantTitle: 'Berth', language: 'en' as const, kind: 'password_reset' as const };
  await mailer.send({
    ...base,
    to: 'a@example.com',
    tenantId: OPERATOR_TENANT_ID,
    params: { name: 'A', link: 'https://x.example/r/1', minutes: 60 },
  });
  clock.advance(1000);
  await mailer.send({
    ...base,
    to: 'b@example.com',
    tenantId: resellerId,
    params: { name: 'B', link: 'https://x.example/r/2', minutes: 60 },
  });

  app = Fastify({ logger: false });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  await app.register(cookie);
  registerErrorHandler(app);
  registerRequestContext(app, {
    tenants: new TenantResolver(db, clock),
    sessions,
    tokens: new ApiTokenService({ db, clock, audit: new AuditService(db, clock, app.log) }),
  });
  await app.register(outboxRoutes(mailer), { prefix: '/api/system' });
  await app.ready();
});

afterAll(async () => {
  await app.close();
  await mailer.close();
  await database.close();
});

const get = (url: string, cookieHeader?: string) =>
  app.inject({ method: 'GET', url, headers: { host: 'localhost', ...(cookieHeader ? { cookie: cookieHeader } : {}) } });

describe('GET /api/system/outbox', () => {
  it('answers 401 without a session', async () => {
    const response = await get('/api/system/outbox');
    expect(response.statusCode).toBe(401);
  });

  it('answers 403 to host admins and customers', async () => {
    for (const role of ['host_admin', 'customer'] as const) {
      const response = await get('/api/system/outbox', cookies[role]);
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({ message: 'You do not have permission to do this.' });
    }
  });

  it('shows super admins every tenant’s mails, newest first', async () => {
    const response = await get('/api/system/outbox', cookies.super_admin);
    expect(response.statusCode).toBe(200);
    const body = outboxAnswerSchema.parse(response.json());
    expect(body.data.map((m) => m.to)).toEqual(['b@example.com', 'a@example.com']);
    expect(body.data[0]).toMatchObject({ subject: 'Reset your password for Berth', created_at: '2026-11-01T09:00:01.000Z' });
    expect(body.data[0]!.text).toContain('https://x.example/r/2');
    expect(body.data[0]!.html).toContain('href="https://x.example/r/2"');
    expect(Object.keys(body.data[0]!).sort()).toEqual(['created_at', 'html', 'id', 'subject', 'text', 'to']);
  });

  it('filters by tenant', async () => {
    const response = await get(`/api/system/outbox?tenant_id=${resellerId}`, cookies.super_admin);
    expect(outboxAnswerSchema.parse(response.json()).data.map((m) => m.to)).toEqual(['b@example.com']);
    expect((await get('/api/system/outbox?tenant_id=abc', cookies.super_admin)).statusCode).toBe(422);
  });
});
