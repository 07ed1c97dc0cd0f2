import type { DnsRecord, Soa } from '@berth/contracts';

/** RFC 1035 §5.1: a character-string is at most 255 bytes; longer TXT text is several of them. */
const TXT_CHUNK_BYTES = 255;

const absolute = (host: string): string => (host.endsWith('.') ? host : `${host}.`);

/** TXT text as quoted strings of at most 255 bytes each, quotes and backslashes escaped. */
function txtStrings(text: string): string {
  const chunks: string[] = [];
  let current = '';
  for (const char of text) {
    if (Buffer.byteLength(current + char) > TXT_CHUNK_BYTES) {
      chunks.push(current);
      current = '';
    }
    current += char;
  }
  chunks.push(current);
  return chunks.map((chunk) => `"${chunk.replace(/[\\"]/g, (c) => `\\${c}`)}"`).join(' ');
}

function rdata(record: DnsRecord): string {
  switch (record.type) {
    case 'CNAME':
    case 'NS':
      return absolute(record.content);
    case 'MX':
      return `${record.priority ?? 0} ${absolute(record.content)}`;
    case 'SRV': {
      const [weight, port, target] = record.content.split(/\s+/);
      return `${record.priority ?? 0} ${weight ?? 0} ${port ?? 0} ${absolute(target ?? '.')}`;
    }
    case 'TXT':
      return txtStrings(record.content);
    default:
      return record.content;
  }
}

/**
 * The zone in BIND's master file format (RFC 1035 §5), as `named-checkzone` and every DNS host
 * reads it: $ORIGIN, $TTL, the SOA, then one line per record. Records taken off the air are
 * kept as comments, so an export is a full picture of the zone.
 */
export function toZoneFile(zone: { zone: string; soa: Soa; records: DnsRecord[] }): string {
  const origin = absolute(zone.zone);
  const { soa } = zone;
  const lines = [
    `; Zone ${origin} exported by Berth, SOA serial ${zone.soa.serial}`,
    `$ORIGIN ${origin}`,
    `$TTL ${soa.ttl}`,
    `@\t${soa.ttl}\tIN\tSOA\t${absolute(soa.mname)} ${absolute(soa.rname)} ${soa.serial} ${soa.refresh} ${soa.retry} ${soa.expire} ${soa.minimum}`,
  ];
  for (const record of zone.records) {
    const line = `${record.name}\t${record.ttl}\tIN\t${record.type}\t${rdata(record)}`;
    lines.push(record.disabled ? `; (off the air) ${line}` : line);
  }
  return `${lines.join('\n')}\n`;
}
