import type { ColumnType, Generated } from 'kysely';

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
  created_at: CreatedAt;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
  google2fa_secret: string | null;
  google2fa_pending_secret: string | null;
  /** The last TOTP time step accepted: a code works once. */
  google2fa_last_step: Generated<number>;
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
}

export interface DnsZonesTable {
  domain_id: number;
  tenant_id: number;
  serial: number;
  updated_at: Timestamp;
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
  created_at: Timestamp;
  updated_at: Timestamp;
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

export interface ThrottleHitsTable {
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

export interface DomainUsersTable {
  id: Generated<number>;
  tenant_id: number;
  domain_id: number;
  /** The mailbox/FTP login, e.g. info@example.com. */
  uid: string;
  password_hash: string;
  quota_mb: Generated<number>;
  enabled: Generated<boolean>;
  created_at: CreatedAt;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
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
}

export interface Database {
  dns_zones: DnsZonesTable;
  dns_records: DnsRecordsTable;
  notifications: NotificationsTable;
  domain_expiry_reminders: DomainExpiryRemindersTable;
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
  throttle_hits: ThrottleHitsTable;
  outbox: OutboxTable;
  domain_users: DomainUsersTable;
  domains: DomainsTable;
  tenants: TenantsTable;
  tenant_hosts: TenantHostsTable;
  users: UsersTable;
  sessions: SessionsTable;
  audit_log: AuditLogTable;
}
