import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { openTestDatabase, type TestDatabase } from '../../../test/harness.ts';
import { ManualClock } from '../../lib/clock.ts';
import { createCaptchaVerifier, type CaptchaVerifier, type RecaptchaOptions } from './service.ts';

const log = pino({ level: 'silent' });
const context = { hosts: ['panel.example.com', 'admin.example.net:8443'], ip: '203.0.113.7' };

type Handler = (form: URLSearchParams, response: ServerResponse) => void;

/** A stand-in for Google's siteverify whose answers each test controls. */
let handler: Handler;
let received: URLSearchParams[];
let server: Server;
let verifyUrl: string;
let database: TestDatabase;

const json =
  (body: unknown, status = 200): Handler =>
  (_form, response) => {
    response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  };
const good = { success: true, challenge_ts: '2026-01-01T00:00:00Z', hostname: 'panel.example.com', score: 0.9, action: 'registerform' };

beforeAll(async () => {
  server = createServer((request: IncomingMessage, response: ServerResponse) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      const form = new URLSearchParams(body);
      received.push(form);
      handler(form, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  verifyUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/recaptcha/api/siteverify`;
  database = await openTestDatabase();
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await database.close();
});
beforeEach(() => {
  handler = json(good);
  received = [];
});

let verifier: CaptchaVerifier;
const make = (overrides: Partial<RecaptchaOptions> = {}) =>
  createCaptchaVerifier({
    db: database.db,
    clock: new ManualClock(),
    log,
    recaptcha: { siteKey: 'site-key', secret: 'the-secret', verifyUrl, minScore: 0.5, timeoutMs: 300, ...overrides },
  });
beforeEach(async () => {
  verifier = await make();
});
afterEach(() => {
  handler = json(good);
});

describe('reCAPTCHA v3', () => {
  it('publishes the site key and the registerform action, and no ALTCHA challenge', async () => {
    expect(verifier.publicConfig()).toEqual({ provider: 'recaptcha', site_key: 'site-key', action: 'registerform' });
    expect(await verifier.altchaChallenge()).toBeUndefined();
  });

  it('accepts a good token and posts secret, response and remoteip as a form', async () => {
    expect(await verifier.verify('good-token', context)).toEqual({ ok: true });
    expect(received).toHaveLength(1);
    expect(Object.fromEntries(received[0] ?? [])).toEqual({ secret: 'the-secret', response: 'good-token', remoteip: '203.0.113.7' });
  });

  it('matches host names case-insensitively and without the port', async () => {
    handler = json({ ...good, hostname: 'ADMIN.example.net' });
    expect(await verifier.verify('t', context)).toEqual({ ok: true });
  });

  it('accepts a score exactly at the minimum', async () => {
    handler = json({ ...good, score: 0.5 });
    expect(await verifier.verify('t', context)).toEqual({ ok: true });
  });

  it('calls an empty token missing without asking Google', async () => {
    expect(await verifier.verify('', context)).toEqual({ ok: false, reason: 'missing' });
    expect(received).toHaveLength(0);
  });

  it.each([
    ['a wrong action', { ...good, action: 'login' }],
    ['no action', { success: true, hostname: 'panel.example.com', score: 0.9 }],
    ['a foreign host name', { ...good, hostname: 'evil.example.org' }],
    ['a low score', { ...good, score: 0.3 }],
    ['no score', { success: true, hostname: 'panel.example.com', action: 'registerform' }],
    ['success: false', { success: false, 'error-codes': ['invalid-input-response'] }],
    ['a spent or expired token', { success: false, 'error-codes': ['timeout-or-duplicate'] }],
  ])('rejects %s as invalid', async (_name, answer) => {
    handler = json(answer);
    expect(await verifier.verify('t', context)).toEqual({ ok: false, reason: 'invalid' });
  });

  it('fails closed as unavailable when Google rejects our secret', async () => {
    handler = json({ success: false, 'error-codes': ['invalid-input-secret'] });
    expect(await verifier.verify('t', context)).toEqual({ ok: false, reason: 'unavailable' });
  });

  it('fails closed as unavailable on a 500', async () => {
    handler = json({ error: 'boom' }, 500);
    expect(await verifier.verify('t', context)).toEqual({ ok: false, reason: 'unavailable' });
  });

  it('fails closed as unavailable on an answer that is not JSON', async () => {
    handler = (_form, response) => response.writeHead(200, { 'content-type': 'text/html' }).end('<html>');
    expect(await verifier.verify('t', context)).toEqual({ ok: false, reason: 'unavailable' });
  });

  it('fails closed as unavailable when Google is slower than the timeout', async () => {
    handler = (form, response) => {
      setTimeout(() => json(good)(form, response), 1_000);
    };
    const started = performance.now();
    expect(await verifier.verify('t', context)).toEqual({ ok: false, reason: 'unavailable' });
    expect(performance.now() - started).toBeLessThan(900);
  });

  it('fails closed as unavailable when nothing listens', async () => {
    // A port that was just free: bind, note it, close.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const down = await make({ verifyUrl: `http://127.0.0.1:${port}/siteverify` });
    expect(await down.verify('t', context)).toEqual({ ok: false, reason: 'unavailable' });
  });
});
