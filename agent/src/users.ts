import { execFile } from 'node:child_process';
import { chmodSync, chownSync } from 'node:fs';
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

  private groupId(group: string): Promise<number> {
    let id = this.groups.get(group);
    if (!id) {
      id = run('getent', ['group', group]).then((found) => Number(found.stdout.split(':')[2]));
      this.groups.set(group, id);
    }
    return id;
  }
}
