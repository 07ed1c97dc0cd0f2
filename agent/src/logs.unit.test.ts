import { appendFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SiteLogs } from './logs.ts';

// The shared access log rotated by size (agent/src/logs.ts): no line of a site is lost, whether
// nginx wrote it before the rotation, into the old file before it reopened, or into the new file.
let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const line = (n: number) => `7 127.0.0.1 - - [29/Nov/2026:06:00:00 +0000] "GET /page-${n} HTTP/1.1" 200 5 "-" "-"\n`;

describe('SiteLogs.rotate', () => {
  it('keeps every line: read before the rotation, written to the old file until nginx reopens, and to the new one', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'berth-logs-'));
    const access = path.join(dir, 'access.log');
    writeFileSync(access, '');
    writeFileSync(path.join(dir, 'error.log'), '');
    const logs = new SiteLogs(dir);
    logs.read(() => undefined);
    for (let n = 0; n < 10; n++) appendFileSync(access, line(n));
    logs.read(() => undefined);
    for (let n = 10; n < 20; n++) appendFileSync(access, line(n));
    // Half a line at the moment of the rotation: nginx finishes it in the old file.
    appendFileSync(access, line(20).slice(0, 30));
    const rotated = await logs.rotate(
      100,
      async () => {
        // nginx: what its workers still buffered goes to the old file, then a new file.
        appendFileSync(`${access}.1`, line(20).slice(30));
        appendFileSync(`${access}.1`, line(21));
        writeFileSync(access, line(22));
      },
      () => undefined,
    );
    expect(rotated).toEqual([access]);
    expect(existsSync(`${access}.1`)).toBe(true);
    logs.read(() => undefined);
    appendFileSync(`${access}.1`, line(23));
    appendFileSync(access, line(24));
    logs.read(() => undefined);
    const [site] = logs.changed();
    expect(site?.siteId).toBe(7);
    const pages = site!.access.map((text) => Number(/page-(\d+)/.exec(text)?.[1]));
    expect([...pages].sort((a, b) => a - b)).toEqual(Array.from({ length: 25 }, (_, n) => n));
  });
});
