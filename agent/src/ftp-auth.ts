import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import argon2 from 'argon2';
import pg from 'pg';
import { WEB_HOST_NAME } from '@berth/contracts';
import { customerUser } from './php.ts';
import { ftpLogin } from './queries.ts';

// Pure-FTPd's authentication program, run by Debian's pure-authd for each login (server/src/daemons/
// ftp.ts starts both). Debian 12's pure-ftpd-postgresql 1.0.50 cannot log anyone in through its
// PostgreSQL backend: it passes the port number where a string is expected and dies on every
// login (fixed upstream in 1.0.51); docs/decisions/0014-websites-nginx-php-fpm.md. So pure-authd
// asks this program, which reads the schema `ftp` through its own role and verifies the panel's
// own argon2id hash (no second hash). Its answer is pure-authd's protocol on standard output.
//
// The login and password come from the remote user (environment, not quoted): the login is
// checked before it reaches a query, and only as a parameter.

const SESSIONS_PER_LOGIN = 8;
const LOGIN = /^[a-z0-9._%+-]{1,64}@[a-z0-9.-]{1,253}$/;

interface FtpAuthSettings {
  databaseUrl: string;
  serverId: number;
  webRoot: string;
  userPrefix: string;
}

const run = promisify(execFile);
const answer = (lines: string[]): void => {
  process.stdout.write(`${[...lines, 'end'].join('\n')}\n`);
};
const refuse = (): void => answer(['auth_ok:-1']);

async function main(): Promise<void> {
  const settings = JSON.parse(readFileSync(process.argv[2] ?? '', 'utf8')) as FtpAuthSettings;
  const login = (process.env.AUTHD_ACCOUNT ?? '').toLowerCase();
  const password = process.env.AUTHD_PASSWORD ?? '';
  // Pure-FTPd refuses a login without TLS before it asks (-Y 2); this holds if it ever did not.
  if (process.env.AUTHD_ENCRYPTED !== '1' || !LOGIN.test(login) || password.length === 0 || password.length > 1024) return refuse();
  const client = new pg.Client({ connectionString: settings.databaseUrl, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    const user = await ftpLogin(client, login, settings.serverId);
    // An unknown login costs a verify too, so timing does not tell which logins exist.
    const valid = await argon2.verify(user?.password_hash ?? DUMMY_HASH, password).catch(() => false);
    if (!user || !valid || !WEB_HOST_NAME.test(user.site)) return refuse();
    const name = customerUser(settings.userPrefix, user.owner_id);
    const [uid, gid] = await Promise.all([run('id', ['-u', name]), run('id', ['-g', name])]);
    answer([
      'auth_ok:1',
      `uid:${Number(uid.stdout)}`,
      `gid:${Number(gid.stdout)}`,
      `dir:${path.join(settings.webRoot, String(user.owner_id), user.site)}`,
      'slow_tilde_expansion:1',
      // What the site's folder may hold (the owner's plans; migration 0031): Pure-FTPd refuses an
      // upload that would pass it with 552 and keeps nothing of it.
      ...(user.quota_bytes === null ? [] : [`user_quota_size:${BigInt(user.quota_bytes)}`]),
      // At most this many sessions of one login at once.
      `per_user_max:${SESSIONS_PER_LOGIN}`,
    ]);
  } finally {
    await client.end();
  }
}

/** A hash of nothing anyone knows, verified when the login does not exist. */
const DUMMY_HASH = '$argon2id$v=19$m=19456,p=1,t=2$0g8r5xZnLsQsZot/b8w5Jg$+57oF4O6IpG02gng0T/lT43PMejjQxhy6nbkS0X3B3Q';

main().catch((error: unknown) => {
  process.stderr.write(`ftp-auth: ${(error as Error).message}\n`);
  refuse();
});
