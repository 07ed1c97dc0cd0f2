import { BlockList, isIP } from 'node:net';
import { ADMIN_TOKEN_AREAS, API_TOKENS_PER_USER_MAX, type ApiToken, type ApiTokenCreatePayload } from '@berth/contracts';
import type { Db } from '../../db/connection.ts';
import { fieldError, HttpError } from '../../http/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { randomToken, sha256 } from '../../lib/tokens.ts';
import type { Actor, AuditService } from '../audit/service.ts';
import type { ActiveSession } from '../sessions/service.ts';
import { assertAdmin, displayNameOf, iso, isoOrNull } from '../tenants/scope.ts';
import type { UserRow } from '../users/queries.ts';
import {
  countActiveTokens,
  findTokenByHash,
  findTokenWithOwner,
  insertToken,
  listTenantTokens,
  listUserTokens,
  lockUser,
  revokeToken,
  touchToken,
  type ApiTokenRow,
} from './queries.ts';

/** Every token starts so, which lets secret scanners and people recognise one. */
export const TOKEN_PREFIX = 'berth_';
const SHOWN_PREFIX_LENGTH = TOKEN_PREFIX.length + 6;
/** How often a token's last use is written (touchToken checks it again under concurrency). */
const TOUCH_EVERY_MS = 60_000;

const present = (row: ApiTokenRow): ApiToken => ({
  id: row.id,
  name: row.name,
  prefix: row.prefix,
  scopes: row.scopes,
  allowed_ips: row.allowed_ips,
  expires_at: isoOrNull(row.expires_at),
  last_used_at: isoOrNull(row.last_used_at),
  last_used_ip: row.last_used_ip,
  created_at: iso(row.created_at),
  owner: {
    id: row.user_id,
    email: row.owner_email,
    display_name: displayNameOf({ email: row.owner_email, given_name: row.owner_given_name, sn: row.owner_sn }),
  },
});

/** `192.0.2.0/24`, `2001:db8::/32` or one address; answers the block in canonical form, or undefined. */
export function parseCidr(text: string): { address: string; prefix: number; type: 'ipv4' | 'ipv6'; canonical: string } | undefined {
  const [address = '', bits, ...rest] = text.trim().split('/');
  const version = isIP(address);
  if (!version || rest.length) return undefined;
  const max = version === 4 ? 32 : 128;
  if (bits !== undefined && !/^\d{1,3}$/.test(bits)) return undefined;
  const prefix = bits === undefined ? max : Number(bits);
  if (prefix > max) return undefined;
  return { address, prefix, type: version === 4 ? 'ipv4' : 'ipv6', canonical: `${address.toLowerCase()}/${prefix}` };
}

/** Whether `ip` (as Fastify reports it, IPv4 possibly mapped into IPv6) lies in one of the blocks. */
export function ipAllowed(ip: string, blocks: readonly string[]): boolean {
  if (blocks.length === 0) return true;
  const plain = /^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(ip) ? ip.slice(7) : ip;
  const version = isIP(plain);
  if (!version) return false;
  const list = new BlockList();
  for (const block of blocks) {
    const parsed = parseCidr(block);
    if (parsed) list.addSubnet(parsed.address, parsed.prefix, parsed.type);
  }
  return list.check(plain, version === 4 ? 'ipv4' : 'ipv6');
}

/** An authenticated request by token: the token's user, and what the token may reach. */
export interface TokenAuth {
  id: number;
  scopes: string[];
}

/**
 * Personal API tokens: made by a signed-in user for themselves (never by a token), shown once,
 * kept as a hash; checked on each request for expiry, revocation, the tenant of the host and the
 * caller's address. Admins list and revoke their tenant's tokens.
 */
export class ApiTokenService {
  private readonly deps: { db: Db; clock: Clock; audit: AuditService };

  constructor(deps: ApiTokenService['deps']) {
    this.deps = deps;
  }

  async list(user: UserRow): Promise<ApiToken[]> {
    return (await listUserTokens(this.deps.db, user.id)).map(present);
  }

  async create(actor: Actor, input: ApiTokenCreatePayload): Promise<ApiToken & { token: string }> {
    const { db, clock } = this.deps;
    const user = actor.user;
    if (user.role === 'customer' && input.scopes.some((scope) => ADMIN_TOKEN_AREAS.some((area) => scope.startsWith(`${area}:`)))) {
      throw fieldError('scopes', 'api_tokens.admin_scope');
    }
    const now = clock.now();
    const expiresAt = input.expires_at ? new Date(input.expires_at) : null;
    if (expiresAt && expiresAt.getTime() <= now.getTime()) throw fieldError('expires_at', 'api_tokens.expiry_past');
    const blocks: string[] = [];
    const problems: Record<string, { key: 'api_tokens.invalid_cidr' }[]> = {};
    for (const [index, text] of (input.allowed_ips ?? []).entries()) {
      const parsed = parseCidr(text);
      if (parsed) blocks.push(parsed.canonical);
      else problems[`allowed_ips.${index}`] = [{ key: 'api_tokens.invalid_cidr' }];
    }
    if (Object.keys(problems).length) throw new HttpError(422, 'validation.failed', { fields: problems });

    const token = `${TOKEN_PREFIX}${randomToken(32)}`;
    const id = await db.transaction().execute(async (trx) => {
      await lockUser(trx, user.id);
      if ((await countActiveTokens(trx, user.id)) >= API_TOKENS_PER_USER_MAX) {
        throw new HttpError(422, 'api_tokens.too_many', { params: { max: API_TOKENS_PER_USER_MAX } });
      }
      return (
        await insertToken(trx, {
          tenant_id: user.tenant_id,
          user_id: user.id,
          name: input.name,
          token_hash: sha256(token),
          prefix: token.slice(0, SHOWN_PREFIX_LENGTH),
          scopes: JSON.stringify([...new Set(input.scopes)]),
          allowed_ips: JSON.stringify([...new Set(blocks)]),
          expires_at: expiresAt,
          created_at: now,
        })
      ).id;
    });
    await this.deps.audit.recordAction(
      actor,
      'api_token.created',
      user.tenant_id,
      { type: 'api_token', id },
      {
        name: input.name,
        scopes: input.scopes.join(','),
      },
    );
    const row = await findTokenWithOwner(db, id);
    if (!row) throw new HttpError(404, 'http.not_found');
    return { ...present(row), token };
  }

  /** Revokes one of the user's own tokens; from the next request on it is refused. */
  async revoke(actor: Actor, id: number): Promise<void> {
    const row = await findTokenWithOwner(this.deps.db, id);
    if (!row || row.user_id !== actor.user.id || row.revoked_at) throw new HttpError(404, 'http.not_found');
    await this.revokeRow(actor, row);
  }

  /** The tenant's tokens, for its admins (super admins: the tenant of the host they are on). */
  async listForTenant(actor: Actor, tenantId: number): Promise<ApiToken[]> {
    assertAdmin(actor.user);
    return (await listTenantTokens(this.deps.db, this.tenantOf(actor.user, tenantId))).map(present);
  }

  async revokeForTenant(actor: Actor, tenantId: number, id: number): Promise<void> {
    assertAdmin(actor.user);
    const row = await findTokenWithOwner(this.deps.db, id);
    if (!row || row.tenant_id !== this.tenantOf(actor.user, tenantId) || row.revoked_at) throw new HttpError(404, 'http.not_found');
    await this.revokeRow(actor, row);
  }

  private tenantOf(user: UserRow, requestTenantId: number): number {
    return user.role === 'super_admin' ? requestTenantId : user.tenant_id;
  }

  private async revokeRow(actor: Actor, row: ApiTokenRow): Promise<void> {
    if (!(await revokeToken(this.deps.db, row.id, this.deps.clock.now()))) throw new HttpError(404, 'http.not_found');
    await this.deps.audit.recordAction(
      actor,
      'api_token.revoked',
      row.tenant_id,
      { type: 'api_token', id: row.id },
      {
        name: row.name,
        owner_id: row.user_id,
      },
    );
  }

  /**
   * The user a bearer token acts for on a host of `tenantId`, or undefined: unknown, revoked,
   * expired, another tenant's, used from an address it does not allow, or of a locked user.
   */
  async authenticate(token: string, tenantId: number, ip: string): Promise<(ActiveSession & { token: TokenAuth }) | undefined> {
    if (!token.startsWith(TOKEN_PREFIX)) return undefined;
    const row = await findTokenByHash(this.deps.db, sha256(token));
    const now = this.deps.clock.now();
    if (!row || row.token_revoked_at || row.locked_at) return undefined;
    if (row.token_expires_at && new Date(row.token_expires_at).getTime() <= now.getTime()) return undefined;
    if (row.token_tenant_id !== tenantId || !ipAllowed(ip, row.token_allowed_ips)) return undefined;
    const {
      token_id,
      token_tenant_id,
      token_scopes,
      token_allowed_ips: _ips,
      token_expires_at,
      token_revoked_at: _revoked,
      token_last_used_at,
      credit_balance,
      credit_currency,
      avatar_user_id,
      ...user
    } = row;
    // Last use is kept to the minute: most requests of a busy script write nothing.
    if (!token_last_used_at || now.getTime() - new Date(token_last_used_at).getTime() >= TOUCH_EVERY_MS) {
      await touchToken(this.deps.db, token_id, now, ip);
    }
    return {
      // A token is no session: nothing session-bound (logout, the sessions list) is open to it.
      session: {
        idHash: `api-token:${token_id}`,
        publicId: `api-token-${token_id}`,
        tenantId: token_tenant_id,
        remember: false,
        twoFactorPending: false,
        expiresAt: token_expires_at ? new Date(token_expires_at) : new Date(8.64e15),
      },
      user,
      impersonator: null,
      credit: { balance: credit_balance === null ? 0 : Number(credit_balance), currency: credit_currency },
      avatar: avatar_user_id !== null,
      token: { id: token_id, scopes: token_scopes },
    };
  }
}
