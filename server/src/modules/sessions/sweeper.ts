import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/connection.ts';
import type { Clock } from '../../lib/clock.ts';
import { sweepThrottleHits } from '../auth/throttle.ts';
import { deleteExpiredSessions } from './queries.ts';
import { deleteOutboxBefore } from '../mail/queries.ts';
import { deleteExpiredRegistrations } from '../registration/queries.ts';
import { deleteExpiredChallenges } from '../passkeys/queries.ts';

const EVERY_MS = 10 * 60 * 1000;
const KEEP_THROTTLE_HITS_MS = 24 * 60 * 60 * 1000;
/** Outbox mails hold working links and codes; a week is plenty to read them. */
const KEEP_OUTBOX_MS = 7 * 24 * 60 * 60 * 1000;

/** Deletes expired sessions, registrations and passkey challenges, old throttle hits and old outbox mails every 10 minutes; no rule depends on it. */
export function startSweeper(db: Db, clock: Clock, log: FastifyBaseLogger): NodeJS.Timeout {
  const timer = setInterval(() => {
    const now = clock.now();
    Promise.all([
      deleteExpiredSessions(db, now),
      sweepThrottleHits(db, new Date(now.getTime() - KEEP_THROTTLE_HITS_MS)),
      deleteOutboxBefore(db, new Date(now.getTime() - KEEP_OUTBOX_MS)),
      deleteExpiredRegistrations(db, now),
      deleteExpiredChallenges(db, now),
    ]).catch((error: unknown) => log.warn({ err: error }, 'sweep failed'));
  }, EVERY_MS);
  timer.unref();
  return timer;
}
