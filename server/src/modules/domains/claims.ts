import { DOMAIN_PROOF_DAYS } from '@berth/contracts';
import type { Db } from '../../db/connection.ts';
import { translate } from '../../i18n/messages.ts';
import { insertNotification } from '../notifications/queries.ts';
import { languageOf } from '../shop/language.ts';
import { findUserById } from '../users/queries.ts';
import { deleteLapsedClaim, findDomainClaim } from './queries.ts';
import { displayDomainName } from './names.ts';

const DAY_MS = 86_400_000;

/** When an unproven claim made at `createdAt` stops holding its name. */
export const claimHeldUntil = (createdAt: Date | string): Date => new Date(new Date(createdAt).getTime() + DOMAIN_PROOF_DAYS * DAY_MS);

/**
 * Whether `name` is held in the panel: by a domain that is served (proven, registered or added by
 * an admin), or by a customer's claim still within DOMAIN_PROOF_DAYS. A lapsed claim holds
 * nothing, so somebody who says they hold a name cannot keep it from its real holder.
 */
export async function nameHeld(db: Db, name: string, now: Date): Promise<boolean> {
  const claim = await findDomainClaim(db, name);
  if (!claim) return false;
  return claim.verification_token === null || claimHeldUntil(claim.created_at).getTime() > now.getTime();
}

/**
 * Inside the transaction that adds `name` anew: removes a lapsed claim on it (its zone and
 * mailboxes were never served) and tells its owner. At most one of simultaneous adders removes it;
 * the others then meet the unique name.
 */
export async function releaseLapsedClaim(trx: Db, name: string, now: Date): Promise<void> {
  const claim = await findDomainClaim(trx, name);
  if (!claim || claim.verification_token === null || claimHeldUntil(claim.created_at).getTime() > now.getTime()) return;
  const removed = await deleteLapsedClaim(trx, claim.id, new Date(now.getTime() - DOMAIN_PROOF_DAYS * DAY_MS));
  if (!removed) return;
  const owner = await findUserById(trx, removed.owner_id);
  const text = translate(languageOf(owner), 'domain.claim_lapsed', { name: displayDomainName(removed.name), days: DOMAIN_PROOF_DAYS });
  await insertNotification(trx, { tenant_id: removed.tenant_id, user_id: removed.owner_id, type: 'warning', text, created_at: now });
}
