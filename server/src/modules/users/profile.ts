import type { ProfileUpdatePayload } from '@berth/contracts';
import type { Db } from '../../db/connection.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Actor, AuditService } from '../audit/service.ts';
import { balanceOf } from '../credit/queries.ts';
import { presentUser } from './present.ts';
import { findAvatarOwner, findUserById, markNotificationViewed, updateUserLanguage, updateUserProfile, type UserRow } from './queries.ts';

/** The signed-in user's own record as the web reads it (with the partner credit balance), and its small settings. */
export class UserProfiles {
  private readonly db: Db;
  private readonly clock: Clock;
  private readonly audit: AuditService;

  constructor(db: Db, clock: Clock, audit: AuditService) {
    this.db = db;
    this.clock = clock;
    this.audit = audit;
  }

  async present(user: UserRow) {
    const [balance, avatar] = await Promise.all([balanceOf(this.db, user.id), findAvatarOwner(this.db, user.id)]);
    return presentUser(user, balance, avatar !== undefined);
  }

  /** The stored row again (after a change elsewhere, e.g. the avatar), presented. */
  async reload(user: UserRow) {
    return this.present((await findUserById(this.db, user.id)) ?? user);
  }

  /**
   * The own name, phone and billing details. The phone replaces the first of the stored numbers
   * (an admin may have added more on the customer's record); the audit entry names what changed.
   */
  async updateProfile(actor: Actor, payload: ProfileUpdatePayload) {
    const user = actor.user;
    const rest = user.phones.slice(1);
    const phones = payload.phone ? [payload.phone, ...rest] : rest;
    const { phone: _phone, ...fields } = payload;
    const before: Record<string, string> = { ...pick(user, fields), phone: user.phones[0] ?? '' };
    const changed = Object.keys(before).filter(
      (key) => before[key] !== (key === 'phone' ? payload.phone : fields[key as keyof typeof fields]),
    );
    const row = await updateUserProfile(this.db, user.id, { ...fields, phones }, this.clock.now());
    if (changed.length)
      await this.audit.recordAction(
        actor,
        'user.profile_updated',
        user.tenant_id,
        { type: 'user', id: user.id },
        { fields: changed.join(', ') },
      );
    return this.present(row);
  }

  async changeLanguage(user: UserRow, language: string) {
    return this.present(await updateUserLanguage(this.db, user.id, language, this.clock.now()));
  }

  async markViewed(user: UserRow, notification: string) {
    return this.present(await markNotificationViewed(this.db, user.id, notification));
  }
}

const pick = (user: UserRow, fields: Omit<ProfileUpdatePayload, 'phone'>): Record<string, string> =>
  Object.fromEntries(Object.keys(fields).map((key) => [key, String(user[key as keyof UserRow] ?? '')]));
