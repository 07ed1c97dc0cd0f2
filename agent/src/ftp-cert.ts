import { existsSync, readFileSync } from 'node:fs';
import { WEB_HOST_NAME } from '@berth/contracts';
import { certificateNames, type SiteEntries } from './nginx.ts';

// Pure-FTPd's certificate program, run by Debian's pure-certd for each AUTH TLS (server/src/daemons/
// ftp.ts starts both): the name the client asked for (SNI, in CERTD_SNI_NAME) gets the certificate
// of the site that answers it, as nginx picks it (agent/src/nginx.ts: a site's certificate for its
// names and a label below them), from the entries the web agent last applied (sites.json). Any
// other name, or none, gets the web agent's default certificate, as nginx does. The name comes from the client: it
// is checked before it is compared with anything, and nothing of it is printed.

/** The certificate files (without `.crt`/`.key`) for `name`, or null: the default one. */
export function certificateFor(sites: Pick<SiteEntries, 'hosts' | 'tls'>[], name: string): string | null {
  const wanted = name.toLowerCase().replace(/\.$/, '');
  if (!WEB_HOST_NAME.test(wanted)) return null;
  const above = wanted.slice(wanted.indexOf('.') + 1);
  let found: string | null = null;
  for (const site of sites) {
    if (!site.tls) continue;
    const names = certificateNames(site);
    if (names.includes(wanted)) return site.tls;
    if (names.includes(above)) found ??= site.tls;
  }
  return found;
}

function main(): void {
  let tls: string | null = null;
  try {
    const sites = JSON.parse(readFileSync(process.argv[2] ?? '', 'utf8')) as SiteEntries[];
    tls = certificateFor(sites, process.env.CERTD_SNI_NAME ?? '');
  } catch {
    // No entries yet: the default certificate.
  }
  // Else the web agent's default (the panel's own certificate once it has one), else Pure-FTPd's own.
  const files = [tls, process.argv[3]].find((base) => base && existsSync(`${base}.crt`) && existsSync(`${base}.key`));
  const lines = files ? ['action:fallback', `cert_file:${files}.crt`, `key_file:${files}.key`] : ['action:default'];
  process.stdout.write(`${[...lines, 'end'].join('\n')}\n`);
}

if (import.meta.main) main();
