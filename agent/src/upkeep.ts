import { execFile } from 'node:child_process';
import { readdirSync, rmSync } from 'node:fs';
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
