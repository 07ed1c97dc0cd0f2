import { useCallback } from 'react';
import { useLocation, useNavigate } from 'react-router';
import type { SessionAnswer } from '@berth/contracts';
import { readRouteState, type RouteState } from '../components/RouteStateMessage.tsx';

/** Where a login must not return to: `/` itself and the public screens (`/password` is not one). */
export const NO_RETURN = /^\/(?:$|(?:login|login2fa|register|change-password)(?:\/|$)|password\/)/;

/** The page a finished login goes to: where the visitor was headed, else the dashboard. */
export function returnTarget(from: RouteState['from']): NonNullable<RouteState['from']> | string {
  return from && !NO_RETURN.test(from.pathname) ? from : '/dashboard';
}

/**
 * After an answer with a session (docs/product.md §4): a signed-in user goes to `to` (else where
 * they were headed, else /dashboard) with the answer's message; a pending second factor goes
 * to /login2fa. The session is already in the cache (api/authFlows.ts).
 */
export function useSignedInLanding() {
  const navigate = useNavigate();
  const location = useLocation();
  const { from } = readRouteState(location.state);

  return useCallback(
    async (answer: SessionAnswer, to?: string) => {
      const message = answer.message ?? answer.notice;
      if (answer.data.status === 'two_factor_required') {
        await navigate('/login2fa', { state: { ...(from ? { from } : {}), message } });
        return;
      }
      await navigate(to ?? returnTarget(from), {
        replace: true,
        state: message ? { message } : null,
      });
    },
    [navigate, from],
  );
}
