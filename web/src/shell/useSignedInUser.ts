import type { Ability } from '@berth/contracts';
import { useCurrentUser, type CurrentUser } from '../api/queries.ts';

/**
 * The session's user and tenant inside the shell, which renders its pages only once they are
 * loaded (Shell.tsx); a page outside the shell calling this is a programming error.
 */
export function useSignedInUser(): CurrentUser {
  const { data } = useCurrentUser();
  if (!data) throw new Error('useSignedInUser() is only for pages inside the shell.');
  return data;
}

/**
 * Whether the signed-in user may do something here: the server's policy table answered it with
 * the user (GET /api/user `abilities`), so a page or button shows exactly where the API allows.
 */
export function useMay(): (ability: Ability) => boolean {
  const { abilities } = useSignedInUser();
  return (ability) => abilities.includes(ability);
}
