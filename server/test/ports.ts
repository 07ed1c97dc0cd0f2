import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

/*
 * Loopback ports for the daemons and servers the tests, e2e and benches start.
 *
 * Not the kernel's "port 0": that answer comes from the ephemeral range (32768–60999 here), the
 * range every outgoing connection's local port is drawn from too, so between the probe and the
 * daemon's bind a PostgreSQL or SMTP client socket could take it (CI: postsrsd's bind failed with
 * EADDRINUSE). Ports below that range are never given to outgoing connections; the only other
 * takers are parallel test processes, so each worker (Vitest pool, Playwright worker) walks its own
 * block, and a cursor kept in a file lets the next test file of the same worker go on where the
 * last one stopped rather than reuse ports whose old connections may still linger in TIME_WAIT.
 */

const FIRST = 10_000;
/**
 * Ports a browser refuses to load a page from (the Fetch standard's "bad ports"; Chromium answers
 * net::ERR_UNSAFE_PORT): an e2e server on one cannot be opened. 10080 is the one inside the blocks.
 */
const BROWSER_REFUSED_PORTS = new Set([
  1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103, 104, 109, 110, 111, 113, 115, 117,
  119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465, 512, 513, 514, 515, 526, 530, 531, 532, 540, 548, 554, 556, 563, 587, 601, 636,
  989, 990, 993, 995, 1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080,
]);
const BLOCK = 1_000;
/** Blocks 0–10 for numbered workers, 11–21 for anything else (by process id); 32,000 stays below the ephemeral range. */
const BLOCKS = 11;

function blockOf(): number {
  const worker = Number(process.env.VITEST_POOL_ID ?? process.env.TEST_PARALLEL_INDEX ?? Number.NaN);
  return Number.isInteger(worker) ? worker % BLOCKS : BLOCKS + (process.pid % BLOCKS);
}

const block = blockOf();
const cursorFile = path.join(tmpdir(), 'berth-test-ports', `block-${block}`);
const handedOut = new Set<number>();
const usable = (port: number) => !handedOut.has(port) && !BROWSER_REFUSED_PORTS.has(port);

function nextCandidate(): number {
  let offset = 0;
  try {
    offset = Number(readFileSync(cursorFile, 'utf8')) || 0;
  } catch {
    offset = Math.floor(Math.random() * BLOCK);
  }
  const port = FIRST + block * BLOCK + (offset % BLOCK);
  mkdirSync(path.dirname(cursorFile), { recursive: true });
  writeFileSync(cursorFile, String((offset + 1) % BLOCK));
  return port;
}

const canListen = (port: number) =>
  new Promise<boolean>((resolve) => {
    const probe = createServer();
    probe.unref();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });

/** A loopback port free right now that this process has not handed out before and a browser opens. */
export async function freePort(): Promise<number> {
  for (let tries = 0; tries < BLOCK; tries++) {
    const port = nextCandidate();
    if (!usable(port)) continue;
    if (await canListen(port)) {
      handedOut.add(port);
      return port;
    }
  }
  throw new Error(`no free loopback port in ${FIRST + block * BLOCK}–${FIRST + (block + 1) * BLOCK - 1}`);
}

/** `count` consecutive free ports (Pure-FTPd's passive range); answers the first. */
export async function freePortRange(count: number): Promise<number> {
  for (let tries = 0; tries < BLOCK; tries++) {
    const first = await freePort();
    if (first + count > FIRST + (block + 1) * BLOCK) continue;
    const rest = Array.from({ length: count - 1 }, (_, i) => first + 1 + i);
    if (!rest.every(usable)) continue;
    if ((await Promise.all(rest.map(canListen))).every(Boolean)) {
      rest.forEach((port) => handedOut.add(port));
      // The cursor goes past the range so the next port is not inside it.
      writeFileSync(cursorFile, String((first + count - FIRST - block * BLOCK) % BLOCK));
      return first;
    }
  }
  throw new Error(`no ${count} consecutive free loopback ports`);
}
