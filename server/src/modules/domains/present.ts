import {
  DEFAULT_DOMAIN_SETTINGS,
  DOMAIN_PROOF_LABEL,
  domainSettingsSchema,
  type Domain,
  type DomainListItem,
  type DomainSettings,
} from '@berth/contracts';
import type { WebSiteStatus } from '@berth/contracts';
import { displayNameOf, iso, isoOrNull } from '../tenants/scope.ts';
import { claimHeldUntil } from './claims.ts';
import { displayDomainName } from './names.ts';
import type { DomainListRow } from './queries.ts';

export const isExpired = (expireAt: Date | string | null, now: Date): boolean =>
  expireAt !== null && new Date(expireAt).getTime() <= now.getTime();

export function presentListItem(row: DomainListRow, now: Date): DomainListItem {
  return {
    id: row.id,
    name: row.name,
    text: displayDomainName(row.name),
    expire_at: isoOrNull(row.expire_at),
    expired: isExpired(row.expire_at, now),
    tenant_id: row.tenant_id,
    owner: {
      id: row.owner_id,
      email: row.owner_email,
      display_name: displayNameOf({ email: row.owner_email, given_name: row.owner_given_name, sn: row.owner_sn }),
    },
    created_at: iso(row.created_at),
    awaiting_proof: row.verification_token !== null,
  };
}

/** Stored settings are what was set; defaults fill the rest (and replace anything no longer valid). */
export function settingsOf(stored: Record<string, unknown>): DomainSettings {
  const parsed = domainSettingsSchema.safeParse({ ...DEFAULT_DOMAIN_SETTINGS, ...stored });
  return parsed.success ? parsed.data : DEFAULT_DOMAIN_SETTINGS;
}

export function presentDomain(
  row: DomainListRow & {
    notes: string;
    settings: Record<string, unknown>;
    auto_renew: boolean;
    updated_at: Date | string;
    user_count: number | null;
    record_count: number | null;
  } & WebStatusRow,
  now: Date,
  diskQuotaMb: number | null = null,
): Domain {
  return {
    ...presentListItem(row, now),
    notes: row.notes,
    settings: settingsOf(row.settings),
    auto_renew: row.auto_renew,
    updated_at: iso(row.updated_at),
    counts: { users: Number(row.user_count ?? 0), dns_records: Number(row.record_count ?? 0) },
    web: row.verification_token === null ? presentWebStatus(row, diskQuotaMb) : null,
    proof:
      row.verification_token === null
        ? null
        : {
            record: `${DOMAIN_PROOF_LABEL}.${row.name}`,
            value: row.verification_token,
            held_until: claimHeldUntil(row.created_at).toISOString(),
          },
  };
}

export interface WebStatusRow {
  web_revision: string;
  web_server: string | null;
  web_server_id: number | null;
  web_applied_revision: string | null;
  web_state: 'live' | 'error' | null;
  web_error: string | null;
  web_note: string | null;
  web_applied_at: Date | string | null;
  web_disk_bytes: string | number | null;
  web_disk_measured_at: Date | string | null;
  web_php_versions: string[] | null;
}

/**
 * The website as its web server last applied it: live at the revision the panel wants, the error
 * that stopped that revision, or applying (a newer revision waits for the agent, or no server yet).
 */
export function presentWebStatus(row: WebStatusRow, diskQuotaMb: number | null): WebSiteStatus {
  const current = row.web_applied_revision !== null && String(row.web_applied_revision) === String(row.web_revision);
  return {
    state: current && row.web_state ? row.web_state : 'applying',
    server: row.web_server,
    server_id: row.web_server_id,
    revision: String(row.web_revision),
    applied_revision: row.web_applied_revision === null ? null : String(row.web_applied_revision),
    applied_at: row.web_applied_at === null ? null : iso(row.web_applied_at),
    error: current && row.web_state === 'error' ? row.web_error || null : null,
    note: row.web_note || null,
    disk: {
      bytes: row.web_disk_bytes === null ? null : Number(row.web_disk_bytes),
      measured_at: row.web_disk_measured_at === null ? null : iso(row.web_disk_measured_at),
      quota_mb: diskQuotaMb,
    },
    php_versions: row.web_php_versions ?? [],
  };
}
