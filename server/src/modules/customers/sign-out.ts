import type { RealtimeHub } from '../realtime/hub.ts';
import type { SessionService } from '../sessions/service.ts';

/** Ends every session of a user (lock, role change), and the sockets those sessions hold open. */
export async function signOutEverywhere(
  sessions: SessionService,
  realtime: Pick<RealtimeHub, 'endSession'>,
  userId: number,
): Promise<void> {
  const live = await sessions.list(userId);
  await sessions.destroyAllForUser(userId);
  for (const session of live) realtime.endSession(session.id_hash);
}
