import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import type { SessionAnswer } from '@berth/contracts';
import { ApiError } from '../api/client.ts';
import { useSignedInLanding } from './useSignedInLanding.ts';

/**
 * Sends a second login step (TOTP or recovery code) and lands where it leads (`to`, else where
 * the visitor was headed). When no login waits for its second factor (any more), starts again at
 * /login with the server's message; any other failure is thrown for the form to show.
 */
export function useSecondStep<P>(send: (payload: P) => Promise<SessionAnswer>, to?: string) {
  const navigate = useNavigate();
  const land = useSignedInLanding();
  return useCallback(
    async (payload: P) => {
      try {
        await land(await send(payload), to);
      } catch (error) {
        if (error instanceof ApiError && error.isUnauthenticated) {
          await navigate('/login', { replace: true, state: { message: error.message } });
          return;
        }
        throw error;
      }
    },
    [land, navigate, send, to],
  );
}
