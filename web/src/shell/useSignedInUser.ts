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
