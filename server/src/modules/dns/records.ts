import { isIPv4, isIPv6 } from 'node:net';
import { domainToASCII } from 'node:url';
import { DNS_TXT_MAX, type DnsRecordType } from '@berth/contracts';
import { HttpError } from '../../http/errors.ts';
import type { MessageKey } from '../../i18n/messages.ts';

export interface RecordInput {
  name: string;
  type: DnsRecordType;
  content: string;
  ttl: number;
  priority?: number | null | undefined;
}

export interface ValidRecord {
  name: string;
  type: DnsRecordType;
  content: string;
  ttl: number;
  priority: number | null;
}

const OWNER_LABEL = /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/;
const HOST_LABEL = /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9])?$/;
const CAA_TAGS = new Set(['issue', 'issuewild', 'iodef', 'issuemail']);
const WITH_PRIORITY = new Set<DnsRecordType>(['MX', 'SRV']);

const toAscii = (text: string): string => (/[^\p{ASCII}]/u.test(text) ? domainToASCII(text) : text.toLowerCase());

/** The owner name relative to the zone: `@`, `www`, `*.dev`; a fully qualified name inside the zone is accepted too. */
export function relativeName(input: string, zone: string): string | undefined {
  let name = toAscii(input.trim().replace(/\.$/, ''));
  if (name === '' || name === '@' || name === zone) return '@';
  if (name.endsWith(`.${zone}`)) name = name.slice(0, -(zone.length + 1));
  const labels = name.split('.');
  const valid = labels.every((label, i) => (label === '*' ? i === 0 : OWNER_LABEL.test(label)));
  return valid && name.length + zone.length + 1 <= 253 ? name : undefined;
}

export const fqdnOf = (name: string, zone: string): string => (name === '@' ? zone : `${name}.${zone}`);

/** A target host name (CNAME, MX, NS, SRV): absolute, stored without the final dot. */
function targetHost(input: string): string | undefined {
  const host = toAscii(input.trim().replace(/\.$/, ''));
  if (!host || host.length > 253 || isIPv4(host)) return undefined;
  const labels = host.split('.');
  return labels.length >= 2 && labels.every((label) => HOST_LABEL.test(label)) ? host : undefined;
}

const uint16 = (text: string | undefined): number | undefined =>
  text !== undefined && /^\d{1,5}$/.test(text) && Number(text) <= 65_535 ? Number(text) : undefined;

type Problems = Record<string, { key: MessageKey }[]>;

/**
 * Checks one record against the rules of its type and answers it in canonical form; every problem
 * is a 422 on its own field (name, content, priority). Rules that involve other records of the
 * zone (CNAME exclusivity, duplicates) are the service's.
 */
export function validateRecord(input: RecordInput, zone: string): ValidRecord {
  const problems: Problems = {};
  const fail = (field: string, key: MessageKey) => void (problems[field] ??= []).push({ key });
  const name = relativeName(input.name, zone);
  if (name === undefined) fail('name', 'dns.invalid_name');
  let content = input.content.trim();
  const priority = input.priority ?? null;

  if (WITH_PRIORITY.has(input.type)) {
    if (priority === null) fail('priority', 'dns.priority_required');
  } else if (priority !== null) {
    fail('priority', 'dns.priority_unused');
  }

  switch (input.type) {
    case 'A':
      if (!isIPv4(content)) fail('content', 'dns.invalid_ipv4');
      break;
    case 'AAAA':
      content = content.toLowerCase();
      if (!isIPv6(content)) fail('content', 'dns.invalid_ipv6');
      break;
    case 'CNAME':
    case 'NS':
    case 'MX': {
      const host = targetHost(content);
      if (host === undefined) fail('content', 'dns.invalid_target');
      else content = host;
      if (input.type === 'CNAME' && name === '@') fail('name', 'dns.cname_at_apex');
      if (input.type === 'NS' && name?.startsWith('*')) fail('name', 'dns.invalid_name');
      break;
    }
    case 'TXT':
      // Quotes are presentation: "v=spf1 -all" and v=spf1 -all are the same text.
      if (/^".*"$/s.test(content) && !content.slice(1, -1).includes('"')) content = content.slice(1, -1);
      if (content.length === 0 || content.length > DNS_TXT_MAX || /\p{Cc}/u.test(content)) fail('content', 'dns.invalid_txt');
      break;
    case 'SRV': {
      const labels = name?.split('.') ?? [];
      if (name !== undefined && (labels.length < 2 || !labels[0]?.startsWith('_') || !labels[1]?.startsWith('_')))
        fail('name', 'dns.srv_name');
      const [weight, port, target, ...rest] = content.split(/\s+/);
      const host = target === '.' ? '.' : target === undefined ? undefined : targetHost(target);
      if (uint16(weight) === undefined || uint16(port) === undefined || host === undefined || rest.length)
        fail('content', 'dns.invalid_srv');
      else content = `${uint16(weight)} ${uint16(port)} ${host}`;
      break;
    }
    case 'CAA': {
      const match = /^(\d{1,3})\s+([a-z0-9]+)\s+(.+)$/i.exec(content);
      const flags = match ? Number(match[1]) : NaN;
      const tag = match?.[2]?.toLowerCase() ?? '';
      let value = match?.[3]?.trim() ?? '';
      if (/^".*"$/s.test(value)) value = value.slice(1, -1);
      const validValue =
        value.length > 0 &&
        value.length <= 1000 &&
        !/["\p{Cc}]/u.test(value) &&
        (tag !== 'iodef' || /^(mailto:|https?:\/\/)\S+$/.test(value));
      if (!match || !(flags === 0 || flags === 128) || !CAA_TAGS.has(tag) || !validValue) fail('content', 'dns.invalid_caa');
      else content = `${flags} ${tag} "${value}"`;
      break;
    }
  }
  if (Object.keys(problems).length) throw new HttpError(422, 'validation.failed', { fields: problems });
  return { name: name as string, type: input.type, content, ttl: input.ttl, priority: WITH_PRIORITY.has(input.type) ? priority : null };
}
