import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { pino } from 'pino';
import { solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { captchaConfigAnswerSchema } from '@berth/contracts';
import { openTestDatabase, type TestDatabase } from '../../../test/harness.ts';
import { registerErrorHandler } from '../../http/errors.ts';
import { systemClock } from '../../lib/clock.ts';
import { captchaRoutes } from './routes.ts';
import { createCaptchaVerifier, type CaptchaVerifier } from './service.ts';

const log = pino({ level: 'silent' });

let database: TestDatabase;
let app: FastifyInstance;

async function buildApp(verifier: CaptchaVerifier): Promise<FastifyInstance> {
  const instance = Fastify({ logger: false });
  instance.setValidatorCompiler(validatorCompiler);
  instance.setSerializerCompiler(serializerCompiler);
  instance.decorateRequest('lang', 'en');
  registerErrorHandler(instance);
  await instance.register(captchaRoutes(verifier), { prefix: '/api' });
  await instance.ready();
  return instance;
}

beforeEach(async () => {
  database = await openTestDatabase({ migrated: true });
});
afterEach(async () => {
  await app.close();
  await database.close();
});

describe('captcha routes with ALTCHA', () => {
  let verifier: CaptchaVerifier;
  beforeEach(async () => {
    verifier = await createCaptchaVerifier({ db: database.db, clock: systemClock, log, altchaHmacKey: 'test key' });
    app = await buildApp(verifier);
  });

  it('GET /api/captcha names ALTCHA and its challenge URL, uncached', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/captcha' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(captchaConfigAnswerSchema.parse(response.json())).toEqual({
      data: { provider: 'altcha', challenge_url: '/api/captcha/altcha' },
    });
  });

  it('GET /api/captcha/altcha answers a fresh challenge the widget can solve and the server accepts', async () => {
    const first = await app.inject({ method: 'GET', url: '/api/captcha/altcha' });
    const second = await app.inject({ method: 'GET', url: '/api/captcha/altcha' });
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toMatch(/^application\/json/);
    expect(first.headers['cache-control']).toBe('no-store');
    const challenge = first.json<Challenge>();
    expect(Object.keys(challenge).sort()).toEqual(['parameters', 'signature']);
    expect(Object.keys(challenge.parameters).sort()).toEqual(
      ['algorithm', 'cost', 'data', 'keyLength', 'keyPrefix', 'keySignature', 'nonce', 'salt'].sort(),
    );
    expect(second.json<Challenge>().signature).not.toBe(challenge.signature);

    // Nothing was lost on the way out: a solution verifies against the signature.
    const solution = await solveChallenge({ challenge, deriveKey });
    expect(solution).not.toBeNull();
    const token = btoa(JSON.stringify({ challenge, solution }));
    expect(await verifier.verify(token, { hosts: ['localhost'], ip: '127.0.0.1' })).toEqual({ ok: true });
  });
});

describe('captcha routes with reCAPTCHA', () => {
  beforeEach(async () => {
    const verifier = await createCaptchaVerifier({
      db: database.db,
      clock: systemClock,
      log,
      recaptcha: { siteKey: 'site-key', secret: 's', verifyUrl: 'http://127.0.0.1:9/', minScore: 0.5 },
    });
    app = await buildApp(verifier);
  });

  it('GET /api/captcha names reCAPTCHA, its site key and action', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/captcha' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ data: { provider: 'recaptcha', site_key: 'site-key', action: 'registerform' } });
  });

  it('GET /api/captcha/altcha is 404', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/captcha/altcha' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ message: 'Not found.' });
  });
});
