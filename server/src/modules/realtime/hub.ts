import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { Server, type Socket } from 'socket.io';
import { createAdapter } from '@socket.io/redis-adapter';
import { createClient } from 'redis';
import { REALTIME_EVENTS, realtimeChannel, type NotificationEvent } from '@berth/contracts';
import type { IncomingMessage } from 'node:http';
import { originAllowed } from '../../http/csrf.ts';
import type { SessionService } from '../sessions/service.ts';
import type { TenantResolver } from '../tenants/service.ts';

/** The scheme a handshake came in on: TLS here, or the proxy's word when the proxy is trusted (TRUST_PROXY). */
const schemeOf = (request: IncomingMessage, trustProxy = false): string => {
  if ((request.socket as { encrypted?: boolean }).encrypted) return 'https';
  const forwarded = request.headers['x-forwarded-proto'];
  const first = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(',')[0]?.trim();
  return trustProxy && first ? first : 'http';
};

const COOKIE_NAMES = ['__Host-berth_session', 'berth_session'];
const sessionRoom = (idHash: string) => `session:${idHash}`;

interface SocketData {
  userId: number;
  sessionIdHash: string;
}

/**
 * socket.io on the app's own port. A socket is authorised by the session cookie at the handshake
 * and may join only its own user's private channels. With Redis, events fan out to every instance.
 */
export class RealtimeHub {
  private readonly io: Server;
  private redisClients: { quit(): Promise<unknown> }[] = [];
  private closing = false;
  private redisUp = false;
  private redisPing: (() => Promise<unknown>) | undefined;
  private publishChange: ((topic: string) => Promise<unknown>) | undefined;
  private readonly changeListeners = new Map<string, Set<() => void>>();

  constructor(app: FastifyInstance, deps: { sessions: SessionService; tenants: TenantResolver; trustProxy?: boolean }) {
    this.io = new Server(app.server, {
      path: '/socket.io/',
      serveClient: false,
      // Cross-site WebSocket hijacking: a page of another site may not open a socket with our cookie.
      allowRequest: (request, callback) => {
        // Shutting down: the browser retries, and reaches this instance again once it is back.
        if (this.closing) return callback(null, false);
        const origin = request.headers.origin;
        if (!origin) return callback(null, true);
        // The same rule as every state-changing request (http/csrf.ts): the whole origin counts.
        const own = { scheme: schemeOf(request, deps.trustProxy), host: request.headers.host };
        if (originAllowed(origin, own, [])) return callback(null, true);
        deps.tenants
          .forHost(request.headers.host)
          .then((tenant) => callback(null, originAllowed(origin, own, tenant.hosts)))
          .catch(() => callback(null, false));
      },
    });

    this.io.use((socket, next) => {
      const cookies = app.parseCookie(socket.request.headers.cookie ?? '');
      const token = COOKIE_NAMES.map((name) => cookies[name]).find(Boolean);
      if (!token) return next(new Error('unauthenticated'));
      deps.tenants
        .forHost(socket.request.headers.host)
        .then((tenant) => deps.sessions.resolveOn(token, tenant.id))
        .then((active) => {
          if (!active || active.session.twoFactorPending) return next(new Error('unauthenticated'));
          const data: SocketData = { userId: active.user.id, sessionIdHash: active.session.idHash };
          socket.data = data;
          void socket.join(sessionRoom(active.session.idHash));
          next();
        })
        .catch(() => next(new Error('unauthenticated')));
    });

    this.io.on('connection', (socket: Socket) => {
      socket.on('subscribe', (channel: unknown, ack?: (answer: { ok: boolean }) => void) => {
        const { userId } = socket.data as SocketData;
        const own = [realtimeChannel.notifications(userId), realtimeChannel.cart(userId)];
        const allowed = typeof channel === 'string' && own.includes(channel);
        if (allowed) void socket.join(channel);
        if (typeof ack === 'function') ack({ ok: allowed });
      });
    });

    // An open WebSocket would hold the HTTP server's close (and a restart) until the shutdown
    // timeout. Closing the transports, without a socket.io "disconnect", lets browsers reconnect.
    app.addHook('preClose', async () => {
      this.closing = true;
      this.io.engine.close();
    });
    app.addHook('onClose', async () => {
      await this.io.close();
      await Promise.all(this.redisClients.map((client) => client.quit().catch(() => undefined)));
    });
  }

  /** Shares events through Redis pub/sub with the other instances that use the same key prefix. */
  async useRedis(url: string, keyPrefix = 'socket.io', log?: FastifyBaseLogger): Promise<void> {
    const pub = createClient({ url });
    const sub = pub.duplicate();
    // Redis going away is expected (restarts): the clients reconnect by themselves, with back-off.
    // One line when it goes and one when it is back, instead of an unhandled 'error' event.
    for (const client of [pub, sub]) {
      client.on('error', (error: Error) => {
        if (this.redisUp) log?.warn({ message: error.message }, 'redis unavailable; realtime stays on this instance until it is back');
        this.redisUp = false;
      });
      client.on('ready', () => {
        if (!this.redisUp && this.redisClients.length) log?.info('redis is back');
        this.redisUp = pub.isReady && sub.isReady;
      });
    }
    await Promise.all([pub.connect(), sub.connect()]);
    const changes = `${keyPrefix}#berth-changes`;
    await sub.subscribe(changes, (topic) => this.runChangeListeners(topic));
    // A change announced while this instance was cut off from Redis was missed: forget everything.
    sub.on('ready', () => this.runChangeListeners());
    this.publishChange = (topic) => pub.publish(changes, topic);
    this.redisUp = true;
    this.redisClients = [pub, sub];
    this.redisPing = () => pub.ping();
    this.io.adapter(createAdapter(pub, sub, { key: keyPrefix }));
  }

  /** `listener` runs whenever any instance announces a change of `topic` (e.g. to drop a cache). */
  onChange(topic: string, listener: () => void): void {
    let listeners = this.changeListeners.get(topic);
    if (!listeners) this.changeListeners.set(topic, (listeners = new Set()));
    listeners.add(listener);
  }

  /**
   * Tells every instance, this one first, that `topic` changed. Without Redis there is only this
   * instance; while Redis is away the others learn it when they reconnect (every listener runs then).
   */
  async announceChange(topic: string): Promise<void> {
    this.runChangeListeners(topic);
    await this.publishChange?.(topic).catch(() => undefined);
  }

  private runChangeListeners(topic?: string): void {
    const lists = topic === undefined ? [...this.changeListeners.values()] : [this.changeListeners.get(topic) ?? new Set<() => void>()];
    for (const listeners of lists) for (const listener of listeners) listener();
  }

  /** For the health check: 'off' without REDIS_URL, else whether Redis answers now. */
  async redisStatus(): Promise<'ok' | 'error' | 'off'> {
    if (!this.redisPing) return 'off';
    if (!this.redisUp) return 'error';
    try {
      await Promise.race([this.redisPing(), new Promise((_, reject) => setTimeout(() => reject(new Error('timeout')), 1_000).unref())]);
      return 'ok';
    } catch {
      return 'error';
    }
  }

  notify(userId: number, event: NotificationEvent): void {
    this.io.to(realtimeChannel.notifications(userId)).emit(REALTIME_EVENTS.notification, event);
  }

  cartUpdated(userId: number): void {
    this.io.to(realtimeChannel.cart(userId)).emit(REALTIME_EVENTS.cartUpdated, {});
  }

  /** A logged-out or revoked session loses its sockets too. */
  endSession(idHash: string): void {
    this.io.in(sessionRoom(idHash)).disconnectSockets(true);
  }
}
