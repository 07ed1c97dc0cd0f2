import pg from 'pg';

export interface ChannelListenerOptions {
  databaseUrl: string;
  channel: string;
  /** Each notification's payload, in commit order. */
  onNotification(payload: string): void;
  /**
   * Called with true once LISTEN is in place, false when the connection is lost: notifications sent
   * while it was down are gone, so whatever they would have invalidated must be dropped.
   */
  onStateChange(listening: boolean): void;
  onError?(error: Error): void;
  /** Waits between attempts to connect again (the last repeats). */
  retryDelaysMs?: readonly number[];
}

const DEFAULT_RETRY_DELAYS_MS = [250, 1_000, 2_000, 5_000];

/**
 * A connection of its own that LISTENs to one channel of PostgreSQL and connects again, on its own,
 * after the server restarts or the network drops it. Never throws and never ends the process: a
 * failure is reported, and the listener is "down" until LISTEN succeeds again.
 */
export class ChannelListener {
  private client: pg.Client | undefined;
  private listening = false;
  private closed = false;
  private attempt = 0;
  private retry: NodeJS.Timeout | undefined;
  private readonly options: ChannelListenerOptions;

  constructor(options: ChannelListenerOptions) {
    if (!/^[a-z_][a-z0-9_]*$/.test(options.channel)) throw new Error(`not a channel name: ${options.channel}`);
    this.options = options;
  }

  get isListening(): boolean {
    return this.listening;
  }

  /** Resolves after the first attempt, listening or not (a later attempt may succeed). */
  async start(): Promise<void> {
    await this.connect();
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    // Keep-alive: a connection the network loses without a word must not look alive for hours.
    const client = new pg.Client({
      connectionString: this.options.databaseUrl,
      connectionTimeoutMillis: 5_000,
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
    });
    this.client = client;
    let lost = false;
    const onLost = (error?: Error) => {
      if (lost) return;
      lost = true;
      if (error) this.options.onError?.(error);
      if (this.client === client) this.client = undefined;
      this.setListening(false);
      void client.end().catch(() => undefined);
      this.scheduleRetry();
    };
    client.on('error', onLost);
    client.on('end', () => onLost());
    client.on('notification', (message) => {
      if (message.channel === this.options.channel) this.options.onNotification(message.payload ?? '');
    });
    try {
      await client.connect();
      await client.query(`listen ${this.options.channel}`);
    } catch (error) {
      onLost(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    if (this.closed || lost) return;
    this.attempt = 0;
    this.setListening(true);
  }

  private setListening(listening: boolean) {
    if (this.listening === listening) return;
    this.listening = listening;
    this.options.onStateChange(listening);
  }

  private scheduleRetry() {
    if (this.closed || this.retry) return;
    const delays = this.options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
    const delay = delays[Math.min(this.attempt, delays.length - 1)] ?? 1_000;
    this.attempt += 1;
    this.retry = setTimeout(() => {
      this.retry = undefined;
      void this.connect();
    }, delay);
    this.retry.unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    this.retry = undefined;
    const client = this.client;
    this.client = undefined;
    this.setListening(false);
    await client?.end().catch(() => undefined);
  }
}
