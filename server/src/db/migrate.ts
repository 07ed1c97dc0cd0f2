import { Migrator, type Migration, type MigrationProvider } from 'kysely';
import type { Db } from './connection.ts';
import * as m0001 from './migrations/0001_foundation.ts';
import * as m0002 from './migrations/0002_auth_flows.ts';
import * as m0003 from './migrations/0003_shell.ts';
import * as m0004 from './migrations/0004_hosting.ts';
import * as m0005 from './migrations/0005_shop.ts';
import * as m0006 from './migrations/0006_payments.ts';
import * as m0007 from './migrations/0007_hardening.ts';
import * as m0008 from './migrations/0008_registrations.ts';
import * as m0009 from './migrations/0009_dns_serving.ts';
import * as m0010 from './migrations/0010_mail_serving.ts';
import * as m0011 from './migrations/0011_dkim_keys.ts';
import * as m0012 from './migrations/0012_dns_lookup_index.ts';
import * as m0013 from './migrations/0013_two_factor_policy.ts';
import * as m0014 from './migrations/0014_api_tokens.ts';
import * as m0015 from './migrations/0015_passkeys.ts';
import * as m0016 from './migrations/0016_billing_details.ts';
import * as m0017 from './migrations/0017_hosting_addresses.ts';
import * as m0018 from './migrations/0018_plan_limits.ts';
import * as m0019 from './migrations/0019_domain_proof.ts';
import * as m0020 from './migrations/0020_mail_autoreplies.ts';
import * as m0021 from './migrations/0021_session_cache.ts';
import * as m0022 from './migrations/0022_mail_owner_safety.ts';
import * as m0023 from './migrations/0023_dns_complete_zones.ts';
import * as m0024 from './migrations/0024_storage_probe.ts';
import * as m0025 from './migrations/0025_dns_secondaries.ts';
import * as m0026 from './migrations/0026_throttle_hit_function.ts';
import * as m0027 from './migrations/0027_throttle_pair.ts';
import * as m0028 from './migrations/0028_dns_served_flag.ts';
import * as m0029 from './migrations/0029_dns_auth_flag.ts';
import * as m0030 from './migrations/0030_web_serving.ts';
import * as m0031 from './migrations/0031_web_plans.ts';
import * as m0032 from './migrations/0032_webhooks.ts';
import * as m0033 from './migrations/0033_billing.ts';
import * as m0034 from './migrations/0034_plan_renewal.ts';
import * as m0035 from './migrations/0035_certificates.ts';
import * as m0036 from './migrations/0036_e_invoices_cards.ts';
import * as m0037 from './migrations/0037_certificate_revocation.ts';
import * as m0038 from './migrations/0038_http01.ts';
import * as m0039 from './migrations/0039_dkim_signing.ts';
import * as m0040 from './migrations/0040_mail_send_limits.ts';
import * as m0041 from './migrations/0041_dkim_rotation.ts';
import * as m0042 from './migrations/0042_spam_filter.ts';
import * as m0043 from './migrations/0043_mail_log.ts';
import * as m0044 from './migrations/0044_mail_domain_limits.ts';
import * as m0045 from './migrations/0045_webmail.ts';
import * as m0046 from './migrations/0046_mail_lookups.ts';
import * as m0047 from './migrations/0047_certificate_wakeup.ts';
import * as m0048 from './migrations/0048_certificate_aliases.ts';
import * as m0049 from './migrations/0049_platform_certificate.ts';
import * as m0050 from './migrations/0050_pdns_served_table.ts';

/** Migrations are listed here (not read from disk) so the same set runs from any working directory. */
const migrations: Record<string, Migration> = {
  '0001_foundation': m0001,
  '0002_auth_flows': m0002,
  '0003_shell': m0003,
  '0004_hosting': m0004,
  '0005_shop': m0005,
  '0006_payments': m0006,
  '0007_hardening': m0007,
  '0008_registrations': m0008,
  '0009_dns_serving': m0009,
  '0010_mail_serving': m0010,
  '0011_dkim_keys': m0011,
  '0012_dns_lookup_index': m0012,
  '0013_two_factor_policy': m0013,
  '0014_api_tokens': m0014,
  '0015_passkeys': m0015,
  '0016_billing_details': m0016,
  '0017_hosting_addresses': m0017,
  '0018_plan_limits': m0018,
  '0019_domain_proof': m0019,
  '0020_mail_autoreplies': m0020,
  '0021_session_cache': m0021,
  '0022_mail_owner_safety': m0022,
  '0023_dns_complete_zones': m0023,
  '0024_storage_probe': m0024,
  '0025_dns_secondaries': m0025,
  '0026_throttle_hit_function': m0026,
  '0027_throttle_pair': m0027,
  '0028_dns_served_flag': m0028,
  '0029_dns_auth_flag': m0029,
  '0030_web_serving': m0030,
  '0031_web_plans': m0031,
  '0032_webhooks': m0032,
  '0033_billing': m0033,
  '0034_plan_renewal': m0034,
  '0035_certificates': m0035,
  '0036_e_invoices_cards': m0036,
  '0037_certificate_revocation': m0037,
  '0038_http01': m0038,
  '0039_dkim_signing': m0039,
  '0040_mail_send_limits': m0040,
  '0041_dkim_rotation': m0041,
  '0042_spam_filter': m0042,
  '0043_mail_log': m0043,
  '0044_mail_domain_limits': m0044,
  '0045_webmail': m0045,
  '0046_mail_lookups': m0046,
  '0047_certificate_wakeup': m0047,
  '0048_certificate_aliases': m0048,
  '0049_platform_certificate': m0049,
  '0050_pdns_served_table': m0050,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

/** Applies pending migrations; safe to run on every start and from several instances at once. */
export async function migrateToLatest(db: Db): Promise<string[]> {
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
