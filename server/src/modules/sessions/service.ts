import { SESSION_ABSOLUTE_MS, SESSION_IDLE_MS, SESSION_REMEMBER_MS } from '@berth/contracts';
import type { Db } from '../../db/connection.ts';
import type { Clock } from '../../lib/clock.ts';
import { randomToken, sha256 } from '../../lib/tokens.ts';
import type { Impersonator } from '@berth/contracts';
import { displayNameOf } from '../tenants/scope.ts';
import type { UserRow } from '../users/queries.ts';
import {
  deleteSession,
  deleteUserSessionByPublicId,
  deleteUserSessions,
  findSessionWithUser,
  insertSession,
  listUserSessions,
  touchSession,
  type NewSessionRow,
  type SessionWithUserRow,
} from './queries.ts';
import type { SessionCache } from './cache.ts';

export interface SessionInfo {
  idHash: string;
  publicId: string;
  tenantId: number;
  remember: boolean;
  twoFactorPending: boolean;
  expiresAt: Date;
}

export interface ActiveSession {
  session: SessionInfo;
  user: UserRow;
  /** The admin who logged in as this user (GET /api/user's `impersonator`), read with the session. */
  impersonator: Impersonator | null;
  /** The user's partner credit, read with the session (GET /api/user's `commission`). */
  credit: { balance: number; currency: string | null };
  /** Whether the user uploaded a picture (GET /api/user's `image.custom`), read with the session. */
  avatar: boolean;
  /** Set when the request came with an API token instead of a session (modules/api-tokens). */
  token?: { id: number; scopes: string[] };
}

export const PENDING_SECOND_FACTOR_MS = 10 * 60 * 1000;

/** Writing last-seen on every request would make each read a write; once a minute is enough for a 2 h idle rule. */
const TOUCH_EVERY_MS = 60_000;

/** What a request sees of a session row (fresh objects: a cached row is shared by requests). */
function presentSession(row: SessionWithUserRow): ActiveSession {
  const {
    session_id_hash,
    session_public_id,
    session_two_factor_started_at: _started,
    session_tenant_id,
    session_remember,
    session_two_factor_pending,
    session_created_at: _created,
    session_last_seen_at: _seen,
    session_expires_at,
    imp_id,
    imp_email,
    imp_given_name,
    imp_sn,
    imp_role,
    credit_balance,
    credit_currency,
    avatar_user_id,
    ...user
  } = row;
  const impersonator =
    imp_id !== null && imp_email !== null && imp_role !== null
      ? {
          id: imp_id,
          email: imp_email,
          display_name: displayNameOf({ email: imp_email, given_name: imp_given_name, sn: imp_sn }),
          role: imp_role,
        }
      : null;
  return {
    session: {
      idHash: session_id_hash,
      publicId: session_public_id,
      tenantId: session_tenant_id,
      remember: session_remember,
      twoFactorPending: session_two_factor_pending,
      expiresAt: new Date(session_expires_at),
    },
    user,
    impersonator,
    credit: { balance: credit_balance === null ? 0 : Number(credit_balance), currency: credit_currency },
    avatar: avatar_user_id !== null,
  };
}

export type { NewSessionRow } from './queries.ts';

export interface NewSession {
  userId: number;
  tenantId: number;
  remember: boolean;
  twoFactorPending?: boolean;
  ip: string | null;
  userAgent: string | null;
}

export class SessionService {
  private readonly db: Db;
  private readonly clock: Clock;
  /** On PostgreSQL: sessions kept in memory between requests (cache.ts). */
  readonly cache: SessionCache<SessionWithUserRow> | undefined;

  constructor(db: Db, clock: Clock, cache?: SessionCache<SessionWithUserRow>) {
    this.db = db;
    this.clock = clock;
    this.cache = cache;
  }

  /** A new random id (256 bits); only its hash is stored. Returns the raw id for the cookie. */
  async create(input: NewSession): Promise<{ token: string; expiresAt: Date }> {
    const { token, expiresAt, row } = this.prepare(input);
    await this.write(row);
    return { token, expiresAt };
  }

  async write(row: NewSessionRow): Promise<void> {
    await insertSession(this.db, row);
  }

  /** A new session's id and row, not yet written: for a caller that writes it in a statement of its own (the sign-in). */
  prepare(input: NewSession): { token: string; expiresAt: Date; row: NewSessionRow } {
    const token = randomToken(32);
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + (input.remember ? SESSION_REMEMBER_MS : SESSION_ABSOLUTE_MS));
    const row = {
      id_hash: sha256(token),
      user_id: input.userId,
      tenant_id: input.tenantId,
      remember: input.remember,
      two_factor_pending: input.twoFactorPending ?? false,
      ip: input.ip,
      user_agent: input.userAgent?.slice(0, 512) ?? null,
      created_at: now,
      last_seen_at: now,
      expires_at: expiresAt,
      two_factor_started_at: input.twoFactorPending ? now : null,
    };
    return { token, expiresAt, row };
  }

  /** The live session for a cookie value, or undefined when unknown, expired or idle too long. */
  async resolve(token: string): Promise<ActiveSession | undefined> {
    const idHash = sha256(token);
    const cached = this.cache?.get(idHash);
    if (cached) {
      const now = this.clock.now().getTime();
      // Only a live session is answered from memory; one that looks over is read again, and the
      // database's row decides (another instance may have seen it since).
      if (!this.over(cached, now)) {
        await this.touchIfDue(cached, now);
        return presentSession(cached);
      }
      this.cache?.drop(idHash);
    }
    const begun = this.cache?.begin() ?? 0;
    const row = await findSessionWithUser(this.db, idHash);
    if (!row) return undefined;
    const now = this.clock.now().getTime();
    if (this.over(row, now)) {
      await deleteSession(this.db, idHash);
      return undefined;
    }
    await this.touchIfDue(row, now);
    this.cache?.keep(idHash, row, { userId: row.id, impersonatorId: row.imp_id }, begun);
    return presentSession(row);
  }

  /** Expired, idle too long, waiting too long for its second factor, or its user locked. */
  private over(row: SessionWithUserRow, now: number): boolean {
    const lastSeen = new Date(row.session_last_seen_at).getTime();
    const expired = new Date(row.session_expires_at).getTime() <= now;
    const idle = !row.session_remember && now - lastSeen > SESSION_IDLE_MS;
    // A password step waits at most 10 minutes for its second factor.
    const pendingTooLong =
      row.session_two_factor_pending &&
      now - new Date(row.session_two_factor_started_at ?? row.session_created_at).getTime() > PENDING_SECOND_FACTOR_MS;
    return expired || idle || pendingTooLong || row.locked_at !== null;
  }

  private async touchIfDue(row: SessionWithUserRow, now: number): Promise<void> {
    if (now - new Date(row.session_last_seen_at).getTime() <= TOUCH_EVERY_MS) return;
    // Set first: the requests arriving together with this one (and a cached row) do not touch too.
    row.session_last_seen_at = new Date(now);
    await touchSession(this.db, row.session_id_hash, new Date(now));
  }

  /**
   * The session of `token` as seen on a host of `tenantId`: a session is valid only on the hosts
   * of the tenant where it began (a customer's cookie carried to another tenant's host is no
   * session there), except a super admin's, whose role spans every tenant.
   */
  async resolveOn(token: string, tenantId: number): Promise<ActiveSession | undefined> {
    const active = await this.resolve(token);
    if (!active || (active.session.tenantId !== tenantId && active.user.role !== 'super_admin')) return undefined;
    return active;
  }

  async destroy(token: string): Promise<void> {
    const idHash = sha256(token);
    await deleteSession(this.db, idHash);
    this.cache?.drop(idHash);
  }

  /** Ends every session of the user but the one given (by its stored hash). */
  async destroyAllForUser(userId: number, exceptIdHash?: string): Promise<void> {
    await deleteUserSessions(this.db, userId, exceptIdHash);
    this.cache?.clear();
  }

  async list(userId: number) {
    const now = this.clock.now().getTime();
    const rows = await listUserSessions(this.db, userId);
    // Sessions past their rules are gone for the user even if the sweep has not run yet.
    return rows.filter(
      (row) =>
        new Date(row.expires_at).getTime() > now &&
        (row.remember || now - new Date(row.last_seen_at).getTime() <= SESSION_IDLE_MS) &&
        !row.two_factor_pending,
    );
  }

  /** Revokes one of the user's own sessions; another user's id simply matches nothing. */
  async revoke(userId: number, publicId: string): Promise<boolean> {
    const result = await deleteUserSessionByPublicId(this.db, userId, publicId);
    this.cache?.clear();
    return result > 0;
  }
}
