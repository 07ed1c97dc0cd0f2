import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticatorTransport,
} from '@simplewebauthn/server';
import { PASSKEYS_PER_USER_MAX, type Passkey } from '@berth/contracts';
import type { Selectable } from 'kysely';
import type { Db } from '../../db/connection.ts';
import type { PasskeysTable } from '../../db/schema.ts';
import { fieldError, HttpError } from '../../http/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { randomToken } from '../../lib/tokens.ts';
import type { AuditService } from '../audit/service.ts';
import type { SecurityNotifier, TenantRef } from '../auth/notifier.ts';
import type { Reauthenticator } from '../auth/reauth.ts';
import { displayNameOf, iso, isoOrNull } from '../tenants/scope.ts';
import { findUserById, type UserRow } from '../users/queries.ts';
import {
  advancePasskey,
  countPasskeys,
  deletePasskey,
  findPasskeyByCredential,
  insertChallenge,
  insertPasskey,
  listPasskeys,
  lockUserRow,
  renamePasskey,
  syncPasskeyFlag,
  takeChallenge,
} from './queries.ts';

/** A challenge answers within this time, once. */
const CHALLENGE_MS = 5 * 60 * 1000;

/** Where the browser is: the relying party is the tenant's host the page was loaded from. */
export interface RelyingParty {
  /** The host name without port: each tenant's own host is its passkeys' RP id. */
  id: string;
  /** `https://panel.example.com` (the page's origin, port included). */
  origin: string;
  name: string;
}

/** Who acts, as the security notices need it. */
export interface PasskeyActor {
  user: UserRow;
  ip: string;
  tenant: TenantRef;
}

/** Options as the API answers them: a plain JSON object (webauthnOptionsAnswerSchema). */
const asJson = (value: object): Record<string, unknown> => Object.fromEntries(Object.entries(value));

const present = (row: Selectable<PasskeysTable>): Passkey => ({
  id: row.id,
  name: row.name,
  synced: row.backed_up,
  created_at: iso(row.created_at),
  last_used_at: isoOrNull(row.last_used_at),
});

/**
 * Passkeys (WebAuthn, @simplewebauthn/server): registered by a signed-in user with a name,
 * renamed, removed after the password; a login with one is complete (it proves possession and,
 * with user verification, knowledge or presence), so no TOTP is asked after it.
 */
export class PasskeyService {
  private readonly deps: { db: Db; clock: Clock; audit: AuditService; reauth: Reauthenticator; notifier: SecurityNotifier };

  constructor(deps: PasskeyService['deps']) {
    this.deps = deps;
  }

  async list(user: UserRow): Promise<Passkey[]> {
    return (await listPasskeys(this.deps.db, user.id)).map(present);
  }

  async registrationOptions(user: UserRow, tenantId: number, rp: RelyingParty) {
    const existing = await listPasskeys(this.deps.db, user.id);
    const options = await generateRegistrationOptions({
      rpName: rp.name,
      rpID: rp.id,
      userName: user.email,
      userDisplayName: displayNameOf(user),
      // One user handle per account: an authenticator replaces its older passkey for it.
      userID: new TextEncoder().encode(`berth-user-${user.id}`),
      attestationType: 'none',
      excludeCredentials: existing.map((key) => ({ id: key.credential_id, transports: key.transports as AuthenticatorTransport[] })),
      authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
    });
    return { challenge_id: await this.newChallenge(tenantId, user.id, 'register', options.challenge), options: asJson(options) };
  }

  async register(
    actor: PasskeyActor,
    input: { challenge_id: string; name: string; response: unknown },
    rp: RelyingParty,
  ): Promise<Passkey> {
    const { db, clock } = this.deps;
    const now = clock.now();
    const challenge = await takeChallenge(db, input.challenge_id, 'register', now);
    if (!challenge || challenge.user_id !== actor.user.id) throw fieldError('response', 'passkeys.expired');
    let info;
    try {
      const verification = await verifyRegistrationResponse({
        response: input.response as Parameters<typeof verifyRegistrationResponse>[0]['response'],
        expectedChallenge: challenge.challenge,
        expectedOrigin: rp.origin,
        expectedRPID: rp.id,
        requireUserVerification: false,
      });
      info = verification.verified ? verification.registrationInfo : undefined;
    } catch {
      info = undefined;
    }
    if (!info) throw fieldError('response', 'passkeys.invalid');
    const id = await db.transaction().execute(async (trx) => {
      await lockUserRow(trx, actor.user.id);
      if ((await countPasskeys(trx, actor.user.id)) >= PASSKEYS_PER_USER_MAX) {
        throw new HttpError(422, 'passkeys.too_many', { params: { max: PASSKEYS_PER_USER_MAX } });
      }
      const row = await insertPasskey(trx, {
        tenant_id: actor.user.tenant_id,
        user_id: actor.user.id,
        credential_id: info.credential.id,
        public_key: Buffer.from(info.credential.publicKey).toString('base64url'),
        counter: info.credential.counter,
        transports: JSON.stringify(info.credential.transports ?? []),
        device_type: info.credentialDeviceType,
        backed_up: info.credentialBackedUp,
        name: input.name,
        created_at: now,
      });
      await syncPasskeyFlag(trx, actor.user.id);
      return row.id;
    });
    await this.deps.audit.record({
      action: 'user.passkey_added',
      tenantId: actor.tenant.id,
      userId: actor.user.id,
      ip: actor.ip,
      data: { name: input.name },
    });
    await this.deps.notifier.notify(actor.user, 'passkey_added', { ip: actor.ip, tenant: actor.tenant });
    const added = (await listPasskeys(db, actor.user.id)).find((key) => key.id === id);
    if (!added) throw new HttpError(404, 'http.not_found');
    return present(added);
  }

  async rename(user: UserRow, id: number, name: string): Promise<Passkey> {
    const row = await renamePasskey(this.deps.db, user.id, id, name);
    if (!row) throw new HttpError(404, 'http.not_found');
    return present(row);
  }

  /** Removing a passkey needs the password (a stolen session must not strip the owner's keys). */
  async remove(actor: PasskeyActor, id: number, password: string): Promise<void> {
    await this.deps.reauth.confirm(actor.user, password);
    const removed = await this.deps.db.transaction().execute(async (trx) => {
      const done = await deletePasskey(trx, actor.user.id, id);
      if (done) await syncPasskeyFlag(trx, actor.user.id);
      return done;
    });
    if (!removed) throw new HttpError(404, 'http.not_found');
    await this.deps.audit.record({
      action: 'user.passkey_removed',
      tenantId: actor.tenant.id,
      userId: actor.user.id,
      ip: actor.ip,
      data: { passkey_id: id },
    });
    await this.deps.notifier.notify(actor.user, 'passkey_removed', { ip: actor.ip, tenant: actor.tenant });
  }

  /** Options for "Log in with a passkey": discoverable credentials, so no user is named first. */
  async loginOptions(tenantId: number, rp: RelyingParty) {
    const options = await generateAuthenticationOptions({ rpID: rp.id, userVerification: 'preferred' });
    return { challenge_id: await this.newChallenge(tenantId, null, 'login', options.challenge), options: asJson(options) };
  }

  /** Options for the second login step with one of the user's own passkeys, after the password. */
  async secondFactorOptions(user: UserRow, tenantId: number, rp: RelyingParty) {
    const keys = await listPasskeys(this.deps.db, user.id);
    if (keys.length === 0) throw new HttpError(404, 'passkeys.none');
    const options = await generateAuthenticationOptions({
      rpID: rp.id,
      userVerification: 'preferred',
      allowCredentials: keys.map((key) => ({ id: key.credential_id, transports: key.transports as AuthenticatorTransport[] })),
    });
    return { challenge_id: await this.newChallenge(tenantId, user.id, 'login', options.challenge), options: asJson(options) };
  }

  /**
   * The user a browser's passkey answer signs in, or a 401: unknown or foreign passkey, wrong or
   * used challenge, bad signature, a counter that did not move forward (a cloned authenticator),
   * a locked account.
   */
  async login(input: { challenge_id: string; response: { id: string } }, tenantId: number, rp: RelyingParty): Promise<UserRow> {
    const { db, clock } = this.deps;
    const now = clock.now();
    const challenge = await takeChallenge(db, input.challenge_id, 'login', now);
    const passkey = await findPasskeyByCredential(db, input.response.id);
    const user = passkey ? await findUserById(db, passkey.user_id) : undefined;
    const refused = () => new HttpError(401, 'passkeys.login_failed');
    if (!challenge || challenge.tenant_id !== tenantId || !passkey || !user) throw refused();
    // A challenge made for one user's second step is answered by that user's passkeys only.
    if (challenge.user_id !== null && challenge.user_id !== passkey.user_id) throw refused();
    // A passkey belongs to its tenant's hosts, like a session; a super admin's spans them all.
    if (passkey.tenant_id !== tenantId && user.role !== 'super_admin') throw refused();
    if (user.locked_at) throw fieldError('response', 'auth.locked');
    let outcome;
    try {
      const verification = await verifyAuthenticationResponse({
        response: input.response as Parameters<typeof verifyAuthenticationResponse>[0]['response'],
        expectedChallenge: challenge.challenge,
        expectedOrigin: rp.origin,
        expectedRPID: rp.id,
        credential: {
          id: passkey.credential_id,
          publicKey: new Uint8Array(Buffer.from(passkey.public_key, 'base64url')),
          counter: Number(passkey.counter),
          transports: passkey.transports as AuthenticatorTransport[],
        },
        requireUserVerification: false,
      });
      outcome = verification.verified ? verification.authenticationInfo : undefined;
    } catch (error) {
      // The library refuses a counter that did not move forward: the mark of a cloned authenticator.
      if (error instanceof Error && /counter/i.test(error.message)) {
        await this.deps.audit.record({
          action: 'user.passkey_cloned',
          tenantId,
          userId: user.id,
          ip: null,
          data: { passkey_id: passkey.id },
        });
      }
      outcome = undefined;
    }
    if (!outcome) throw refused();
    if (!(await advancePasskey(db, passkey.id, Number(passkey.counter), outcome.newCounter, outcome.credentialBackedUp, now)))
      throw refused();
    return user;
  }

  private async newChallenge(tenantId: number, userId: number | null, purpose: 'register' | 'login', challenge: string): Promise<string> {
    const id = randomToken(18);
    await insertChallenge(this.deps.db, {
      id,
      tenant_id: tenantId,
      user_id: userId,
      purpose,
      challenge,
      expires_at: new Date(this.deps.clock.now().getTime() + CHALLENGE_MS),
    });
    return id;
  }
}
