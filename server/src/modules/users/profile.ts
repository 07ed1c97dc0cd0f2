import type { Db } from '../../db/connection.ts';
import type { Clock } from '../../lib/clock.ts';
import { balanceOf } from '../credit/queries.ts';
import { presentUser } from './present.ts';
import { findUserById, markNotificationViewed, updateUserLanguage, type UserRow } from './queries.ts';

/** The signed-in user's own record as the web reads it (with the partner credit balance), and its small settings. */
export class UserProfiles {
  private readonly db: Db;
  private readonly clock: Clock;

  constructor(db: Db, clock: Clock) {
    this.db = db;
    this.clock = clock;
  }

  async present(user: UserRow) {
    return presentUser(user, await balanceOf(this.db, user.id));
  }

  /** The stored row again (after a change elsewhere, e.g. the avatar), presented. */
  async reload(user: UserRow) {
    return this.present((await findUserById(this.db, user.id)) ?? user);
  }

  async changeLanguage(user: UserRow, language: string) {
    return this.present(await updateUserLanguage(this.db, user.id, language, this.clock.now()));
  }

  async markViewed(user: UserRow, notification: string) {
    return this.present(await markNotificationViewed(this.db, user.id, notification));
  }
}
