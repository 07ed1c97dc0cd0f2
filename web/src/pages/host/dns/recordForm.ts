import { z } from 'zod';
import {
  DNS_CONTENT_MAX,
  DNS_RECORD_TYPES,
  DNS_TTL_DEFAULT,
  DNS_TTL_MAX,
  DNS_TTL_MIN,
  type DnsRecord,
  type DnsRecordPayload,
  type DnsRecordType,
} from '@berth/contracts';

/** The types whose records carry a priority (the server refuses one on any other). */
export const WITH_PRIORITY: ReadonlySet<DnsRecordType> = new Set(['MX', 'SRV']);
export const CAA_TAGS = ['issue', 'issuewild', 'iodef', 'issuemail'] as const;
export const CAA_FLAGS = ['0', '128'] as const;
const PRIORITY_MAX = 65_535;
export const PORT_MAX = 65_535;

/** The dialog's own messages, in the UI language. */
export interface RecordFormMessages {
  required: string;
  ttlRange: string;
  priorityRange: string;
  /** For SRV weight and port (0 to 65535). */
  numberRange: string;
}

/**
 * What the record dialog edits. A record's `content` is one presentation string; SRV and CAA
 * are edited in parts (weight/port/target, flags/tag/value) and joined into it on save.
 * Numbers stay text until then, so an empty field is "required" rather than 0.
 */
export const recordFormSchema = (messages: RecordFormMessages) =>
  z
    .object({
      type: z.enum(DNS_RECORD_TYPES),
      name: z.string().trim().max(253),
      ttl: z.string().trim(),
      priority: z.string().trim(),
      content: z.string().max(DNS_CONTENT_MAX),
      weight: z.string().trim(),
      port: z.string().trim(),
      target: z.string().trim().max(253),
      caaFlags: z.enum(CAA_FLAGS),
      caaTag: z.enum(CAA_TAGS),
      caaValue: z.string().trim().max(1000),
    })
    .superRefine((values, ctx) => {
      const required = (field: keyof typeof values) => {
        if (String(values[field]).trim() === '') ctx.addIssue({ code: 'custom', path: [field], message: messages.required });
      };
      const integer = (field: 'ttl' | 'priority' | 'weight' | 'port', min: number, max: number, message: string) => {
        const text = values[field];
        if (text === '') {
          required(field);
        } else if (!/^\d+$/.test(text) || Number(text) < min || Number(text) > max) {
          ctx.addIssue({ code: 'custom', path: [field], message });
        }
      };
      integer('ttl', DNS_TTL_MIN, DNS_TTL_MAX, messages.ttlRange);
      if (WITH_PRIORITY.has(values.type)) integer('priority', 0, PRIORITY_MAX, messages.priorityRange);
      if (values.type === 'SRV') {
        integer('weight', 0, PORT_MAX, messages.numberRange);
        integer('port', 0, PORT_MAX, messages.numberRange);
        required('target');
      } else if (values.type === 'CAA') {
        required('caaValue');
      } else {
        required('content');
      }
    });

export type RecordFormValues = z.input<ReturnType<typeof recordFormSchema>>;
export type RecordFormOutput = z.output<ReturnType<typeof recordFormSchema>>;

export const emptyRecordForm = (type: DnsRecordType = 'A'): RecordFormValues => ({
  type,
  name: '@',
  ttl: String(DNS_TTL_DEFAULT),
  priority: '10',
  content: '',
  weight: '0',
  port: '',
  target: '',
  caaFlags: '0',
  caaTag: 'issue',
  caaValue: '',
});

const CAA_CONTENT = /^(\d+)\s+([a-z0-9]+)\s+"?(.*?)"?$/i;

/** A stored record in the dialog's parts. */
export function recordToForm(record: DnsRecord): RecordFormValues {
  const values = { ...emptyRecordForm(record.type), name: record.name, ttl: String(record.ttl) };
  values.priority = record.priority === null ? values.priority : String(record.priority);
  if (record.type === 'SRV') {
    const [weight = '', port = '', target = ''] = record.content.split(/\s+/);
    return { ...values, weight, port, target };
  }
  if (record.type === 'CAA') {
    const match = CAA_CONTENT.exec(record.content);
    const flags = CAA_FLAGS.find((flag) => flag === match?.[1]) ?? '0';
    const tag = CAA_TAGS.find((known) => known === match?.[2]?.toLowerCase()) ?? 'issue';
    return { ...values, caaFlags: flags, caaTag: tag, caaValue: match?.[3] ?? '' };
  }
  return { ...values, content: record.content };
}

/** The dialog's parts as the API's record (contracts' dnsRecordPayloadSchema). */
export function formToPayload(values: RecordFormOutput): Omit<DnsRecordPayload, 'disabled'> {
  const content =
    values.type === 'SRV'
      ? `${values.weight} ${values.port} ${values.target}`
      : values.type === 'CAA'
        ? `${values.caaFlags} ${values.caaTag} "${values.caaValue}"`
        : values.content.trim();
  return {
    name: values.name || '@',
    type: values.type,
    content,
    ttl: Number(values.ttl),
    priority: WITH_PRIORITY.has(values.type) ? Number(values.priority) : null,
  };
}

/** Where the server's `content` error shows: on the part of the record that holds it. */
export const contentField = (type: DnsRecordType): 'content' | 'target' | 'caaValue' =>
  type === 'SRV' ? 'target' : type === 'CAA' ? 'caaValue' : 'content';
