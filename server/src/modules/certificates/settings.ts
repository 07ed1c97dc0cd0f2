import acme from 'acme-client';
import { webmailUrl, type Config } from '../../config.ts';
import type { AcmeSettings } from './acme.ts';

/**
 * The CA certificates come from: ACME_DIRECTORY_URL, else Let's Encrypt in production on
 * PostgreSQL (where Berth's name servers answer DNS-01), else none — the embedded database serves
 * no DNS, and a development machine never asks a public CA.
 */
export function acmeSettingsOf(config: Config): AcmeSettings | null {
  const directoryUrl =
    config.ACME_DIRECTORY_URL ??
    (config.NODE_ENV === 'production' && config.DATABASE_URL ? acme.directory.letsencrypt.production : undefined);
  if (!directoryUrl || directoryUrl === 'off') return null;
  return {
    directoryUrl,
    email: config.ACME_EMAIL,
    eab: config.ACME_EAB_KID && config.ACME_EAB_HMAC_KEY ? { kid: config.ACME_EAB_KID, hmacKey: config.ACME_EAB_HMAC_KEY } : undefined,
    caFile: config.ACME_CA_FILE,
  };
}

/** A name a public CA certifies: letters, digits and hyphens in two labels or more, not an address. */
const CERTIFIABLE = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/;

/**
 * The panel's own names (migration 0049): BERTH_PUBLIC_URL's host and webmail's (BERTH_WEBMAIL_URL,
 * else webmail.<panel host>), where a CA would certify them; none without a public URL.
 */
export function platformNames(config: Pick<Config, 'BERTH_PUBLIC_URL' | 'BERTH_WEBMAIL_URL'>): string[] {
  const hosts = [config.BERTH_PUBLIC_URL, webmailUrl(config)].flatMap((url) => {
    if (!url) return [];
    try {
      return [new URL(url).hostname.toLowerCase().replace(/\.$/, '')];
    } catch {
      return [];
    }
  });
  // `localhost` and names below it are this machine's own (RFC 6761): no CA can reach them.
  return [...new Set(hosts.filter((host) => CERTIFIABLE.test(host) && host !== 'localhost' && !host.endsWith('.localhost')))];
}
