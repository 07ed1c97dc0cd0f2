import type { ColumnType, Generated } from 'kysely';
import type { SpamFilter } from '@berth/contracts';

type Timestamp = ColumnType<Date, Date | string, Date | string>;
type CreatedAt = ColumnType<Date, Date | string | undefined, never>;

export interface TenantsTable {
  id: Generated<number>;
  title: string;
  admin_logo: string | null;
  admin_logo_footer: string | null;
  host_purchases: string | null;
  default_language: Generated<string>;
  public_url: string | null;
  created_at: CreatedAt;
  /** Host names of the tenant's name servers: the NS records of every new zone. */
  name_servers: ColumnType<string[], string[] | undefined, string[]>;
  /** Secondary name servers (migration 0025): NOTIFY goes to them, AXFR only from them. */
  dns_secondaries: ColumnType<string[], string[] | undefined, string[]>;
  /** Where the tenant's web and mail server answers: the A/AAAA records of every new zone (migration 0017). */
  hosting_ipv4: ColumnType<string | null, string | null | undefined, string | null>;
  hosting_ipv6: ColumnType<string | null, string | null | undefined, string | null>;
  /** A second factor required of the tenant's customers (migration 0013). */
  require_2fa_customers: Generated<boolean>;
  /** On the operator tenant: a second factor required of every host and super admin. */
  require_2fa_admins: Generated<boolean>;
}

export interface TenantHostsTable {
  host: string;
  tenant_id: number;
}

export interface UsersTable {
  id: Generated<number>;
  tenant_id: number;
  email: string;
  password_hash: string;
  role: 'super_admin' | 'host_admin' | 'customer';
  given_name: Generated<string>;
  sn: Generated<string>;
  phones: ColumnType<string[], string[] | undefined, string[]>;
  language: Generated<string>;
  google2fa_enabled: Generated<boolean>;
  notifications_viewed: ColumnType<string[], string[] | undefined, string[]>;
  email_verified_at: Timestamp | null;
  locked_at: Timestamp | null;
  /** Suspended for an unpaid renewal past its grace period (migration 0033, modules/billing). */
  suspended_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** Whether the user has a passkey (a second factor too): kept with the passkeys (migration 0015). */
  passkey_enabled: Generated<boolean>;
  created_at: CreatedAt;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
  google2fa_secret: string | null;
  google2fa_pending_secret: string | null;
  /** The last TOTP time step accepted: a code works once. */
  google2fa_last_step: Generated<number>;
  /** Billing details (migration 0016), copied onto each invoice when it is issued. */
  company: Generated<string>;
  vat_id: Generated<string>;
  street: Generated<string>;
  city: Generated<string>;
  postal_code: Generated<string>;
  /** ISO 3166-1 alpha-2, or '' when not given. */
  country: Generated<string>;
}

export interface SessionsTable {
  id_hash: string;
  user_id: number;
  tenant_id: number;
  remember: boolean;
  two_factor_pending: Generated<boolean>;
  ip: string | null;
  user_agent: string | null;
  created_at: Timestamp;
  last_seen_at: Timestamp;
  expires_at: Timestamp;
  public_id: Generated<string>;
  two_factor_started_at: Timestamp | null;
}

export interface AuditLogTable {
  id: Generated<string>;
  tenant_id: number | null;
  user_id: number | null;
  action: string;
  ip: string | null;
  data: ColumnType<Record<string, unknown>, Record<string, unknown> | undefined, never>;
  created_at: Timestamp;
  /** The object acted on, e.g. ('domain', '42'). */
  target_type: string | null;
  target_id: string | null;
  /** The admin who did this while logged in as `user_id`. */
  impersonator_id: number | null;
}

export interface DomainsTable {
  id: Generated<number>;
  tenant_id: number;
  owner_id: number;
  /** Stored in punycode (ASCII), so uniqueness holds across IDN spellings. */
  name: string;
  expire_at: Timestamp | null;
  created_at: CreatedAt;
  notes: Generated<string>;
  settings: ColumnType<Record<string, unknown>, Record<string, unknown> | undefined, Record<string, unknown>>;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
  /** What the TXT record that proves a customer holds the name must carry; null once proven (or never asked). */
  verification_token: ColumnType<string | null, string | null | undefined, string | null>;
  /** The web server the site is placed on (migration 0030): the least loaded one unless named. */
  web_server_id: ColumnType<number | null, number | null | undefined, number | null>;
  /** Set anew by a trigger whenever something a web server renders changes (migration 0030). */
  web_revision: ColumnType<string, never, never>;
  /** Renewed by the billing run before it expires unless its owner switched it off (migration 0033). */
  auto_renew: Generated<boolean>;
  /** Set when it expired and was not renewed within the grace period: no longer served (migration 0033). */
  lapsed_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

/** The hosts Berth places work on (migration 0030). */
export interface ServersTable {
  id: Generated<number>;
  name: string;
  address: Generated<string>;
  roles: ColumnType<string[], string[] | undefined, string[]>;
  /** The database role its agent logs in as (daemons/web.ts). */
  agent_role: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: CreatedAt;
}

/** What a web server's agent applied (migration 0030; the agent writes it, the panel reads it). */
export interface WebSiteStatusTable {
  site_id: number;
  server_id: number;
  revision: string;
  state: 'live' | 'error';
  error: string;
  note: string;
  applied_at: Timestamp;
  disk_bytes: string | number | null;
  disk_measured_at: Timestamp | null;
}

/** What a web server reports of itself (migration 0031; its agent writes it). */
export interface WebServerStatusTable {
  server_id: number;
  php_versions: string[];
  reported_at: Timestamp;
}

/** The last lines of a site's logs, newest first (migration 0030; the agent writes them). */
export interface WebSiteLogsTable {
  site_id: number;
  server_id: number;
  access: string[];
  error: string[];
  updated_at: Timestamp;
}

export interface DnsZonesTable {
  domain_id: number;
  tenant_id: number;
  serial: number;
  updated_at: Timestamp;
  /** The domain's name and the SOA text PowerDNS serves, kept by triggers (migration 0012). */
  name: Generated<string>;
  soa_content: Generated<string>;
  /** Whether PowerDNS serves it: its domain is proven (migration 0028, kept by triggers). */
  served: Generated<boolean>;
}

export interface DnsRecordsTable {
  id: Generated<number>;
  tenant_id: number;
  domain_id: number;
  /** Relative to the zone; `@` is the apex. */
  name: string;
  type: 'A' | 'AAAA' | 'CNAME' | 'MX' | 'TXT' | 'SRV' | 'CAA' | 'NS';
  content: string;
  ttl: number;
  priority: number | null;
  /** Kept on the page, not served. */
  disabled: Generated<boolean>;
  /** What PowerDNS reads, kept by a trigger (migration 0012): the absolute name, TXT quoted, the order name. */
  fqdn: Generated<string>;
  served_content: Generated<string>;
  ordername: Generated<string>;
  /** Whether PowerDNS serves it: its domain is proven (migration 0028, kept by triggers). */
  served: Generated<boolean>;
  /** False at and below a delegation (migration 0029, kept by triggers). */
  auth: Generated<boolean>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** PowerDNS's DNSSEC keys (schema pdns, migration 0009): its format, read by the name servers. */
export interface PdnsCryptoKeysTable {
  id: Generated<number>;
  domain_id: number;
  flags: number;
  active: boolean;
  published: boolean;
  content: string;
}

export interface NotificationsTable {
  id: Generated<number>;
  tenant_id: number | null;
  user_id: number;
  type: 'error' | 'notice' | 'warning' | 'info';
  text: string;
  read_at: Timestamp | null;
  created_at: Timestamp;
}

export interface DomainExpiryRemindersTable {
  domain_id: number;
  days_before: number;
  expire_at: Timestamp;
  sent_at: Timestamp;
}

export interface SubscriptionExpiryRemindersTable {
  subscription_id: number;
  days_before: number;
  expires_at: Timestamp;
  sent_at: Timestamp;
}

/** 0035_certificates: the platform's ACME account per CA directory, its key sealed. */
export interface AcmeAccountsTable {
  directory_url: string;
  key_sealed: string;
  account_url: string;
  created_at: Timestamp;
}

/** 0035_certificates: a domain's certificate (the domain and its wildcard), its key sealed. */
/** The panel's own certificate, one row (migration 0049): a domain's columns without the domain's. */
export type PlatformCertificatesTable = Omit<
  CertificatesTable,
  'domain_id' | 'tenant_id' | 'method' | 'warned_for' | 'aliases' | 'renewal_info_at'
> & {
  id: Generated<number>;
  method: 'dns-01' | 'http-01' | null;
};

/** HTTP-01 answers for the panel's own names, handed out by every web server (migration 0049). */
export interface AcmePlatformChallengesTable {
  id: Generated<number>;
  name: string;
  token: string;
  key_authorization: string;
  created_at: Timestamp;
}

export interface CertificatesTable {
  domain_id: number;
  tenant_id: number;
  names: Generated<string[]>;
  method: 'dns-01' | 'http-01' | 'custom' | null;
  state: Generated<'pending' | 'valid' | 'failed'>;
  issuer: string | null;
  serial: string | null;
  not_before: Timestamp | null;
  not_after: Timestamp | null;
  cert_pem: string | null;
  key_sealed: string | null;
  /** The CA's last problem, in its words; null once an order succeeds. */
  problem: string | null;
  /** Failed orders since the last success (the backoff's step). */
  attempts: Generated<number>;
  /** Not before then: a failed order's backoff, or an order under way. */
  next_try_at: Timestamp | null;
  renew_at: Timestamp | null;
  /** The end date its owner was warned of (14 days left and renewal failing). */
  warned_for: Timestamp | null;
  /** The site's aliases (sorted) the last order considered (migration 0048). */
  aliases: Generated<string[]>;
  /** When the CA's renewal information is asked next; null: at the next pass (migration 0048). */
  renewal_info_at: Timestamp | null;
  updated_at: Timestamp;
}

export interface AcmeOrdersTable {
  id: Generated<number>;
  domain_id: number | null;
  names: string[];
  started_at: Timestamp;
  outcome: 'valid' | 'failed' | null;
}

export interface AcmeDnsChallengesTable {
  id: Generated<number>;
  domain_id: number;
  name: string;
  token: string;
  created_at: Timestamp;
}

export interface DunningNoticesTable {
  invoice_id: number;
  step: number;
  sent_at: Timestamp;
}

export interface SessionImpersonationsTable {
  session_id_hash: string;
  impersonator_id: number;
  impersonator_remember: boolean;
  started_at: Timestamp;
}

export interface RecoveryCodesTable {
  id: Generated<number>;
  user_id: number;
  code_hash: string;
  used_at: Timestamp | null;
}

export interface PasswordResetsTable {
  uniq_id: string;
  user_id: number;
  token_hash: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: Timestamp | null;
}

export interface OtpLoginsTable {
  uniq_id: string;
  tenant_id: number;
  /** Null for an unknown e-mail: the answer looks the same, but nothing can log in with it. */
  user_id: number | null;
  code_hash: string | null;
  attempts: Generated<number>;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: Timestamp | null;
}

export interface EmailVerificationsTable {
  code_hash: string;
  user_id: number;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: Timestamp | null;
}

export interface RegistrationsTable {
  id: Generated<number>;
  tenant_id: number;
  email: string;
  password_hash: string;
  given_name: string;
  sn: string;
  language: string;
  code_hash: string;
  created_at: Timestamp;
  expires_at: Timestamp;
}

export interface ThrottleHitsTable {
  id: Generated<number>;
  key: string;
  hit_at: Timestamp;
}

export interface OutboxTable {
  id: Generated<number>;
  tenant_id: number | null;
  recipient: string;
  subject: string;
  text_body: string;
  html_body: string;
  created_at: Timestamp;
}

/** A tenant's webhook endpoint (migration 0032). */
export interface WebhookEndpointsTable {
  id: Generated<number>;
  tenant_id: number;
  url: string;
  description: Generated<string>;
  events: string[];
  enabled: Generated<boolean>;
  secret_sealed: string;
  previous_secret_sealed: string | null;
  previous_secret_until: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** One delivery attempt of an event to an endpoint (migration 0032). */
export interface WebhookDeliveriesTable {
  id: Generated<number>;
  endpoint_id: number;
  event_id: string;
  event_type: string;
  payload: unknown;
  attempt: number;
  status: 'delivered' | 'failed';
  response_code: number | null;
  response_excerpt: string | null;
  error: string | null;
  created_at: Timestamp;
}

/** A daemon's login role and the password it keeps (migration 0022, daemons/queries.ts). */
export interface DaemonRolesTable {
  role: string;
  password: string;
  created_at: CreatedAt;
}

export interface DomainUsersTable {
  id: Generated<number>;
  tenant_id: number;
  domain_id: number;
  /** The mailbox/FTP login, e.g. info@example.com. */
  uid: string;
  password_hash: string;
  quota_mb: Generated<number>;
  enabled: Generated<boolean>;
  /** off, normal, strict (migration 0042_spam_filter). */
  spam_filter: ColumnType<SpamFilter, SpamFilter | undefined, SpamFilter>;
  created_at: CreatedAt;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** A forwarder: mail for local_part@<domain> goes on to destination (migration 0010). */
export interface MailAliasesTable {
  id: Generated<number>;
  tenant_id: number;
  domain_id: number;
  local_part: string;
  destination: string;
  created_at: CreatedAt;
}

/** A mailbox's autoresponder and the Sieve script Dovecot runs for it (migration 0020). */
export interface MailAutorepliesTable {
  domain_user_id: number;
  enabled: boolean;
  subject: string;
  body: string;
  interval_days: number;
  /** Dates (YYYY-MM-DD) in the mail server's time zone; null: from now / open-ended. */
  starts_on: ColumnType<string | null, string | null, string | null>;
  ends_on: ColumnType<string | null, string | null, string | null>;
  script: string;
  revision: Generated<number>;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** A mail domain's DKIM key pair (migration 0011); the private key sealed by the secret box. */
export interface DkimKeysTable {
  domain_id: number;
  selector: string;
  /** Base64 of the DER SubjectPublicKeyInfo, as the TXT record's `p=` carries it. */
  public_key: string;
  private_key: string;
  created_at: Timestamp;
  /** A rotation under way (migration 0041): the key published beside it, signing from next_signs_at. */
  next_selector: ColumnType<string | null, string | null | undefined, string | null>;
  next_public_key: ColumnType<string | null, string | null | undefined, string | null>;
  next_private_key: ColumnType<string | null, string | null | undefined, string | null>;
  next_signs_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** The key signed with before, still published until old_removed_at. */
  old_selector: ColumnType<string | null, string | null | undefined, string | null>;
  old_removed_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

/** Personal API tokens (migration 0014): only the SHA-256 of the token is kept. */
export interface ApiTokensTable {
  id: Generated<number>;
  tenant_id: number;
  user_id: number;
  name: string;
  token_hash: string;
  prefix: string;
  scopes: ColumnType<string[], string, string>;
  allowed_ips: ColumnType<string[], string | undefined, string>;
  expires_at: Timestamp | null;
  last_used_at: Timestamp | null;
  last_used_ip: string | null;
  created_at: Timestamp;
  revoked_at: Timestamp | null;
}

/** Passkeys (migration 0015): WebAuthn credentials; the public key base64url-encoded. */
export interface PasskeysTable {
  id: Generated<number>;
  tenant_id: number;
  user_id: number;
  credential_id: string;
  public_key: string;
  counter: ColumnType<number, number | undefined, number>;
  transports: ColumnType<string[], string | undefined, string>;
  device_type: string;
  backed_up: boolean;
  name: string;
  created_at: Timestamp;
  last_used_at: Timestamp | null;
}

/** WebAuthn challenges: each is used once, within minutes. */
export interface WebauthnChallengesTable {
  id: string;
  tenant_id: number;
  user_id: number | null;
  purpose: 'register' | 'login';
  challenge: string;
  expires_at: Timestamp;
}

export interface CaptchaUsesTable {
  signature: string;
  expires_at: Timestamp;
}

export interface AppSecretsTable {
  name: string;
  value: string;
}

export interface UserAvatarsTable {
  user_id: number;
  image: Buffer;
  updated_at: Timestamp;
}

export interface TenantLogosTable {
  tenant_id: number;
  kind: 'admin_logo' | 'admin_logo_footer';
  image: Buffer;
  content_type: string;
  updated_at: Timestamp;
}

export interface CartItemsTable {
  id: Generated<number>;
  tenant_id: number;
  user_id: number;
  product_type: string;
  title: string;
  domain_name: string | null;
  period_months: Generated<number>;
  /** Money in integer minor units (cents) with its currency. */
  price_minor: number;
  currency: Generated<string>;
  created_at: CreatedAt;
  /** 0005_shop: what the row buys (hosting plan, renewed domain, domain TLD). */
  plan_id: number | null;
  domain_id: number | null;
  tld: string | null;
  /** The hosting plan this row renews (0034_plan_renewal); null buys a new one. */
  subscription_id: Generated<number | null>;
}

/* ---- the shop (0005_shop): money in bigint minor units, rates in basis points ---- */

type Money = ColumnType<number, number | bigint, number | bigint>;
type JsonList<T> = ColumnType<T[], T[] | undefined, T[]>;

export interface ShopSettingsTable {
  tenant_id: number;
  currency: Generated<string>;
  vat_rate_bp: Generated<number>;
  commission_rate_bp: Generated<number>;
  top_up_min: ColumnType<number, number | undefined, number>;
  top_up_max: ColumnType<number, number | undefined, number>;
  /** How many days before the end a domain or plan is renewed (migration 0033). */
  renew_days_before: Generated<number>;
  /** How many days past its due date an unpaid renewal is tolerated before suspension. */
  grace_days: Generated<number>;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface HostingPlansTable {
  id: Generated<number>;
  tenant_id: number;
  title: string;
  description: Generated<string>;
  monthly_price: Money;
  yearly_price: Money;
  active: Generated<boolean>;
  created_at: CreatedAt;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
  /** What the plan includes; null is unlimited (migration 0018). */
  max_domains: ColumnType<number | null, number | null | undefined, number | null>;
  max_mailboxes: ColumnType<number | null, number | null | undefined, number | null>;
  disk_gb: ColumnType<number | null, number | null | undefined, number | null>;
  /** The customer's PHP pool: workers and memory per request; null is the web server's default (migration 0031). */
  php_workers: ColumnType<number | null, number | null | undefined, number | null>;
  php_memory_mb: ColumnType<number | null, number | null | undefined, number | null>;
  /** Messages each mailbox may send per hour; null is MAIL_SEND_PER_HOUR_DEFAULT (migration 0040). */
  mail_per_hour: ColumnType<number | null, number | null | undefined, number | null>;
}

/** Each mailbox's count of sent messages in its current hour (migration 0040, mail.count_send). */
/** What a mailbox received and sent (migration 0043_mail_log; written by the mail agent). */
export interface MailLogTable {
  id: Generated<string>;
  domain_user_id: number;
  direction: 'in' | 'out';
  queue_id: string;
  peer: string;
  status: 'delivered' | 'deferred' | 'bounced';
  detail: string;
  at: Timestamp;
}

/** A domain's hourly sending window (migration 0044_mail_domain_limits). */
export interface MailDomainSendWindowsTable {
  domain_id: number;
  window_start: Timestamp;
  sent: number;
  over_at: Timestamp | null;
  over_limit: number | null;
  told_at: Timestamp | null;
}

export interface MailSendWindowsTable {
  domain_user_id: number;
  window_start: Timestamp;
  sent: number;
  /** When it first went over its limit in this window, and that limit. */
  over_at: Timestamp | null;
  over_limit: number | null;
  /** The over_at the owner and the tenant's admins were told of (once per window). */
  told_at: Timestamp | null;
}

export interface TldPricesTable {
  id: Generated<number>;
  tenant_id: number;
  tld: string;
  register_price: Money;
  renew_price: Money;
  transfer_price: Money;
  active: Generated<boolean>;
  created_at: CreatedAt;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface PromoCodesTable {
  id: Generated<number>;
  tenant_id: number;
  code: string;
  kind: 'percent' | 'fixed';
  value: Money;
  valid_from: Timestamp | null;
  valid_until: Timestamp | null;
  max_uses: number | null;
  uses: Generated<number>;
  once_per_customer: Generated<boolean>;
  kinds: JsonList<string>;
  plan_ids: JsonList<number>;
  tlds: JsonList<string>;
  active: Generated<boolean>;
  created_at: CreatedAt;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface CartPromosTable {
  user_id: number;
  promo_id: number;
  applied_at: Timestamp;
}

export interface OrdersTable {
  id: Generated<number>;
  tenant_id: number;
  user_id: number;
  status: 'pending' | 'paid' | 'cancelled';
  currency: string;
  vat_rate_bp: number;
  subtotal: Money;
  discount: Money;
  net: Money;
  vat: Money;
  gross: Money;
  promo_id: number | null;
  promo_code: string | null;
  idempotency_key: string;
  created_at: Timestamp;
  paid_at: Timestamp | null;
}

export interface OrderItemsTable {
  id: Generated<number>;
  order_id: number;
  kind: 'hosting' | 'domain_register' | 'domain_renew' | 'domain_transfer';
  title: string;
  plan_id: number | null;
  domain_name: string | null;
  domain_id: number | null;
  period_months: number;
  net: Money;
  discount: Money;
  provisioned_at: Timestamp | null;
  /** The hosting plan this line renews (0034_plan_renewal); null delivers a new one. */
  subscription_id: Generated<number | null>;
}

export interface PromoRedemptionsTable {
  id: Generated<number>;
  promo_id: number;
  user_id: number;
  order_id: number;
  once_key: number | null;
  created_at: Timestamp;
}

export interface InvoiceCountersTable {
  tenant_id: number;
  year: number;
  last_number: number;
}

export interface InvoicesTable {
  id: Generated<number>;
  tenant_id: number;
  user_id: number;
  number: string;
  kind: 'order' | 'credit';
  order_id: number | null;
  status: 'unpaid' | 'paid' | 'cancelled';
  currency: string;
  vat_rate_bp: number;
  subtotal: Money;
  discount: Money;
  net: Money;
  vat: Money;
  gross: Money;
  promo_code: string | null;
  payment_provider: 'credit' | 'bank_transfer' | 'stripe';
  payment_reference: string;
  instructions: ColumnType<Record<string, unknown> | null, Record<string, unknown> | null | undefined, Record<string, unknown> | null>;
  issued_at: Timestamp;
  paid_at: Timestamp | null;
  /** The buyer's name and billing details when the invoice was issued (migration 0016). */
  buyer_details: ColumnType<BuyerDetails | null, BuyerDetails | null | undefined, BuyerDetails | null>;
  /** When a renewal's invoice must be paid; such invoices are dunned (migration 0033). */
  due_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** The seller's legal details when the invoice was issued (migration 0036); null before them. */
  seller_details: ColumnType<SellerDetails | null, SellerDetails | null | undefined, SellerDetails | null>;
}

export interface BuyerDetails {
  name: string;
  email: string;
  company: string;
  vat_id: string;
  street: string;
  city: string;
  postal_code: string;
  country: string;
}

export interface InvoiceLinesTable {
  id: Generated<number>;
  invoice_id: number;
  kind: string;
  title: string;
  period_months: number | null;
  net: Money;
  discount: Money;
}

export interface PaymentsTable {
  id: Generated<number>;
  tenant_id: number;
  invoice_id: number;
  provider: string;
  reference: string;
  amount: Money;
  actor_id: number | null;
  created_at: Timestamp;
}

export interface CreditAccountsTable {
  user_id: number;
  tenant_id: number;
  balance: ColumnType<number, number | bigint | undefined, number | bigint>;
  currency: string;
  updated_at: Timestamp;
}

export interface CreditLedgerTable {
  id: Generated<number>;
  tenant_id: number;
  user_id: number;
  amount: Money;
  currency: string;
  type: 'top_up' | 'purchase' | 'commission' | 'manual' | 'refund';
  description: string;
  reference: string;
  invoice_id: number | null;
  actor_id: number | null;
  created_at: Timestamp;
}

export interface HostingSubscriptionsTable {
  id: Generated<number>;
  tenant_id: number;
  user_id: number;
  plan_id: number | null;
  title: string;
  order_item_id: number | null;
  starts_at: Timestamp;
  expires_at: Timestamp;
  auto_renew: Generated<boolean>;
}

export interface TenantBankAccountsTable {
  tenant_id: number;
  account_name: string;
  iban: string;
  bic: string | null;
  updated_at: Timestamp;
}

export interface PaymentMethodsTable {
  id: Generated<number>;
  tenant_id: number;
  user_id: number;
  kind: 'bank_transfer' | 'card';
  is_default: Generated<boolean>;
  account_name: string | null;
  iban: string | null;
  bic: string | null;
  stripe_payment_method_id: string | null;
  card_brand: string | null;
  card_last4: string | null;
  card_exp_month: number | null;
  card_exp_year: number | null;
  /** The Stripe Customer the card is attached to, so it can be charged later (migration 0036). */
  stripe_customer_id: string | null;
  created_at: Timestamp;
}

/** 0036: the Stripe Customer a user's cards are attached to. */
export interface StripeCustomersTable {
  user_id: number;
  customer_id: string;
}

/** 0036: an attempt to charge a saved card for an unpaid invoice, one per dunning step. */
export interface CardChargesTable {
  id: Generated<number>;
  invoice_id: number;
  step: number;
  payment_method_id: number | null;
  status: 'pending' | 'succeeded' | 'failed';
  reference: string | null;
  problem: string | null;
  created_at: Timestamp;
  told_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

/** 0038: an HTTP-01 answer the site's web server hands out (modules/certificates). */
export interface AcmeHttpChallengesTable {
  id: Generated<number>;
  domain_id: number;
  token: string;
  key_authorization: string;
  created_at: Timestamp;
}

/** 0037: a certificate to revoke because its domain was deleted (modules/certificates). */
export interface CertificateRevocationsTable {
  id: Generated<number>;
  serial: string;
  names: string[];
  cert_pem: string;
  created_at: Generated<Date>;
  next_try_at: Generated<Date>;
  attempts: Generated<number>;
  problem: string | null;
  revoked_at: Date | null;
}

/** 0036: a private range the super admin lets webhooks reach. */
export interface WebhookAllowedRangesTable {
  range: string;
  created_at: Timestamp;
}

/** 0036: the seller's legal details an EN 16931 invoice carries; copied onto each invoice. */
export interface SellerDetails {
  legal_name: string;
  street: string;
  city: string;
  postal_code: string;
  /** ISO 3166-1 alpha-2. */
  country: string;
  vat_id: string;
  /** The seller's contact (BT-42, BT-43): XRechnung requires both. */
  email: string;
  phone: string;
}

export interface TenantSellerDetailsTable extends SellerDetails {
  tenant_id: number;
  updated_at: Timestamp;
}

export interface StripeEventsTable {
  id: string;
  type: string;
  tenant_id: number | null;
  invoice_id: number | null;
  outcome: string;
  received_at: Timestamp;
}

export interface Database {
  tenant_bank_accounts: TenantBankAccountsTable;
  tenant_seller_details: TenantSellerDetailsTable;
  stripe_customers: StripeCustomersTable;
  card_charges: CardChargesTable;
  webhook_allowed_ranges: WebhookAllowedRangesTable;
  certificate_revocations: CertificateRevocationsTable;
  acme_http_challenges: AcmeHttpChallengesTable;
  payment_methods: PaymentMethodsTable;
  stripe_events: StripeEventsTable;
  shop_settings: ShopSettingsTable;
  hosting_plans: HostingPlansTable;
  tld_prices: TldPricesTable;
  promo_codes: PromoCodesTable;
  cart_promos: CartPromosTable;
  orders: OrdersTable;
  order_items: OrderItemsTable;
  promo_redemptions: PromoRedemptionsTable;
  invoice_counters: InvoiceCountersTable;
  invoices: InvoicesTable;
  invoice_lines: InvoiceLinesTable;
  payments: PaymentsTable;
  credit_accounts: CreditAccountsTable;
  credit_ledger: CreditLedgerTable;
  hosting_subscriptions: HostingSubscriptionsTable;
  dns_zones: DnsZonesTable;
  dns_records: DnsRecordsTable;
  'pdns.cryptokeys': PdnsCryptoKeysTable;
  notifications: NotificationsTable;
  domain_expiry_reminders: DomainExpiryRemindersTable;
  dunning_notices: DunningNoticesTable;
  subscription_expiry_reminders: SubscriptionExpiryRemindersTable;
  acme_accounts: AcmeAccountsTable;
  certificates: CertificatesTable;
  platform_certificates: PlatformCertificatesTable;
  acme_platform_challenges: AcmePlatformChallengesTable;
  acme_orders: AcmeOrdersTable;
  acme_dns_challenges: AcmeDnsChallengesTable;
  session_impersonations: SessionImpersonationsTable;
  cart_items: CartItemsTable;
  user_avatars: UserAvatarsTable;
  tenant_logos: TenantLogosTable;
  captcha_uses: CaptchaUsesTable;
  app_secrets: AppSecretsTable;
  recovery_codes: RecoveryCodesTable;
  password_resets: PasswordResetsTable;
  otp_logins: OtpLoginsTable;
  email_verifications: EmailVerificationsTable;
  registrations: RegistrationsTable;
  throttle_hits: ThrottleHitsTable;
  outbox: OutboxTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  domain_users: DomainUsersTable;
  daemon_roles: DaemonRolesTable;
  servers: ServersTable;
  'web.site_status': WebSiteStatusTable;
  'web.site_logs': WebSiteLogsTable;
  'web.server_status': WebServerStatusTable;
  mail_aliases: MailAliasesTable;
  mail_autoreplies: MailAutorepliesTable;
  dkim_keys: DkimKeysTable;
  mail_send_windows: MailSendWindowsTable;
  mail_log: MailLogTable;
  mail_domain_send_windows: MailDomainSendWindowsTable;
  api_tokens: ApiTokensTable;
  passkeys: PasskeysTable;
  webauthn_challenges: WebauthnChallengesTable;
  domains: DomainsTable;
  tenants: TenantsTable;
  tenant_hosts: TenantHostsTable;
  users: UsersTable;
  sessions: SessionsTable;
  audit_log: AuditLogTable;
}
