import { execFile } from 'node:child_process';
import { closeSync, openSync, readdirSync, readSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { WEB_HOST_NAME } from '@berth/contracts';
import type { WebLayout } from './nginx.ts';

const run = promisify(execFile);
const OWNER = /^\d+$/;

/** A site's folder as `<owner id>/<name>`, the key of what follows. */
export const folderKey = (ownerId: number | string, name: string) => `${ownerId}/${name}`;

/**
 * Removes the site folders no site of this server has any more (a deleted domain, a domain given
 * to another owner or moved to another server): nothing of an old owner is served to a new owner
 * of the name. Only `<number>/<host name>` folders are touched; the owners' homes stay.
 */
export function sweepSiteFolders(layout: WebLayout, keep: Set<string>): string[] {
  const removed: string[] = [];
  let owners: string[];
  try {
    owners = readdirSync(layout.webRoot).filter((name) => OWNER.test(name));
  } catch {
    return removed;
  }
  for (const owner of owners) {
    for (const name of readdirSync(path.join(layout.webRoot, owner))) {
      if (!WEB_HOST_NAME.test(name) || keep.has(folderKey(owner, name))) continue;
      rmSync(path.join(layout.webRoot, owner, name), { recursive: true, force: true });
      removed.push(folderKey(owner, name));
    }
  }
  return removed;
}

/** Bytes under each site folder, in one pass of Debian's du over the web root. */
export async function measureSiteFolders(layout: WebLayout): Promise<Map<string, number>> {
  const sizes = new Map<string, number>();
  let output: string;
  try {
    ({ stdout: output } = await run('du', ['-b', '--max-depth=2', layout.webRoot], { maxBuffer: 64 * 1024 * 1024 }));
  } catch (error) {
    // du answers 1 when a file vanished while it counted; what it printed still holds.
    output = (error as { stdout?: string }).stdout ?? '';
  }
  const root = layout.webRoot.replace(/\/+$/, '');
  for (const line of output.split('\n')) {
    const tab = line.indexOf('\t');
    if (tab < 0) continue;
    const relative = path.relative(root, line.slice(tab + 1)).split(path.sep);
    if (relative.length !== 2 || !OWNER.test(relative[0]!)) continue;
    sizes.set(folderKey(relative[0]!, relative[1]!), Number(line.slice(0, tab)));
  }
  return sizes;
}

/** The last `count` lines of a file, newest first (reads at most its last 64 KiB). */
export function lastLines(file: string, count = 100): string[] {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return [];
  }
  try {
    const size = statSync(file).size;
    const length = Math.min(size, 64 * 1024);
    const buffer = Buffer.alloc(length);
    readSync(fd, buffer, 0, length, size - length);
    const lines = buffer
      .toString('utf8')
      .split('\n')
      .filter((line) => line.length > 0);
    // The first line of a cut read is a fragment.
    if (length < size) lines.shift();
    return lines
      .slice(-count)
      .reverse()
      .map((line) => line.slice(0, 2000));
  } finally {
    closeSync(fd);
  }
}

/** A file's size and time of change, to tell whether it is worth reading again. */
export function fileStamp(file: string): string {
  try {
    const stat = statSync(file);
    return `${stat.size}:${stat.mtimeMs}`;
  } catch {
    return '';
  }
}
