import { DNS_TTL_DEFAULT, type MailCheck } from '@berth/contracts';
import { dkimRecordName, dkimRecordText } from './dkim.ts';

/** What the checks read of a record: enabled records only are what the name servers answer. */
export interface CheckedRecord {
  id: number;
  name: string;
  type: string;
  content: string;
  disabled: boolean;
}

/** The SPF Berth proposes: the domain's own MX hosts may send, everything else soft-fails. */
export const SPF_PROPOSAL = 'v=spf1 mx ~all';
/** The DMARC Berth proposes: mail failing SPF and DKIM alignment goes to spam. */
export const DMARC_PROPOSAL = 'v=DMARC1; p=quarantine; adkim=r; aspf=r';
export const MX_PRIORITY_PROPOSAL = 10;

type Check = Omit<MailCheck, 'kind'>;

const check = (
  state: MailCheck['state'],
  reason: MailCheck['reason'],
  records: CheckedRecord[] = [],
  params: Check['params'] = {},
): Check => ({
  state,
  reason,
  params,
  record_ids: records.map((record) => record.id),
  proposal: null,
});

const txtProposal = (name: string, content: string): Check['proposal'] => ({
  name,
  type: 'TXT',
  content,
  ttl: DNS_TTL_DEFAULT,
  priority: null,
});

/** Tag=value pairs of a DKIM or DMARC text (`v=DMARC1; p=reject`). */
function tags(text: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const part of text.split(';')) {
    const at = part.indexOf('=');
    if (at > 0) found.set(part.slice(0, at).trim().toLowerCase(), part.slice(at + 1).trim());
  }
  return found;
}

function mxCheck(zone: string, records: CheckedRecord[]): Check {
  const mx = records.filter((record) => record.type === 'MX' && record.name === '@');
  if (mx.length === 0) {
    return {
      ...check('missing', 'mx_missing'),
      proposal: { name: '@', type: 'MX', content: `mail.${zone}`, ttl: DNS_TTL_DEFAULT, priority: MX_PRIORITY_PROPOSAL },
    };
  }
  // A mail host inside the zone needs an address in the zone, or mail has nowhere to go.
  for (const record of mx) {
    const host = record.content;
    if (host !== zone && !host.endsWith(`.${zone}`)) continue;
    const owner = host === zone ? '@' : host.slice(0, -(zone.length + 1));
    const addressed = records.some((r) => r.name === owner && (r.type === 'A' || r.type === 'AAAA' || r.type === 'CNAME'));
    if (!addressed) return check('warning', 'mx_no_address', [record], { host });
  }
  return check('ok', 'mx_ok', mx, { count: mx.length });
}

function spfCheck(records: CheckedRecord[]): Check {
  const spf = records.filter((r) => r.type === 'TXT' && r.name === '@' && /^v=spf1(\s|$)/i.test(r.content));
  if (spf.length === 0) return { ...check('missing', 'spf_missing'), proposal: txtProposal('@', SPF_PROPOSAL) };
  // RFC 7208 section 4.5: two SPF records make every check a permanent error.
  if (spf.length > 1) return check('warning', 'spf_multiple', spf);
  const [record] = spf as [CheckedRecord];
  const terms = record.content.toLowerCase().split(/\s+/).slice(1);
  const all = terms.find((term) => /^[+\-~?]?all$/.test(term));
  if (all === 'all' || all === '+all') return check('warning', 'spf_allows_all', spf);
  if (!all && !terms.some((term) => term.startsWith('redirect='))) return check('warning', 'spf_no_all', spf);
  return check('ok', 'spf_ok', spf);
}

function dkimCheck(records: CheckedRecord[], key: { selector: string; public_key: string } | null): Check {
  if (!key) return check('missing', 'dkim_no_key');
  const name = dkimRecordName(key.selector);
  const atSelector = records.filter((r) => r.type === 'TXT' && r.name === name);
  const published = atSelector.filter((r) => (tags(r.content).get('p') ?? '').replace(/\s+/g, '') === key.public_key);
  if (published.length > 0) return check('ok', 'dkim_ok', published, { selector: key.selector });
  const proposal = txtProposal(name, dkimRecordText(key.public_key));
  if (atSelector.length > 0) return { ...check('warning', 'dkim_other_key', atSelector, { selector: key.selector }), proposal };
  return { ...check('missing', 'dkim_missing', [], { selector: key.selector }), proposal };
}

function dmarcCheck(records: CheckedRecord[]): Check {
  const dmarc = records.filter((r) => r.type === 'TXT' && r.name === '_dmarc' && /^v=DMARC1\s*(;|$)/i.test(r.content));
  if (dmarc.length === 0) return { ...check('missing', 'dmarc_missing'), proposal: txtProposal('_dmarc', DMARC_PROPOSAL) };
  if (dmarc.length > 1) return check('warning', 'dmarc_multiple', dmarc);
  const policy = tags((dmarc[0] as CheckedRecord).content)
    .get('p')
    ?.toLowerCase();
  if (policy !== 'none' && policy !== 'quarantine' && policy !== 'reject') return check('warning', 'dmarc_invalid', dmarc);
  // p=none only reports: spoofed mail is still delivered.
  if (policy === 'none') return check('warning', 'dmarc_monitor', dmarc);
  return check('ok', 'dmarc_ok', dmarc, { policy });
}

/**
 * The mail records of a zone checked the way a receiving server reads them: MX, SPF (RFC 7208),
 * DKIM against the domain's own key (RFC 6376) and DMARC (RFC 7489). Disabled records are not
 * served, so they do not count.
 */
export function mailChecks(zone: string, all: CheckedRecord[], key: { selector: string; public_key: string } | null): MailCheck[] {
  const records = all.filter((record) => !record.disabled);
  return [
    { kind: 'mx', ...mxCheck(zone, records) },
    { kind: 'spf', ...spfCheck(records) },
    { kind: 'dkim', ...dkimCheck(records, key) },
    { kind: 'dmarc', ...dmarcCheck(records) },
  ];
}
