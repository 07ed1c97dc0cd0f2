import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import type pg from 'pg';
import { keysById, openWith } from '@berth/contracts/sealed';

const run = promisify(execFile);
/** A domain as it may appear in a file name and in Dovecot's and Postfix's configuration. */
const DOMAIN = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{2,63}$/;
/** The names mail clients are set up with, besides the domain itself. */
const MAIL_HOSTS = ['mail', 'imap', 'pop3', 'smtp'] as const;

export interface MailTlsSettings {
  /** Where each domain's `<domain>.crt` (chain) and `.key` go (0600, root: both daemons read them as root). */
  dir: string;
  /** Dovecot's `local_name` blocks (included by dovecot.conf). */
  dovecotNames: string;
  /** Postfix's SNI table (tls_server_sni_maps; `postmap -F` reads the files into it). */
  postfixSniMap: string;
  /** The configuration postmap reads (an empty one: the mail host's own would have it check the published address). */
  postmapConfig: string;
  /** The daemons' default certificate (`.crt`, `.key`): the panel's own is written there once it has one (migration 0049). */
  defaultBase: string;
  /** The keys certificate keys are sealed under (base64, comma-separated); empty: nothing is written. */
  keys: string;
}

/**
 * Each served domain's certificate for the mail host, by the name a client asks for (SNI): Dovecot
 * (IMAP, POP3, their TLS ports) through `local_name` blocks, Postfix (STARTTLS on 25, submission)
 * through its SNI table; a name without one gets the mail host's default certificate. Answers
 * whether anything changed (then both daemons are reloaded: open sessions go on).
 */
export async function syncMailCertificates(pool: pg.Pool, settings: MailTlsSettings): Promise<boolean> {
  const keys = keysById(settings.keys);
  if (keys.size === 0) return false;
  mkdirSync(settings.dir, { recursive: true, mode: 0o700 });
  const { rows } = await pool.query<{ domain: string; serial: string; cert_pem: string; key_sealed: string }>(
    'select domain, serial, cert_pem, key_sealed from mail.certificates order by domain',
  );
  const served = rows.filter((row) => DOMAIN.test(row.domain));
  let changed = false;
  // The panel's own certificate as the default, for a name without its own or a client that names none.
  const platform = (
    await pool.query<{ serial: string; cert_pem: string; key_sealed: string }>(
      'select serial, cert_pem, key_sealed from mail.platform_certificate limit 1',
    )
  ).rows[0];
  const defaultSerial = `${settings.defaultBase}.serial`;
  if (platform && !(existsSync(defaultSerial) && readFileSync(defaultSerial, 'utf8') === platform.serial)) {
    write(`${settings.defaultBase}.key`, openWith(keys, platform.key_sealed));
    write(`${settings.defaultBase}.crt`, platform.cert_pem);
    write(defaultSerial, platform.serial);
    changed = true;
  }
  for (const row of served) {
    const base = path.join(settings.dir, row.domain);
    const serialFile = `${base}.serial`;
    if (existsSync(serialFile) && readFileSync(serialFile, 'utf8') === row.serial && existsSync(`${base}.crt`)) continue;
    write(`${base}.key`, openWith(keys, row.key_sealed));
    write(`${base}.crt`, row.cert_pem);
    write(serialFile, row.serial);
    changed = true;
  }
  const wanted = new Set(served.map((row) => row.domain));
  for (const name of readdirSync(settings.dir)) {
    const domain = name.replace(/\.(crt|key|serial)$/, '');
    if (!wanted.has(domain)) {
      rmSync(path.join(settings.dir, name), { force: true });
      changed = true;
    }
  }
  const names = (domain: string) => [domain, ...MAIL_HOSTS.map((host) => `${host}.${domain}`)];
  const dovecot = served
    .flatMap((row) =>
      names(row.domain).map(
        (name) =>
          `local_name ${name} {\n  ssl_cert = <${path.join(settings.dir, `${row.domain}.crt`)}\n  ssl_key = <${path.join(settings.dir, `${row.domain}.key`)}\n}\n`,
      ),
    )
    .join('');
  const postfix = served
    .flatMap((row) => {
      const files = `${path.join(settings.dir, `${row.domain}.key`)} ${path.join(settings.dir, `${row.domain}.crt`)}`;
      return [...names(row.domain), `.${row.domain}`].map((name) => `${name} ${files}\n`);
    })
    .join('');
  if (writeIfChanged(settings.dovecotNames, dovecot)) changed = true;
  if (writeIfChanged(settings.postfixSniMap, postfix)) {
    // -F: the table holds the files' contents (base64), as Postfix's SNI lookups need them.
    await run('postmap', ['-c', settings.postmapConfig, '-F', `hash:${settings.postfixSniMap}`]);
    changed = true;
  }
  return changed;
}

function write(file: string, text: string): void {
  writeFileSync(`${file}.new`, text, { mode: 0o600 });
  renameSync(`${file}.new`, file);
}

function writeIfChanged(file: string, text: string): boolean {
  if (existsSync(file) && readFileSync(file, 'utf8') === text) return false;
  write(file, text);
  return true;
}
