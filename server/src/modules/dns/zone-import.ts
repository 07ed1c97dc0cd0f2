import { DNS_RECORD_TYPES, DNS_TTL_DEFAULT, type DnsRecordType } from '@berth/contracts';
import type { MessageKey } from '../../i18n/messages.ts';
import type { RecordInput } from './records.ts';

/*
 * Reading a BIND master file (RFC 1035 §5.1) as the export of modules/dns/zone-file.ts writes it and
 * as other DNS hosts and registrars hand it out. Written here rather than taken from npm because the
 * zone-file packages there return TXT character-strings and relative names as raw text, which is
 * exactly the part that has to be right (a DKIM key split over several strings, `www` meaning
 * www.<origin>).
 */

/** A record read from the file, in the form the record checks take (modules/dns/records.ts). */
export interface ImportedRecord {
  line: number;
  input: RecordInput;
}

/** Why a line was not read; the params fill the message. */
export interface ImportProblem {
  line: number;
  key: MessageKey;
  params?: Record<string, string | number>;
}

export interface ParsedZoneFile {
  records: ImportedRecord[];
  /** The SOA and the apex NS: the zone keeps its own serial, timers and name servers. */
  ignored: number;
  problems: ImportProblem[];
}

interface Token {
  text: string;
  quoted: boolean;
}

interface Entry {
  line: number;
  /** The line starts with a blank: the owner is the previous record's. */
  inheritsOwner: boolean;
  tokens: Token[];
}

const SUPPORTED = new Set<string>(DNS_RECORD_TYPES);
const CLASSES = new Set(['IN', 'CH', 'HS', 'CS']);
const TTL_UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400, w: 604_800 };

/** A TTL in seconds: `3600`, or BIND's units (`1h30m`, `2d`). */
function ttlOf(text: string): number | undefined {
  if (/^\d+$/.test(text)) return Number(text);
  const parts = [...text.toLowerCase().matchAll(/(\d+)([smhdw])/g)];
  if (parts.length === 0 || parts.map((part) => part[0]).join('') !== text.toLowerCase()) return undefined;
  return parts.reduce((sum, part) => sum + Number(part[1]) * (TTL_UNITS[part[2] as string] ?? 0), 0);
}

/**
 * Splits the file into entries: one per record, parentheses joining lines, comments dropped,
 * quoted strings kept whole with their escapes (\" \\ and \DDD) decoded.
 */
function entriesOf(text: string): { entries: Entry[]; problems: ImportProblem[] } {
  const entries: Entry[] = [];
  const problems: ImportProblem[] = [];
  let line = 1;
  let depth = 0;
  let current: Entry | null = null;
  let i = 0;
  const finish = () => {
    if (current && current.tokens.length) entries.push(current);
    current = null;
  };
  const entry = (): Entry => (current ??= { line, inheritsOwner: false, tokens: [] });
  const escape = (): string => {
    // At a backslash: \DDD is a byte value, anything else stands for itself.
    const digits = /^\d{3}/.exec(text.slice(i + 1, i + 4));
    if (digits) {
      i += 4;
      return String.fromCharCode(Number(digits[0]));
    }
    const char = text[i + 1] ?? '';
    i += 2;
    return char;
  };
  while (i < text.length) {
    const char = text[i] as string;
    if (char === '\n') {
      line += 1;
      i += 1;
      if (depth === 0) finish();
      continue;
    }
    if (char === ';') {
      while (i < text.length && text[i] !== '\n') i += 1;
      continue;
    }
    if (char === ' ' || char === '\t' || char === '\r') {
      // A blank at the start of a line: the record belongs to the owner above.
      if (depth === 0 && (i === 0 || text[i - 1] === '\n')) entry().inheritsOwner = true;
      i += 1;
      continue;
    }
    if (char === '(') {
      depth += 1;
      entry();
      i += 1;
      continue;
    }
    if (char === ')') {
      if (depth === 0) problems.push({ line, key: 'dns.import.unbalanced' });
      depth = Math.max(0, depth - 1);
      i += 1;
      continue;
    }
    if (char === '"') {
      const startLine = line;
      let value = '';
      i += 1;
      while (i < text.length && text[i] !== '"') {
        if (text[i] === '\\') value += escape();
        else {
          if (text[i] === '\n') line += 1;
          value += text[i];
          i += 1;
        }
      }
      if (i >= text.length) {
        // The rest of the file is inside the quote: its entry is not read at all.
        problems.push({ line: startLine, key: 'dns.import.unbalanced' });
        current = null;
        break;
      }
      i += 1;
      entry().tokens.push({ text: value, quoted: true });
      continue;
    }
    let value = '';
    while (i < text.length && !/[\s;()"]/.test(text[i] as string)) {
      if (text[i] === '\\') value += escape();
      else {
        value += text[i];
        i += 1;
      }
    }
    entry().tokens.push({ text: value, quoted: false });
  }
  if (depth > 0) problems.push({ line: (current as Entry | null)?.line ?? line, key: 'dns.import.unbalanced' });
  finish();
  return { entries, problems };
}

/** `www` → www.<origin>, `@` → the origin, `host.example.` → host.example; lower case, no final dot. */
function absoluteName(name: string, origin: string): string {
  if (name === '@') return origin;
  if (name.endsWith('.')) return name.slice(0, -1).toLowerCase();
  return `${name}.${origin}`.toLowerCase();
}

const inZone = (name: string, zone: string): boolean => name === zone || name.endsWith(`.${zone}`);

/**
 * The records of a master file for `zone`, each with its line, in the shape the record checks
 * take; what cannot be read is a problem on its line, and nothing is dropped silently.
 */
export function parseZoneFile(text: string, zone: string): ParsedZoneFile {
  const { entries, problems } = entriesOf(text);
  const records: ImportedRecord[] = [];
  let origin = zone;
  let defaultTtl = DNS_TTL_DEFAULT;
  let owner: string | null = null;
  let ignored = 0;
  for (const { line, inheritsOwner, tokens } of entries) {
    const problem = (key: MessageKey, params?: Record<string, string | number>) =>
      problems.push({ line, key, ...(params ? { params } : {}) });
    const first = tokens[0] as Token;
    if (!first.quoted && first.text.startsWith('$')) {
      const directive = first.text.toUpperCase();
      const argument = tokens[1]?.text ?? '';
      if (directive === '$ORIGIN') {
        const next = absoluteName(argument.endsWith('.') ? argument : `${argument}.`, origin);
        if (!argument || !inZone(next, zone)) problem('dns.import.outside_zone', { name: argument || '—' });
        else origin = next;
      } else if (directive === '$TTL') {
        const ttl = ttlOf(argument);
        if (ttl === undefined) problem('dns.import.bad_ttl');
        else defaultTtl = ttl;
      } else problem('dns.import.directive', { directive: first.text });
      continue;
    }
    const rest = [...tokens];
    if (!inheritsOwner) {
      const name = rest.shift() as Token;
      owner = absoluteName(name.text, origin);
    }
    if (owner === null) {
      problem('dns.import.no_owner');
      continue;
    }
    let ttl: number | null = null;
    // TTL and class come in either order before the type (RFC 1035 §5.1).
    for (let k = 0; k < 2; k += 1) {
      const token = rest[0];
      if (!token || token.quoted) break;
      if (ttl === null && /^\d/.test(token.text)) {
        const value = ttlOf(token.text);
        if (value === undefined) break;
        ttl = value;
        rest.shift();
      } else if (CLASSES.has(token.text.toUpperCase())) rest.shift();
    }
    const typeToken = rest.shift();
    const type = typeToken?.text.toUpperCase() ?? '';
    const data = rest;
    if (!inZone(owner, zone)) {
      problem('dns.import.outside_zone', { name: owner });
      continue;
    }
    if (type === 'SOA' || (type === 'NS' && owner === zone)) {
      ignored += 1;
      continue;
    }
    if (!typeToken || !SUPPORTED.has(type)) {
      problem('dns.import.unsupported_type', { type: typeToken?.text ?? '—' });
      continue;
    }
    const content = contentOf(type as DnsRecordType, data, origin);
    if (!content) {
      problem('dns.import.bad_record', { type });
      continue;
    }
    const relative = owner === zone ? '@' : owner.slice(0, -(zone.length + 1));
    records.push({ line, input: { name: relative, type: type as DnsRecordType, ttl: ttl ?? defaultTtl, ...content } });
  }
  problems.sort((a, b) => a.line - b.line);
  return { records, ignored, problems };
}

/** The record's data as the DNS page stores it; undefined when the values do not fit the type. */
function contentOf(type: DnsRecordType, data: Token[], origin: string): { content: string; priority: number | null } | undefined {
  const texts = data.map((token) => token.text);
  const host = (name: string | undefined) => (name === undefined ? undefined : name === '.' ? '.' : absoluteName(name, origin));
  switch (type) {
    case 'A':
    case 'AAAA':
      return texts.length === 1 ? { content: texts[0] as string, priority: null } : undefined;
    case 'CNAME':
    case 'NS':
      return texts.length === 1 ? { content: host(texts[0]) as string, priority: null } : undefined;
    case 'MX':
      return texts.length === 2 && /^\d+$/.test(texts[0] as string)
        ? { content: host(texts[1]) as string, priority: Number(texts[0]) }
        : undefined;
    case 'SRV':
      return texts.length === 4 && /^\d+$/.test(texts[0] as string)
        ? { content: `${texts[1]} ${texts[2]} ${host(texts[3])}`, priority: Number(texts[0]) }
        : undefined;
    case 'CAA':
      return texts.length === 3 ? { content: `${texts[0]} ${texts[1]} "${texts[2]}"`, priority: null } : undefined;
    case 'TXT':
      // Several character-strings are one text (how long DKIM keys are written).
      return texts.length > 0 ? { content: texts.join(''), priority: null } : undefined;
  }
}
