import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * A self-signed certificate for HTTPS, explicit FTPS, IMAP, POP3 and SMTP until the certificates issue gives each
 * name its own (openssl from Debian): `default.crt`, `default.key`, and both in `ftp.pem` for Pure-FTPd.
 */
export async function ensureDefaultCertificate(dir: string): Promise<void> {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const crt = path.join(dir, 'default.crt');
  const key = path.join(dir, 'default.key');
  if (!existsSync(crt) || !existsSync(key)) {
    await run('openssl', [
      ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '3650'],
      ...['-subj', '/CN=berth-default', '-keyout', key, '-out', crt],
    ]);
  }
  writeFileSync(path.join(dir, 'ftp.pem'), readFileSync(key, 'utf8') + readFileSync(crt, 'utf8'), { mode: 0o600 });
}
