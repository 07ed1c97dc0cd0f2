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
}

export interface AuditLogTable {
  id: Generated<string>;
  tenant_id: number | null;
  user_id: number | null;
  action: string;
  ip: string | null;
  data: ColumnType<Record<string, unknown>, Record<string, unknown> | undefined, never>;
  created_at: Timestamp;
}

export interface DomainsTable {
  id: Generated<number>;
  tenant_id: number;
  owner_id: number;
  /** Stored in punycode (ASCII), so uniqueness holds across IDN spellings. */
  name: string;
  expire_at: Timestamp | null;
  created_at: CreatedAt;
}

export interface Database {
  domains: DomainsTable;
  tenants: TenantsTable;
  tenant_hosts: TenantHostsTable;
  users: UsersTable;
  sessions: SessionsTable;
  audit_log: AuditLogTable;
}
