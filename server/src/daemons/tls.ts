import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * A self-signed certificate for HTTPS, explicit FTPS, IMAP, POP3 and SMTP until the panel has its
 * own (openssl from Debian): `default.crt`, `default.key`, and both in `ftp.pem` for Pure-FTPd. The
 * agents write the panel's own certificate over them once it is issued (migration 0049).
 */
export async function ensureDefaultCertificate(dir: string): Promise<void> {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const crt = path.join(dir, 'default.crt');
  const key = path.join(dir, 'default.key');
  const ftp = path.join(dir, 'ftp.pem');
  if (!existsSync(crt) || !existsSync(key)) {
    await run('openssl', [
      ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '3650'],
      ...['-subj', '/CN=berth-default', '-keyout', key, '-out', crt],
    ]);
  } else if (existsSync(ftp)) return;
  // Kept when there: the web agent writes the panel's own certificate into it (agent/src/certificates.ts syncDefault).
  writeFileSync(ftp, readFileSync(key, 'utf8') + readFileSync(crt, 'utf8'), { mode: 0o600 });
}
