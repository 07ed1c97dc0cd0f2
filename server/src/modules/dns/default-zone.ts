import { DMARC_PROPOSAL, MX_PRIORITY_PROPOSAL, SPF_PROPOSAL } from './mail-checks.ts';

/** What a tenant's new zones start from (the tenant's settings on /system/tenants). */
export interface ZoneDefaults {
  nameServers: readonly string[];
  /** The tenant's hosting server (web and mail); null until the operator sets it. */
  ipv4: string | null;
  ipv6: string | null;
}

export interface DefaultRecord {
  name: string;
  type: 'A' | 'AAAA' | 'CNAME' | 'MX' | 'TXT' | 'NS';
  content: string;
  priority: number | null;
}

/**
 * The records a new zone starts with, as Plesk and cPanel make them: the tenant's name servers;
 * the apex, www, webmail and the mail host at the hosting server when its address is known; and, because
 * every Berth domain takes mail (docs/decisions/0008-daemons-read-the-database.md), the MX at
 * mail.<zone> and the SPF and DMARC that the mail checks propose (modules/dns/mail-checks.ts), so a
 * new domain passes them at once. Without an address the MX check says that mail.<zone> needs one.
 */
export function defaultZoneRecords(zone: string, defaults: ZoneDefaults): DefaultRecord[] {
  const records: DefaultRecord[] = defaults.nameServers.map((host) => ({ name: '@', type: 'NS', content: host, priority: null }));
  const addresses = [
    ...(defaults.ipv4 ? [{ type: 'A' as const, content: defaults.ipv4 }] : []),
    ...(defaults.ipv6 ? [{ type: 'AAAA' as const, content: defaults.ipv6 }] : []),
  ];
  for (const name of ['@', 'mail']) {
    for (const address of addresses) records.push({ name, ...address, priority: null });
  }
  // www and webmail (Roundcube on the same hosting server, server/src/daemons/webmail.ts) follow the apex.
  if (addresses.length) for (const name of ['www', 'webmail']) records.push({ name, type: 'CNAME', content: zone, priority: null });
  records.push(
    { name: '@', type: 'MX', content: `mail.${zone}`, priority: MX_PRIORITY_PROPOSAL },
    { name: '@', type: 'TXT', content: SPF_PROPOSAL, priority: null },
    { name: '_dmarc', type: 'TXT', content: DMARC_PROPOSAL, priority: null },
  );
  return records;
}
