import { afterEach, describe, expect, it } from 'vitest';
import { io as connect, type Socket } from 'socket.io-client';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { REALTIME_EVENTS, realtimeChannel, type NotificationEvent } from '@berth/contracts';
import { createCustomer, createTestApp, login, type TestApp } from '../../../test/harness.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
/** Instances of this run share a key prefix of their own: nothing else on that Redis hears them. */
const redisEnv = (prefix = `berth-test-${randomBytes(4).toString('hex')}`) => ({ REDIS_URL, REDIS_KEY_PREFIX: prefix });
const apps: TestApp[] = [];
const sockets: Socket[] = [];

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.disconnect();
  for (const app of apps.splice(0)) await app.close();
});

async function listening(env: Record<string, string> = {}) {
  const t = await createTestApp({ env });
  apps.push(t);
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  return { t, url: `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}` };
}

function open(url: string, cookie: string, extraHeaders: Record<string, string> = {}): Promise<Socket> {
  const socket = connect(url, { transports: ['websocket'], extraHeaders: { cookie, ...extraHeaders }, reconnection: false });
  sockets.push(socket);
  return new Promise((resolve, reject) => {
    socket.on('connect', () => resolve(socket));
    socket.on('connect_error', reject);
  });
}

const subscribe = (socket: Socket, channel: string) => socket.timeout(5000).emitWithAck('subscribe', channel) as Promise<{ ok: boolean }>;

const nextEvent = <T>(socket: Socket, event: string) =>
  new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${event} within 5 s`)), 5000);
    socket.once(event, (payload: T) => {
      clearTimeout(timer);
      resolve(payload);
    });
  });

describe('realtime channels', () => {
  it('refuses a socket without a session and one from another site', async () => {
    const { t, url } = await listening();
    await expect(open(url, '')).rejects.toThrow(/unauthenticated/);
    const { cookie } = await login(t.app);
    await expect(open(url, cookie, { origin: 'https://evil.example' })).rejects.toThrow();
    // The whole origin counts: the same host on another port or scheme, or an opaque origin, is another site.
    const port = new URL(url).port;
    for (const origin of [`http://127.0.0.1:${Number(port) + 1}`, `https://127.0.0.1:${port}`, 'http://127.0.0.1', 'null']) {
      await expect(open(url, cookie, { origin }), origin).rejects.toThrow();
    }
    const same = await open(url, cookie, { origin: `http://127.0.0.1:${port}` });
    expect(same.connected).toBe(true);
  });

  it("joins the user's own channels only, and delivers notifications and cart updates there", async () => {
    const { t, url } = await listening();
    const admin = await login(t.app);
    const customer = await createCustomer(t, 'rt@localhost');
    const socket = await open(url, admin.cookie);
    const adminId = (await t.app.inject({ url: '/api/user', headers: { cookie: admin.cookie } })).json().data.user.id as number;

    expect(await subscribe(socket, realtimeChannel.notifications(customer.user.id))).toEqual({ ok: false });
    expect(await subscribe(socket, realtimeChannel.cart(customer.user.id))).toEqual({ ok: false });
    expect(await subscribe(socket, realtimeChannel.notifications(adminId))).toEqual({ ok: true });
    expect(await subscribe(socket, realtimeChannel.cart(adminId))).toEqual({ ok: true });

    // An event for the customer never reaches the admin's socket.
    const all: NotificationEvent[] = [];
    socket.on(REALTIME_EVENTS.notification, (event: NotificationEvent) => all.push(event));
    t.services.realtime.notify(customer.user.id, { type: 'info', text: 'for someone else' });
    const mine = nextEvent<NotificationEvent>(socket, REALTIME_EVENTS.notification);
    t.services.realtime.notify(adminId, { type: 'notice', text: 'Domain example.com renewed' });
    expect(await mine).toEqual({ type: 'notice', text: 'Domain example.com renewed' });
    const cart = nextEvent(socket, REALTIME_EVENTS.cartUpdated);
    t.services.realtime.cartUpdated(adminId);
    await cart;
    expect(all).toEqual([{ type: 'notice', text: 'Domain example.com renewed' }]);
  });

  it('disconnects the sockets of a session that logs out', async () => {
    const { t, url } = await listening();
    const { cookie } = await login(t.app);
    const socket = await open(url, cookie);
    const gone = new Promise((resolve) => socket.once('disconnect', resolve));
    await t.app.inject({ method: 'POST', url: '/api/logout', headers: { cookie } });
    await gone;
  });

  it('closing the app ends its sockets at once, as a lost transport, so that browsers reconnect', async () => {
    const { t, url } = await listening();
    const { cookie } = await login(t.app);
    const socket = await open(url, cookie);
    const reason = new Promise<string>((resolve) => socket.once('disconnect', resolve));
    apps.splice(apps.indexOf(t), 1);
    const started = Date.now();
    await t.close();
    // An open WebSocket used to hold the close until the shutdown timeout.
    expect(Date.now() - started).toBeLessThan(2_000);
    // Not "io server disconnect", after which a client would stay away.
    expect(await reason).toBe('transport close');
  });

  it('fans an event out through Redis from one instance to a socket on another', async () => {
    const env = redisEnv();
    const first = await listening(env);
    const second = await listening(env);
    // Both instances on one database would be the production shape; here each has its own, so
    // the user logs in on the first and the second emits for the same user id.
    const { cookie } = await login(first.t.app);
    const userId = (await first.t.app.inject({ url: '/api/user', headers: { cookie } })).json().data.user.id as number;
    const socket = await open(first.url, cookie);
    expect(await subscribe(socket, realtimeChannel.notifications(userId))).toEqual({ ok: true });
    const received = nextEvent<NotificationEvent>(socket, REALTIME_EVENTS.notification);
    second.t.services.realtime.notify(userId, { type: 'warning', text: 'from the other instance' });
    expect(await received).toEqual({ type: 'warning', text: 'from the other instance' });
  });

  it('keeps instances with different Redis key prefixes apart', async () => {
    const first = await listening(redisEnv());
    const other = await listening(redisEnv());
    const { cookie } = await login(first.t.app);
    const userId = (await first.t.app.inject({ url: '/api/user', headers: { cookie } })).json().data.user.id as number;
    const socket = await open(first.url, cookie);
    expect(await subscribe(socket, realtimeChannel.notifications(userId))).toEqual({ ok: true });
    const all: NotificationEvent[] = [];
    socket.on(REALTIME_EVENTS.notification, (event: NotificationEvent) => all.push(event));
    other.t.services.realtime.notify(userId, { type: 'info', text: 'another deployment' });
    // Delivered in-process after the other one would have arrived through Redis.
    const own = nextEvent<NotificationEvent>(socket, REALTIME_EVENTS.notification);
    await new Promise((resolve) => setTimeout(resolve, 300));
    first.t.services.realtime.notify(userId, { type: 'notice', text: 'this deployment' });
    await own;
    expect(all).toEqual([{ type: 'notice', text: 'this deployment' }]);
  });
});
