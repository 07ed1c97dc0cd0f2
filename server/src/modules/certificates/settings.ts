import acme from 'acme-client';
import type { Config } from '../../config.ts';
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
