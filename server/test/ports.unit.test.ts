import { execFile } from 'node:child_process';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';

// freePort in a process of its own, as worker 0 of a test run whose cursor (server/test/ports.ts)
// stands on port 10080, which Chromium refuses to open (net::ERR_UNSAFE_PORT: a CI run lost an e2e
// test to it).
const portsModule = path.resolve(import.meta.dirname, 'ports.ts');
let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

/** The ports `expression` (an array of awaited calls of ports.ts) answers, from cursor `offset` of block 0. */
async function portsFrom(offset: number, expression: string): Promise<number[]> {
  dir = await mkdtemp(path.join(tmpdir(), 'berth-ports-'));
  await mkdir(path.join(dir, 'berth-test-ports'));
  await writeFile(path.join(dir, 'berth-test-ports', 'block-0'), String(offset));
  const program = `import { freePort, freePortRange } from ${JSON.stringify(portsModule)};
    console.log(JSON.stringify(${expression}));`;
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', program], {
    env: { ...process.env, TMPDIR: dir, VITEST_POOL_ID: '0' },
    timeout: 20_000,
  });
  return JSON.parse(stdout) as number[];
}

describe('test ports', () => {
  it('never hands out a port a browser refuses to open, walking on past it', async () => {
    const ports = await portsFrom(78, '[await freePort(), await freePort(), await freePort(), await freePort()]');
    expect(ports).not.toContain(10_080);
    expect(ports.every((port) => port >= 10_078 && port < 11_000)).toBe(true);
    expect(new Set(ports).size).toBe(4);
  });

  it('never hands out a range of ports with a refused port inside it', async () => {
    const [first] = await portsFrom(75, '[await freePortRange(10)]');
    expect(first).toBeGreaterThanOrEqual(10_075);
    expect(first! > 10_080 || first! + 10 <= 10_080).toBe(true);
  });
});
