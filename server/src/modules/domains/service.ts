import { domainToUnicode } from 'node:url';
import type { DomainOption } from '@berth/contracts';
import type { Db } from '../../db/connection.ts';
import { HttpError } from '../../http/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import type { UserRow } from '../users/queries.ts';
import { findVisibleDomain, listLiveDomains } from './queries.ts';

/** The selector lists at most this many; past it the user searches the domains page. */
export const SELECTOR_LIMIT = 10_000;

export class DomainDirectory {
  private readonly db: Db;
  private readonly clock: Clock;

  constructor(db: Db, clock: Clock) {
    this.db = db;
    this.clock = clock;
  }

  /** Names are stored in punycode and shown as people write them (IDN). */
  async liveOptions(viewer: UserRow): Promise<DomainOption[]> {
    const rows = await listLiveDomains(this.db, viewer, this.clock.now(), SELECTOR_LIMIT);
    return rows.map((row) => ({
      id: row.id,
      text: domainToUnicode(row.name) || row.name,
      expire_at: row.expire_at ? new Date(row.expire_at).toISOString() : null,
    }));
  }

  /** A domain the viewer may see, else 404 (a foreign id looks like a missing one). */
  async visible(viewer: UserRow, id: number) {
    const domain = await findVisibleDomain(this.db, viewer, id);
    if (!domain) throw new HttpError(404, 'http.not_found');
    return domain;
  }
}
