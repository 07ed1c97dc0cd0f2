import { execFile } from 'node:child_process';
import { chmodSync, chownSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { customerUser, ensureCustomerUser } from './php.ts';

const run = promisify(execFile);

/** A customer as the file system knows them: their user (null without root) and how to give them a path. */
export interface CustomerUser {
  name: string | null;
  /** Makes `file` theirs (group: `group`, or their own), with `mode`. */
  own(file: string, mode: number, group?: string | null): void;
}

async function idsOf(name: string): Promise<{ uid: number; gid: number }> {
  const [uid, gid] = await Promise.all([run('id', ['-u', name]), run('id', ['-g', name])]);
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

/**
 * Each customer's system user, created on first need (root only). Without root the files stay the
 * agent's and PHP runs as the agent's user: one user for all sites, which the site status says.
 */
export class CustomerUsers {
  private readonly known = new Map<number, Promise<CustomerUser>>();
  private readonly groups = new Map<string, Promise<number>>();
  private readonly prefix: string;
  private readonly root: boolean;

  constructor(prefix: string, root: boolean) {
    if (!/^[a-z][a-z0-9]{0,15}$/.test(prefix)) throw new Error(`not a user name prefix: ${prefix}`);
    this.prefix = prefix;
    this.root = root;
  }

  ensure(ownerId: number, home: string): Promise<CustomerUser> {
    let user = this.known.get(ownerId);
    if (!user) {
      user = this.make(ownerId, home);
      this.known.set(ownerId, user);
      user.catch(() => this.known.delete(ownerId));
    }
    return user;
  }

  private async make(ownerId: number, home: string): Promise<CustomerUser> {
    if (!this.root) return { name: null, own: (file, mode) => chmodSync(file, mode) };
    const name = customerUser(this.prefix, ownerId);
    await ensureCustomerUser(name, home);
    const { uid, gid } = await idsOf(name);
    const workerGid = await this.groupId('www-data');
    return {
      name,
      own: (file, mode, group) => {
        chownSync(file, uid, group ? workerGid : gid);
        chmodSync(file, mode);
      },
    };
  }

  /**
   * Removes the system user and home of every customer with no site left under this web root (their
   * pool went in the same pass): the users this agent made (its prefix, their home in `webRoot`),
   * never another agent's on the same machine. A user FPM still runs a process as stays until the
   * next pass. Answers the users removed.
   */
  async retire(keep: Set<number>, webRoot: string): Promise<string[]> {
    if (!this.root) return [];
    const pattern = new RegExp(`^${this.prefix}c(\\d+)$`);
    const removed: string[] = [];
    for (const line of readFileSync('/etc/passwd', 'utf8').split('\n')) {
      const [name = '', , , , , home = ''] = line.split(':');
      const ownerId = Number(pattern.exec(name)?.[1] ?? NaN);
      if (!Number.isSafeInteger(ownerId) || keep.has(ownerId) || home !== path.join(webRoot, String(ownerId))) continue;
      try {
        await run('userdel', [name]);
      } catch {
        continue;
      }
      this.known.delete(ownerId);
      rmSync(home, { recursive: true, force: true });
      removed.push(name);
    }
    return removed;
  }

  private groupId(group: string): Promise<number> {
    let id = this.groups.get(group);
    if (!id) {
      id = run('getent', ['group', group]).then((found) => Number(found.stdout.split(':')[2]));
      this.groups.set(group, id);
    }
    return id;
  }
}
