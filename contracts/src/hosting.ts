import { z } from 'zod';
import { LANGUAGES, PASSWORD_MAX_LENGTH } from './constants.ts';
import { ID_MAX } from './input.ts';
import { emailAddressSchema, roleSchema } from './user.ts';
import { sessionDataSchema } from './auth.ts';

/*
 * The hosting area: domains, domain users, DNS, customers, tenants, audit log, dashboard and
 * "log in as customer". Lists answer `{ data: [...], next_cursor }` (keyset pagination: pass
 * `next_cursor` back as `cursor`; null means the last page).
 */

/* ---- shared pieces ---- */

/** A path id: a positive int4 (anything larger cannot exist, and must not reach SQL as an error). */
export const idSchema = z.coerce.number().int().positive().max(ID_MAX);
export const idParamsSchema = z.object({ id: idSchema });

export const PAGE_SIZE_DEFAULT = 50;
export const PAGE_SIZE_MAX = 100;

export const pageQuerySchema = z.object({
  cursor: z.string().max(512).optional(),
  limit: z.coerce.number().int().min(1).max(PAGE_SIZE_MAX).default(PAGE_SIZE_DEFAULT),
});

export const pageOf = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item), next_cursor: z.string().nullable() });

/** A timestamp in: an ISO date (`2027-03-01`, midnight UTC) or date-time with offset. Out: ISO date-time. */
export const timestampInputSchema = z.union([z.iso.date(), z.iso.datetime({ offset: true })]);

const userRefSchema = z.object({ id: z.number().int(), email: z.string(), display_name: z.string() });
export type UserRef = z.infer<typeof userRefSchema>;

/* ---- domains (/host/domain) ---- */

export const PHP_VERSIONS = ['off', '8.1', '8.2', '8.3', '8.4'] as const;

/** One or more DNS labels below a domain (`blog`, `shop.eu`), lower case. */
export const SUBDOMAIN = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;
export const MAX_SITE_ALIASES = 20;
export const WWW_REDIRECTS = ['none', 'to_apex', 'to_www'] as const;

/** Per-domain web settings (what Froxlor/Plesk call hosting settings). */
export const domainSettingsSchema = z.object({
  /** Relative to the owner's home; no `..` segments. */
  document_root: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .regex(/^(?!.*(^|\/)\.\.(\/|$))[A-Za-z0-9._\-/]+$/, { error: 'validation.invalid' }),
  php_version: z.enum(PHP_VERSIONS),
  ssl_redirect: z.boolean(),
  hsts: z.boolean(),
  /** Subdomains the site answers besides its name and www (`blog` serves blog.<domain>). */
  aliases: z
    .array(
      z
        .string()
        .trim()
        .toLowerCase()
        .regex(SUBDOMAIN, { error: 'validation.invalid' })
        .refine((label) => label !== 'www', { error: 'domains.alias_www' }),
    )
    .max(MAX_SITE_ALIASES, { error: 'domains.aliases_max' })
    .refine((labels) => new Set(labels).size === labels.length, { error: 'domains.alias_twice' }),
  /** One name the visitor ends on: www.<domain> sent to <domain>, the other way round, or both served. */
  www_redirect: z.enum(WWW_REDIRECTS),
});
export type DomainSettings = z.infer<typeof domainSettingsSchema>;
export const DEFAULT_DOMAIN_SETTINGS: DomainSettings = {
  document_root: 'public_html',
  // Debian 12's PHP-FPM (a version a server lacks runs on the nearest one it has, agent/src/php.ts).
  php_version: '8.2',
  ssl_redirect: true,
  hsts: false,
  aliases: [],
  www_redirect: 'none',
};

export const DOMAIN_SORTS = ['name', '-name', 'expire_at', '-expire_at'] as const;
export type DomainSort = (typeof DOMAIN_SORTS)[number];

/** GET /api/host/domain: search is by name prefix (either spelling of an IDN), then a page of "contains" matches. */
export const domainListQuerySchema = pageQuerySchema.extend({
  q: z.string().trim().max(253).optional(),
  sort: z.enum(DOMAIN_SORTS).default('name'),
  owner_id: idSchema.optional(),
  /** Super admins only; others are scoped to their tenant anyway. */
  tenant_id: idSchema.optional(),
});
export type DomainListQuery = z.infer<typeof domainListQuerySchema>;
/** GET /api/host/domain/export.csv: the list's filters and order, every page. */
export const domainExportQuerySchema = domainListQuerySchema.omit({ cursor: true, limit: true });

export const domainListItemSchema = z.object({
  id: z.number().int(),
  /** As stored: punycode (ASCII). */
  name: z.string(),
  /** As people write it (Unicode for IDN). */
  text: z.string(),
  expire_at: z.string().nullable(),
  expired: z.boolean(),
  tenant_id: z.number().int(),
  owner: userRefSchema,
  created_at: z.string(),
  /** A name a customer added as theirs that they have not proven yet: not served (no DNS, no mail). */
  awaiting_proof: z.boolean(),
});
export type DomainListItem = z.infer<typeof domainListItemSchema>;
export const domainListAnswerSchema = pageOf(domainListItemSchema);

export const WEB_SITE_STATES = ['live', 'applying', 'error'] as const;
export type WebSiteState = (typeof WEB_SITE_STATES)[number];

/** How the panel shows a site's state: live with the revision applied and when, applying, or the error. */
export const webSiteStatusSchema = z.object({
  state: z.enum(WEB_SITE_STATES),
  server: z.string().nullable(),
  server_id: z.number().int().nullable(),
  revision: z.string(),
  applied_revision: z.string().nullable(),
  applied_at: z.string().nullable(),
  error: z.string().nullable(),
  /** What the owner should know although the site is live (its PHP runs on the nearest installed version). */
  note: z.string().nullable(),
  /** What the site's folder holds, as the web server last measured it, and the owner's plans' disk (null: unlimited). */
  disk: z.object({ bytes: z.number().nullable(), measured_at: z.string().nullable(), quota_mb: z.number().int().nullable() }),
  /** The PHP versions the site's web server has, as its agent reported them (empty: not reported yet). */
  php_versions: z.array(z.string()),
});

/** GET /api/system/servers: the servers Berth places sites on, with what each serves and reports. */
export const webServerSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  address: z.string(),
  roles: z.array(z.string()),
  sites: z.number().int(),
  /** What its agent last reported: its PHP versions, and when (null: never). */
  php_versions: z.array(z.string()),
  reported_at: z.string().nullable(),
});
export type WebServer = z.infer<typeof webServerSchema>;
export const webServersAnswerSchema = z.object({ data: z.array(webServerSchema) });

/** GET /api/host/domain/{id}/logs: the last 100 lines of the site's access and error logs, newest first. */
export const webSiteLogsAnswerSchema = z.object({
  data: z.object({ access: z.array(z.string()), error: z.array(z.string()), updated_at: z.string().nullable() }),
});
export type WebSiteLogs = z.infer<typeof webSiteLogsAnswerSchema>['data'];
export type WebSiteStatus = z.infer<typeof webSiteStatusSchema>;

export const domainSchema = domainListItemSchema.extend({
  notes: z.string(),
  settings: domainSettingsSchema,
  /** Renewed from the owner's credit before it expires (modules/billing); the owner may switch it off. */
  auto_renew: z.boolean(),
  updated_at: z.string(),
  counts: z.object({ users: z.number().int(), dns_records: z.number().int() }),
  /** The TXT record that proves the name is the customer's (POST /api/host/domain/{id}/verify checks it); null when proven. */
  /** `held_until`: when the unproven claim stops holding the name for its owner (DOMAIN_PROOF_DAYS). */
  proof: z.object({ record: z.string(), value: z.string(), held_until: z.string() }).nullable(),
  /** The website as its web server applied it; null while the name awaits its proof. */
  web: webSiteStatusSchema.nullable(),
});
export type Domain = z.infer<typeof domainSchema>;
export const domainAnswerSchema = z.object({ data: domainSchema, message: z.string().optional() });

const notesSchema = z.string().max(10_000);

/** POST /api/host/domain. `owner_id` and `expire_at` are for admins (a customer's domain is their own). */
export const domainCreatePayloadSchema = z.object({
  name: z.string().trim().min(1).max(253),
  owner_id: idSchema.optional(),
  expire_at: timestampInputSchema.nullable().optional(),
  notes: notesSchema.optional(),
  settings: domainSettingsSchema.partial().optional(),
});
export type DomainCreatePayload = z.infer<typeof domainCreatePayloadSchema>;

/**
 * PATCH /api/host/domain/{id}: settings and notes for everyone who sees the domain; owner and expiry
 * for admins; the web server that serves it for super admins (`servers.manage`).
 */
export const domainUpdatePayloadSchema = z.object({
  owner_id: idSchema.optional(),
  server_id: idSchema.optional(),
  expire_at: timestampInputSchema.nullable().optional(),
  notes: notesSchema.optional(),
  settings: domainSettingsSchema.partial().optional(),
  auto_renew: z.boolean().optional(),
});
export type DomainUpdatePayload = z.infer<typeof domainUpdatePayloadSchema>;

/** The label below the domain where its proof TXT record goes (`_domain-verification.example.com`). */
export const DOMAIN_PROOF_LABEL = '_domain-verification';
/**
 * How long an unproven claim holds its name: afterwards whoever really holds the name may add it
 * (or register it in the shop), and the lapsed claim is removed (modules/domains/claims.ts).
 */
export const DOMAIN_PROOF_DAYS = 7;

/** DELETE confirmations repeat the object's name (domain name, customer e-mail), as GitHub does. */
export const deleteConfirmQuerySchema = z.object({ confirm: z.string().trim().max(320).default('') });

/* ---- domain users (/host/domain/{id}/users): mailbox/FTP accounts ---- */

export const DOMAIN_USER_QUOTA_MAX_MB = 1_048_576;

/** The standard ports a mail program uses with the mail host: IMAPS, POP3S, submission (STARTTLS). */
export const MAIL_CLIENT_PORTS = { imap: 993, pop3: 995, smtp: 587 } as const;

/**
 * A mailbox's spam filter: `off` files nothing in Junk; `normal` files what rspamd scores at or
 * above its add-header score; `strict` from a lower score. Mail above rspamd's reject score is
 * refused at SMTP time for every mailbox (deploy/rspamd/local.d/actions.conf).
 */
export const SPAM_FILTER_LEVELS = ['off', 'normal', 'strict'] as const;
export type SpamFilter = (typeof SPAM_FILTER_LEVELS)[number];
export const spamFilterSchema = z.enum(SPAM_FILTER_LEVELS, { error: 'domain_user.spam_filter' });
/** The rspamd score from which each level files a message in Junk (migration 0042_spam_filter). */
export const SPAM_JUNK_SCORE = { normal: 6, strict: 3 } as const;

export const domainUserSchema = z.object({
  id: z.number().int(),
  domain_id: z.number().int(),
  uid: z.string(),
  quota_mb: z.number().int(),
  enabled: z.boolean(),
  spam_filter: spamFilterSchema,
  created_at: z.string(),
  updated_at: z.string(),
  /** Whether an autoresponder is switched on (given by the list and the single account). */
  autoreply: z.boolean().optional(),
});
export type DomainUser = z.infer<typeof domainUserSchema>;
export const domainUserAnswerSchema = z.object({ data: domainUserSchema, message: z.string().optional() });
export const domainUserListAnswerSchema = pageOf(domainUserSchema);

const quotaSchema = z
  .number()
  .int()
  .min(1, { error: 'domain_user.quota_range' })
  .max(DOMAIN_USER_QUOTA_MAX_MB, { error: 'domain_user.quota_range' });

/** POST: `uid` is the local part (`info`) or the whole address at this domain (`info@example.com`). */
export const domainUserCreatePayloadSchema = z.object({
  uid: z.string().trim().min(1).max(320),
  password: z.string().min(1).max(PASSWORD_MAX_LENGTH),
  password_confirmation: z.string().max(PASSWORD_MAX_LENGTH),
  quota_mb: quotaSchema.default(1024),
  enabled: z.boolean().default(true),
  spam_filter: spamFilterSchema.default('normal'),
});
export type DomainUserCreatePayload = z.infer<typeof domainUserCreatePayloadSchema>;

export const domainUserUpdatePayloadSchema = z.object({
  quota_mb: quotaSchema.optional(),
  enabled: z.boolean().optional(),
  spam_filter: spamFilterSchema.optional(),
});

/* ---- /host/domain/{id}/users/{userId}/mail-log: what a mailbox received and sent ---- */

/** How many days of a mailbox's mail log are kept and shown. */
export const MAIL_LOG_DAYS = 7;
export const mailLogEntrySchema = z.object({
  at: z.string(),
  /** `in`: received by the mailbox (peer: the sender); `out`: sent by it (peer: the recipient). */
  direction: z.enum(['in', 'out']),
  peer: z.string(),
  status: z.enum(['delivered', 'deferred', 'bounced']),
  /** The receiving server's answer for a deferred or bounced message. */
  detail: z.string(),
});
export type MailLogEntry = z.infer<typeof mailLogEntrySchema>;
export const mailLogAnswerSchema = z.object({ data: z.array(mailLogEntrySchema) });

/** POST /api/host/domain/{id}/users/{userId}/password: an owner or admin sets a new password. */
export const domainUserPasswordResetPayloadSchema = z.object({
  password: z.string().min(1).max(PASSWORD_MAX_LENGTH),
  password_confirmation: z.string().max(PASSWORD_MAX_LENGTH),
});

/* ---- /host/domain/{id}/users/{userId}/autoreply: a mailbox's autoresponder ---- */

export const AUTOREPLY_SUBJECT_MAX = 200;
export const AUTOREPLY_BODY_MAX = 5_000;
/** RFC 5230 `:days`: one reply per sender in this many days (Dovecot accepts 1 to 30 by default). */
export const AUTOREPLY_INTERVAL_DAYS = { min: 1, max: 30, default: 1 } as const;

export const autoreplySchema = z.object({
  enabled: z.boolean(),
  subject: z.string(),
  body: z.string(),
  interval_days: z.number().int(),
  /** The first and last day (YYYY-MM-DD, the mail server's days) it answers; null: open. */
  starts_on: z.string().nullable(),
  ends_on: z.string().nullable(),
  /** Null: never set. */
  updated_at: z.string().nullable(),
});
export type Autoreply = z.infer<typeof autoreplySchema>;
export const autoreplyAnswerSchema = z.object({ data: autoreplySchema, message: z.string().optional() });

/** PUT: the whole autoresponder. Subject and text are required while it is switched on. */
export const autoreplyPayloadSchema = z.object({
  enabled: z.boolean(),
  subject: z.string().trim().max(AUTOREPLY_SUBJECT_MAX).default(''),
  body: z.string().max(AUTOREPLY_BODY_MAX).default(''),
  interval_days: z
    .number()
    .int()
    .min(AUTOREPLY_INTERVAL_DAYS.min, { error: 'autoreply.interval_range' })
    .max(AUTOREPLY_INTERVAL_DAYS.max, { error: 'autoreply.interval_range' })
    .default(AUTOREPLY_INTERVAL_DAYS.default),
  starts_on: z.iso.date().nullable().default(null),
  ends_on: z.iso.date().nullable().default(null),
});
export type AutoreplyPayload = z.input<typeof autoreplyPayloadSchema>;

/* ---- GET /host/services: whether the name and mail servers serve what the pages keep ---- */

export const hostingServicesAnswerSchema = z.object({
  data: z.object({
    dns: z.boolean(),
    mail: z.boolean(),
    /** Where a mailbox's owner reads their mail in the browser (Roundcube, BERTH_WEBMAIL_URL); null where no mail is served. */
    webmail_url: z.string().nullable(),
  }),
});
export type HostingServices = z.infer<typeof hostingServicesAnswerSchema>['data'];

/* ---- forwarders (/host/domain/{id}/aliases): mail for an address of the domain goes on elsewhere ---- */

/** How many forwarders one domain may hold. */
export const MAIL_ALIASES_PER_DOMAIN = 200;

export const mailAliasSchema = z.object({
  id: z.number().int(),
  domain_id: z.number().int(),
  /** The whole forwarded address, e.g. sales@example.com. */
  address: z.string(),
  local_part: z.string(),
  destination: z.string(),
  created_at: z.string(),
});
export type MailAlias = z.infer<typeof mailAliasSchema>;
export const mailAliasAnswerSchema = z.object({ data: mailAliasSchema, message: z.string().optional() });
export const mailAliasListAnswerSchema = z.object({ data: z.array(mailAliasSchema) });

/** POST: `local_part` is `sales` (or `sales@<this domain>`); `destination` any e-mail address. */
export const mailAliasCreatePayloadSchema = z.object({
  local_part: z.string().trim().min(1).max(320),
  destination: z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.email({ error: 'mail_alias.invalid_destination' }))
    .pipe(z.string().max(254)),
});
export type MailAliasCreatePayload = z.input<typeof mailAliasCreatePayloadSchema>;

/* ---- DNS (/host/domain/{id}/dns) ---- */

export const DNS_RECORD_TYPES = ['A', 'AAAA', 'CNAME', 'MX', 'TXT', 'SRV', 'CAA', 'NS'] as const;
export type DnsRecordType = (typeof DNS_RECORD_TYPES)[number];
export const DNS_TTL_MIN = 60;
export const DNS_TTL_MAX = 604_800;
/** The longest TXT text (split into 255-byte strings when served); the type's own rule says so. */
export const DNS_TXT_MAX = 4000;
/** A bound on any record's content in transit, above every type's own limit, so the type's rule speaks. */
export const DNS_CONTENT_MAX = 8192;
export const DNS_TTL_DEFAULT = 3600;
export const DNS_RECORDS_PER_ZONE_MAX = 500;

export const dnsRecordSchema = z.object({
  id: z.number().int(),
  /** Relative to the zone: `@` is the apex, `www`, `*.dev`, `_sip._tcp`. */
  name: z.string(),
  fqdn: z.string(),
  type: z.enum(DNS_RECORD_TYPES),
  /**
   * Presentation format without the priority: an address (A/AAAA), a host name (CNAME/MX/NS),
   * text (TXT), `weight port target` (SRV), `flags tag "value"` (CAA).
   */
  content: z.string(),
  ttl: z.number().int(),
  /** MX and SRV only. */
  priority: z.number().int().nullable(),
  /** Kept in the zone's list but not served by the name servers. */
  disabled: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type DnsRecord = z.infer<typeof dnsRecordSchema>;

export const soaSchema = z.object({
  mname: z.string(),
  rname: z.string(),
  serial: z.number().int(),
  refresh: z.number().int(),
  retry: z.number().int(),
  expire: z.number().int(),
  minimum: z.number().int(),
  ttl: z.number().int(),
});
export type Soa = z.infer<typeof soaSchema>;

/** A zone is small and bounded (DNS_RECORDS_PER_ZONE_MAX), so it comes whole, with its SOA. */
/** A DS record for the registrar: what the parent zone must publish for the signed zone. */
export const dsRecordSchema = z.object({
  key_tag: z.number().int(),
  algorithm: z.number().int(),
  digest_type: z.number().int(),
  digest: z.string(),
});
export type DsRecord = z.infer<typeof dsRecordSchema>;
/** DNSSEC of a zone: signed online by the name servers with keys kept in the database. */
export const dnssecSchema = z.object({ signed: z.boolean(), ds: z.array(dsRecordSchema) });
export type Dnssec = z.infer<typeof dnssecSchema>;
export const dnssecAnswerSchema = z.object({ data: dnssecSchema, soa: soaSchema, message: z.string().optional() });

/** The records that make a domain's mail deliverable and trusted, each checked against the zone. */
export const MAIL_RECORD_KINDS = ['mx', 'spf', 'dkim', 'dmarc'] as const;
export type MailRecordKind = (typeof MAIL_RECORD_KINDS)[number];
/** ok: present and correct (green); warning: present but wrong or weak (orange); missing (red). */
export const MAIL_CHECK_STATES = ['ok', 'warning', 'missing'] as const;
/** Why a check is in its state; the page words each (dns.mail.reason.*). */
export const MAIL_CHECK_REASONS = [
  'mx_missing',
  'mx_no_address',
  'mx_ok',
  'spf_missing',
  'spf_multiple',
  'spf_allows_all',
  'spf_no_all',
  'spf_ok',
  'dkim_no_key',
  'dkim_missing',
  'dkim_other_key',
  'dkim_ok',
  'dmarc_missing',
  'dmarc_multiple',
  'dmarc_invalid',
  'dmarc_monitor',
  'dmarc_ok',
] as const;
export const mailCheckSchema = z.object({
  kind: z.enum(MAIL_RECORD_KINDS),
  state: z.enum(MAIL_CHECK_STATES),
  reason: z.enum(MAIL_CHECK_REASONS),
  params: z.record(z.string(), z.union([z.string(), z.number()])),
  /** The records the check read (shown highlighted). */
  record_ids: z.array(z.number().int()),
  /** What Berth proposes to add, as a record payload; null when nothing is to add. */
  proposal: z
    .object({
      name: z.string(),
      type: z.enum(DNS_RECORD_TYPES),
      content: z.string(),
      ttl: z.number().int(),
      priority: z.number().int().nullable(),
    })
    .nullable(),
});
export type MailCheck = z.infer<typeof mailCheckSchema>;
export const mailRecordsSchema = z.object({
  /** The DKIM selector of the domain's key; null before a key is made. */
  dkim_selector: z.string().nullable(),
  /** A key rotation under way: the next key (signing from `signs_at`) and the old one (its record removed at `removed_at`). */
  dkim_rotation: z
    .object({
      next_selector: z.string().nullable(),
      signs_at: z.string().nullable(),
      old_selector: z.string().nullable(),
      removed_at: z.string().nullable(),
    })
    .nullable(),
  checks: z.array(mailCheckSchema),
});
export type MailRecords = z.infer<typeof mailRecordsSchema>;

export const dnsZoneSchema = z.object({
  domain_id: z.number().int(),
  zone: z.string(),
  soa: soaSchema,
  records: z.array(dnsRecordSchema),
  dnssec: dnssecSchema,
  mail: mailRecordsSchema,
});
export const dkimAnswerSchema = z.object({ data: mailRecordsSchema, soa: soaSchema, message: z.string().optional() });
export const dnsZoneAnswerSchema = z.object({ data: dnsZoneSchema });
export const dnsRecordAnswerSchema = z.object({ data: dnsRecordSchema, soa: soaSchema, message: z.string().optional() });

const dnsRecordFields = {
  name: z.string().trim().min(1).max(253),
  type: z.enum(DNS_RECORD_TYPES),
  content: z.string().trim().min(1).max(DNS_CONTENT_MAX),
  ttl: z.number().int().min(DNS_TTL_MIN, { error: 'dns.ttl_range' }).max(DNS_TTL_MAX, { error: 'dns.ttl_range' }),
  priority: z.number().int().min(0, { error: 'dns.priority_range' }).max(65_535, { error: 'dns.priority_range' }).nullable(),
  disabled: z.boolean(),
};
export const dnsRecordPayloadSchema = z.object({
  ...dnsRecordFields,
  ttl: dnsRecordFields.ttl.default(DNS_TTL_DEFAULT),
  priority: dnsRecordFields.priority.optional(),
  disabled: dnsRecordFields.disabled.default(false),
});
export type DnsRecordPayload = z.infer<typeof dnsRecordPayloadSchema>;
export const dnsRecordUpdatePayloadSchema = z.object(dnsRecordFields).partial();

/** A BIND master file (the export's format) is at most this many characters. */
export const DNS_ZONE_FILE_MAX = 200_000;
/** POST /api/host/domain/{id}/dns/import: the records of a zone file added to the zone. */
export const dnsImportPayloadSchema = z.object({ zone_file: z.string().min(1).max(DNS_ZONE_FILE_MAX) });
export const dnsImportAnswerSchema = z.object({
  /** Records added; records already in the zone (or the zone's own SOA and apex NS) left out. */
  data: z.object({ added: z.number().int(), skipped: z.number().int() }),
  soa: soaSchema,
  message: z.string(),
});
export type DnsImportAnswer = z.infer<typeof dnsImportAnswerSchema>;

/* ---- customers (/system/customers) ---- */

export const customerSchema = z.object({
  id: z.number().int(),
  tenant_id: z.number().int(),
  email: z.string(),
  contact: z.object({ given_name: z.string(), sn: z.string(), phone: z.array(z.string()), display_name: z.string() }),
  language: z.string(),
  locked: z.boolean(),
  locked_at: z.string().nullable(),
  google2fa_enabled: z.boolean(),
  email_verified: z.boolean(),
  domains: z.number().int(),
  created_at: z.string(),
});
export type Customer = z.infer<typeof customerSchema>;
export const customerAnswerSchema = z.object({ data: customerSchema, message: z.string().optional() });
export const customerListAnswerSchema = pageOf(customerSchema);

export const customerListQuerySchema = pageQuerySchema.extend({
  /** Prefix of the e-mail, given name or surname. */
  q: z.string().trim().max(254).optional(),
  tenant_id: idSchema.optional(),
  locked: z.enum(['true', 'false']).optional(),
});
/** GET /api/system/customers/export.csv: the list's filters, every page. */
export const customerExportQuerySchema = customerListQuerySchema.omit({ cursor: true, limit: true });

const phoneListSchema = z
  .array(
    z
      .string()
      .trim()
      .min(3)
      .max(40)
      .regex(/^\+?[0-9 ()/.-]+$/, { error: 'validation.invalid' }),
  )
  .max(5);
const contactFields = {
  given_name: z.string().trim().min(1).max(100),
  sn: z.string().trim().min(1).max(100),
  phone: phoneListSchema.optional(),
};

export const customerCreatePayloadSchema = z.object({
  email: emailAddressSchema,
  contact: z.object(contactFields),
  /** Without a password the customer is mailed a link to choose their own (valid 7 days). */
  password: z.string().min(1).max(PASSWORD_MAX_LENGTH).optional(),
  language: z.enum(LANGUAGES).default('en'),
  /** Super admins only; a host admin's customers are in their tenant. */
  tenant_id: idSchema.optional(),
});
export type CustomerCreatePayload = z.infer<typeof customerCreatePayloadSchema>;

export const customerUpdatePayloadSchema = z.object({
  email: emailAddressSchema.optional(),
  contact: z.object(contactFields).partial().optional(),
  language: z.enum(LANGUAGES).optional(),
});

/* ---- tenants (/system/tenants, super admins) ---- */

/** A host name as a browser sends it, without port. */
const hostSchema = z
  .string()
  .trim()
  .toLowerCase()
  .max(253)
  .regex(/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/, { error: 'validation.invalid' });
const nameServerSchema = hostSchema.refine((host) => host.includes('.'), { error: 'validation.invalid' });

export const TENANT_LOGO_KINDS = ['admin_logo', 'admin_logo_footer'] as const;
export type TenantLogoKind = (typeof TENANT_LOGO_KINDS)[number];
export const tenantLogoParamsSchema = z.object({ kind: z.enum(TENANT_LOGO_KINDS) });

export const tenantDetailSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  hosts: z.array(z.string()),
  config: z.object({ admin_logo: z.string().nullable(), admin_logo_footer: z.string().nullable(), host_purchases: z.string().nullable() }),
  name_servers: z.array(z.string()),
  /** Secondary name servers that transfer the tenant's zones (NOTIFY goes to them, AXFR only from them). */
  dns_secondaries: z.array(z.string()),
  /** Where the tenant's web and mail server answers: every new zone's A/AAAA records point there. */
  hosting_ipv4: z.string().nullable(),
  hosting_ipv6: z.string().nullable(),
  default_language: z.string(),
  public_url: z.string().nullable(),
  admins: z.array(userRefSchema),
  created_at: z.string(),
});
export type TenantDetail = z.infer<typeof tenantDetailSchema>;
export const tenantDetailAnswerSchema = z.object({ data: tenantDetailSchema, message: z.string().optional() });
export const tenantListAnswerSchema = pageOf(tenantDetailSchema);

/**
 * A secondary name server: an IPv4 or IPv6 address, with a port where it is not 53
 * (`192.0.2.53`, `192.0.2.53:5300`, `2001:db8::53`, `[2001:db8::53]:5300`).
 */
export const secondaryServerSchema = z
  .string()
  .trim()
  .max(60)
  .refine(
    (value) => {
      const bracketed = /^\[([0-9a-fA-F:.]+)\](?::(\d{1,5}))?$/.exec(value);
      const v4 = /^(\d{1,3}(?:\.\d{1,3}){3})(?::(\d{1,5}))?$/.exec(value);
      const port = bracketed?.[2] ?? v4?.[2];
      if (port !== undefined && (Number(port) < 1 || Number(port) > 65535)) return false;
      if (bracketed) return z.ipv6().safeParse(bracketed[1]).success;
      if (v4) return z.ipv4().safeParse(v4[1]).success;
      return z.ipv6().safeParse(value).success;
    },
    { error: 'validation.secondaryServer' },
  );

const LOCAL_HOST = /^(localhost|127\.0\.0\.1|\[::1\])$|\.localhost$/;
/**
 * Where a selling tenant's cart is: a path on the tenant's own host ("/shop/cart") or an https
 * address (http only on this machine). Anything a browser would run or could not open is refused.
 */
export const isCartAddress = (value: string): boolean => {
  if (/^\/(?![/\\])\S*$/.test(value)) return true;
  if (!/^https?:\/\//i.test(value) || /\s/.test(value)) return false;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || (url.protocol === 'http:' && LOCAL_HOST.test(url.hostname));
  } catch {
    return false;
  }
};
export const cartAddressSchema = z.string().trim().min(1).max(500).refine(isCartAddress, { error: 'validation.cartAddress' });

const tenantFields = {
  title: z.string().trim().min(1).max(100),
  hosts: z.array(hostSchema).min(1).max(20),
  /** The external cart path (docs/product.md §2: `host_purchases`); null when the tenant sells through Berth. */
  host_purchases: cartAddressSchema.nullable(),
  name_servers: z.array(nameServerSchema).max(8),
  dns_secondaries: z.array(secondaryServerSchema).max(8),
  hosting_ipv4: z.ipv4({ error: 'validation.ipv4' }).nullable(),
  hosting_ipv6: z.ipv6({ error: 'validation.ipv6' }).nullable(),
  default_language: z.enum(LANGUAGES),
  public_url: z
    .url({ protocol: /^https?$/ })
    .max(500)
    .nullable(),
};
export const tenantCreatePayloadSchema = z.object({
  ...tenantFields,
  host_purchases: tenantFields.host_purchases.default(null),
  name_servers: tenantFields.name_servers.default([]),
  dns_secondaries: tenantFields.dns_secondaries.default([]),
  hosting_ipv4: tenantFields.hosting_ipv4.default(null),
  hosting_ipv6: tenantFields.hosting_ipv6.default(null),
  default_language: tenantFields.default_language.default('en'),
  public_url: tenantFields.public_url.default(null),
});
export const tenantUpdatePayloadSchema = z.object(tenantFields).partial();

/** POST /api/system/tenants/{id}/admins: make a user of that tenant its host admin. */
export const tenantAdminPayloadSchema = z.object({ user_id: idSchema });
export const tenantAdminParamsSchema = z.object({ id: idSchema, userId: idSchema });

/* ---- audit log (/system/audit) ---- */

export const auditEntrySchema = z.object({
  id: z.string(),
  created_at: z.string(),
  action: z.string(),
  ip: z.string().nullable(),
  tenant_id: z.number().int().nullable(),
  user: userRefSchema.nullable(),
  /** Set when an admin did this while logged in as the user. */
  impersonator: userRefSchema.nullable(),
  /** `label`: the object's current name (a person, a domain, a tenant, an invoice number), when it still exists. */
  target: z.object({ type: z.string(), id: z.string(), label: z.string().nullable().optional() }).nullable(),
  data: z.record(z.string(), z.unknown()),
});
export type AuditEntryView = z.infer<typeof auditEntrySchema>;
export const auditListAnswerSchema = pageOf(auditEntrySchema);

export const auditListQuerySchema = pageQuerySchema.extend({
  /** An action (`domain.created`) or its area (`domain.`). */
  action: z.string().trim().max(100).optional(),
  user_id: idSchema.optional(),
  target_type: z.string().trim().max(40).optional(),
  target_id: z.string().trim().max(40).optional(),
  tenant_id: idSchema.optional(),
  from: timestampInputSchema.optional(),
  to: timestampInputSchema.optional(),
});

/* ---- dashboard ---- */

/** A suspension for non-payment and what to pay to end it (auto-renewal invoices, oldest due first). */
export const billingStateSchema = z.object({
  suspended_at: z.string().nullable(),
  unpaid: z.array(z.object({ id: z.number().int(), number: z.string(), amount: z.string(), due_at: z.string(), overdue: z.boolean() })),
});
export type BillingState = z.infer<typeof billingStateSchema>;

export const dashboardSchema = z.object({
  /** Whose numbers these are: the customer's own, the host admin's tenant, or every tenant. */
  scope: z.enum(['own', 'tenant', 'all']),
  domains: z.number().int(),
  domains_expiring_30d: z.number().int(),
  domains_expired: z.number().int(),
  domain_users: z.number().int(),
  /** Admins only. */
  customers: z.number().int().nullable(),
  cart_items: z.number().int(),
  /** The user's own credit balance (minor units, and as the user reads it); null where they have none to see. */
  credit: z.object({ amount: z.number().int(), formatted: z.string() }).nullable(),
  notifications_unread: z.number().int(),
  /** The next few domains to expire (within 30 days), soonest first. */
  expiring_soon: z.array(domainListItemSchema),
  /** The viewer's own billing state (modules/billing): suspended since when, and their unpaid renewals. */
  billing: billingStateSchema,
});
export type Dashboard = z.infer<typeof dashboardSchema>;
export const dashboardAnswerSchema = z.object({ data: dashboardSchema });

/* ---- log in as customer ---- */

export const impersonatorSchema = z.object({ id: z.number().int(), email: z.string(), display_name: z.string(), role: roleSchema });
export type Impersonator = z.infer<typeof impersonatorSchema>;

/**
 * The field GET /api/user's user carries while an admin is logged in as a customer
 * (`userSchema.extend(userImpersonationFields)`): null or absent otherwise.
 */
export const userImpersonationFields = { impersonator: impersonatorSchema.nullable().optional() };

export const impersonationStatusAnswerSchema = z.object({ data: z.object({ impersonator: impersonatorSchema.nullable() }) });
/** POST /impersonate and /impersonation/stop answer the new session, as login does. */
export const impersonationAnswerSchema = z.object({ data: sessionDataSchema, message: z.string().optional() });
