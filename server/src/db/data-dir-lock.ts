import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import path from 'node:path';

/*
 * The embedded database is one process's: PGlite keeps its pages in memory and writes them back,
 * so a second process on the same directory silently loses the first one's writes. The lock is a
 * Linux abstract unix socket named after the directory: binding it is atomic and exclusive, and
 * the kernel releases it when the process ends, even by kill -9, so no stale lock file can block
 * the next start (docs/decisions/0005-embedded-database-lock.md).
 *
 * The same socket is the channel through which the admin CLI asks the running server to do what
 * it would otherwise do on the directory itself. Abstract sockets have no file permissions, so a
 * command must carry the token the server wrote into the data directory (mode 0600): whoever can
 * read it could open the database anyway.
 */

export interface LockHolder {
  pid: number;
  command: string;
  startedAt: string;
}

export interface AdminRequest {
  command: string;
  values: Record<string, string | undefined>;
}

export interface AdminAnswer {
  output: string;
  code: number;
}

export type AdminHandler = (request: AdminRequest) => Promise<AdminAnswer>;

export class DataDirBusyError extends Error {
  readonly holder: LockHolder | undefined;
  constructor(dataDir: string, holder: LockHolder | undefined) {
    super(
      holder
        ? `The data directory ${dataDir} is in use by process ${holder.pid} (${holder.command}), running since ${holder.startedAt}. ` +
            'Stop it first, or run admin commands with `npm run cli`, which goes through it.'
        : `The data directory ${dataDir} is in use by another process.`,
    );
    this.holder = holder;
  }
}

const TOKEN_FILE = '.berth-admin-token';
const MAX_LINE = 1024 * 1024;

const socketName = (dataDir: string) => `\0berth-data-dir-${createHash('sha256').update(dataDir).digest('hex').slice(0, 40)}`;

function resolved(dataDir: string): string {
  try {
    return realpathSync(dataDir);
  } catch {
    return path.resolve(dataDir);
  }
}

/** One JSON line each way, then the connection closes. */
function exchange(name: string, message: unknown, timeoutMs: number): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(name);
    let buffer = '';
    const timer = setTimeout(() => socket.destroy(new Error('no answer from the running server')), timeoutMs);
    socket.setEncoding('utf8');
    socket.on('connect', () => socket.write(`${JSON.stringify(message)}\n`));
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      const end = buffer.indexOf('\n');
      if (end === -1) return;
      clearTimeout(timer);
      socket.end();
      try {
        resolve(JSON.parse(buffer.slice(0, end)));
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
    socket.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

export class DataDirLock {
  private handler: AdminHandler | undefined;
  private readonly token = randomBytes(32).toString('hex');
  private readonly holder: LockHolder;
  private readonly server: Server;
  readonly dataDir: string;

  private constructor(server: Server, dataDir: string) {
    this.server = server;
    this.dataDir = dataDir;
    this.holder = { pid: process.pid, command: process.argv.slice(1).join(' '), startedAt: new Date().toISOString() };
    writeFileSync(path.join(dataDir, TOKEN_FILE), this.token, { mode: 0o600 });
    server.on('connection', (socket) => this.answer(socket));
  }

  /** Takes the lock of `dataDir` (which must exist), or throws DataDirBusyError naming the holder. */
  static async acquire(dataDir: string): Promise<DataDirLock> {
    const dir = resolved(dataDir);
    const name = socketName(dir);
    const server = createServer();
    const bound = await new Promise<boolean>((resolve, reject) => {
      server.once('error', (error: NodeJS.ErrnoException) => (error.code === 'EADDRINUSE' ? resolve(false) : reject(error)));
      server.listen(name, () => resolve(true));
    });
    if (!bound) {
      const holder = (await exchange(name, { type: 'who' }, 2_000).catch(() => undefined)) as LockHolder | undefined;
      throw new DataDirBusyError(dataDir, holder);
    }
    server.unref();
    return new DataDirLock(server, dir);
  }

  /** Sends an admin command to the process that holds `dataDir`'s lock and answers its result. */
  static async send(dataDir: string, request: AdminRequest): Promise<AdminAnswer> {
    const dir = resolved(dataDir);
    const token = readFileSync(path.join(dir, TOKEN_FILE), 'utf8');
    // Loading demo data or hashing passwords takes a while on a busy machine.
    return (await exchange(socketName(dir), { type: 'run', token, ...request }, 300_000)) as AdminAnswer;
  }

  /** From now on, admin commands sent by the CLI run in this process. */
  serve(handler: AdminHandler): void {
    this.handler = handler;
  }

  async release(): Promise<void> {
    rmSync(path.join(this.dataDir, TOKEN_FILE), { force: true });
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private answer(socket: Socket): void {
    let buffer = '';
    socket.setEncoding('utf8');
    socket.on('error', () => socket.destroy());
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      if (buffer.length > MAX_LINE) return socket.destroy();
      const end = buffer.indexOf('\n');
      if (end === -1) return;
      socket.removeAllListeners('data');
      void this.reply(buffer.slice(0, end)).then((answer) => socket.end(`${JSON.stringify(answer)}\n`));
    });
  }

  private async reply(line: string): Promise<unknown> {
    let message: { type?: unknown; token?: unknown; command?: unknown; values?: unknown };
    try {
      message = JSON.parse(line) as typeof message;
    } catch {
      return { output: 'Unreadable request.\n', code: 64 };
    }
    if (message.type === 'who') return this.holder;
    const token = typeof message.token === 'string' ? Buffer.from(message.token) : Buffer.alloc(0);
    const expected = Buffer.from(this.token);
    if (token.length !== expected.length || !timingSafeEqual(token, expected)) return { output: 'Not allowed.\n', code: 77 };
    if (!this.handler) return { output: 'The server is still starting; try again in a moment.\n', code: 75 };
    try {
      return await this.handler({
        command: String(message.command),
        values: (message.values ?? {}) as Record<string, string | undefined>,
      });
    } catch (error) {
      return { output: `Error: ${error instanceof Error ? error.message : String(error)}\n`, code: 1 };
    }
  }
}
