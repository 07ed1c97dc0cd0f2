import { chownSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import { keysById, openWith } from '@berth/contracts/sealed';

/** A domain as it may appear in a file name and in the signer's map. */
const DOMAIN = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{2,63}$/;
/** A selector as Berth makes them (modules/dns/dkim.ts) or a DNS label. */
const SELECTOR = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

export interface MailDkimSettings {
  /** Where `<domain>.<selector>.key` go (0600, owned by the signer) and `selectors.map`. */
  dir: string;
  /** The signer's user and group (rspamd's), who alone reads the keys. */
  uid: number;
  gid: number;
  /** The keys DKIM keys are sealed under (base64, comma-separated); empty: nothing is written. */
  keys: string;
}

/** The map rspamd's dkim_signing reads (deploy/rspamd/local.d/dkim_signing.conf): `<domain> <selector>` per line. */
export const selectorMapOf = (dir: string) => path.join(dir, 'selectors.map');

/**
 * Each served domain's DKIM signing key for rspamd (deploy/rspamd/local.d/dkim_signing.conf): the
 * key as `<domain>.<selector>.key`, mode 0600 for rspamd's user only, and the domain's selector in
 * the map rspamd watches (it reads a changed map within a second: no reload). A domain no longer
 * served loses both, so nothing is signed for it. Answers whether anything changed.
 */
export async function syncDkimKeys(pool: pg.Pool, settings: MailDkimSettings): Promise<boolean> {
  const keys = keysById(settings.keys);
  if (keys.size === 0) return false;
  mkdirSync(settings.dir, { recursive: true, mode: 0o700 });
  chownSync(settings.dir, settings.uid, settings.gid);
  const { rows } = await pool.query<{ domain: string; selector: string; private_key: string }>(
    'select domain, selector, private_key from mail.dkim_keys order by domain',
  );
  const served = rows.filter((row) => DOMAIN.test(row.domain) && SELECTOR.test(row.selector));
  let changed = false;
  const wanted = new Set<string>();
  const signing: typeof served = [];
  for (const row of served) {
    const file = path.join(settings.dir, `${row.domain}.${row.selector}.key`);
    if (!existsSync(file)) {
      let key: string;
      try {
        key = openWith(keys, row.private_key);
      } catch {
        // Sealed under a key this agent was not given: that domain is not signed (its mail still
        // leaves), the others are.
        continue;
      }
      write(file, key, settings);
      changed = true;
    }
    wanted.add(path.basename(file));
    signing.push(row);
  }
  const map = signing.map((row) => `${row.domain} ${row.selector}\n`).join('');
  const mapFile = selectorMapOf(settings.dir);
  if (!existsSync(mapFile) || readFileSync(mapFile, 'utf8') !== map) {
    write(mapFile, map, settings);
    changed = true;
  }
  for (const name of readdirSync(settings.dir)) {
    if (name.endsWith('.key') && !wanted.has(name)) {
      rmSync(path.join(settings.dir, name), { force: true });
      changed = true;
    }
  }
  return changed;
}

/** Written whole or not at all (a rename), readable by the signer alone. */
function write(file: string, text: string, owner: { uid: number; gid: number }): void {
  const temporary = `${file}.tmp`;
  writeFileSync(temporary, text, { mode: 0o600 });
  chownSync(temporary, owner.uid, owner.gid);
  renameSync(temporary, file);
}
