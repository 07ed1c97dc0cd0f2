import { useEffect, useEffectEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { startAuthentication, startRegistration } from '@simplewebauthn/browser';
import type { z } from 'zod';
import {
  messageAnswerSchema,
  passkeyAnswerSchema,
  passkeyListAnswerSchema,
  sessionAnswerSchema,
  webauthnOptionsAnswerSchema,
  PASSKEY_DEVICE_KEY,
  type Passkey,
  type SessionAnswer,
} from '@berth/contracts';
import { ApiError, apiRequest } from './client.ts';
import { queryKeys, storeSession } from './queries.ts';

const passkeysKey = ['account', 'passkeys'] as const;
export type PasskeyAnswer = z.output<typeof passkeyAnswerSchema>;

/** This device has a passkey of the site: its /login starts the app at once, for the autofill (PASSKEY_DEVICE_KEY). */
function rememberPasskeyDevice(): void {
  try {
    localStorage.setItem(PASSKEY_DEVICE_KEY, '1');
  } catch {
    // Storage refused (private mode, full): the login page then waits for the visitor's first move.
  }
}

type RegistrationOptions = Parameters<typeof startRegistration>[0]['optionsJSON'];
type AuthenticationOptions = Parameters<typeof startAuthentication>[0]['optionsJSON'];

/** GET /api/account/passkeys */
export function usePasskeys() {
  return useQuery<Passkey[], ApiError>({
    queryKey: passkeysKey,
    queryFn: async ({ signal }) => (await apiRequest('/account/passkeys', { schema: passkeyListAnswerSchema, signal })).data,
  });
}

/** Asks the browser (and its authenticator) for a new passkey, then POST /api/account/passkeys. */
export function usePasskeyAdd() {
  const queryClient = useQueryClient();
  return useMutation<PasskeyAnswer, ApiError | Error, string>({
    mutationFn: async (name) => {
      const { data } = await apiRequest('/account/passkeys/options', { method: 'POST', schema: webauthnOptionsAnswerSchema });
      const { startRegistration: register } = await import('@simplewebauthn/browser');
      const response = await register({ optionsJSON: data.options as unknown as RegistrationOptions });
      return apiRequest('/account/passkeys', {
        method: 'POST',
        body: { challenge_id: data.challenge_id, name, response },
        schema: passkeyAnswerSchema,
      });
    },
    onSuccess: () => {
      rememberPasskeyDevice();
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: passkeysKey }),
        // A passkey is a second factor: a user held for one is free now.
        queryClient.invalidateQueries({ queryKey: queryKeys.currentUser }),
      ]);
    },
  });
}

/** PATCH /api/account/passkeys/{id} */
export function usePasskeyRename() {
  const queryClient = useQueryClient();
  return useMutation<PasskeyAnswer, ApiError, { passkey: Passkey; name: string }>({
    mutationFn: ({ passkey, name }) =>
      apiRequest(`/account/passkeys/${passkey.id}`, { method: 'PATCH', body: { name }, schema: passkeyAnswerSchema }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: passkeysKey }),
  });
}

/** DELETE /api/account/passkeys/{id} with the current password. */
export function usePasskeyRemove() {
  const queryClient = useQueryClient();
  return useMutation<z.output<typeof messageAnswerSchema>, ApiError, { passkey: Passkey; password: string }>({
    mutationFn: ({ passkey, password }) =>
      apiRequest(`/account/passkeys/${passkey.id}`, { method: 'DELETE', body: { password }, schema: messageAnswerSchema }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: passkeysKey }),
  });
}

/**
 * "Use a passkey": on /login the browser picks one of this site's passkeys (both factors); on
 * /login2fa one of the pending user's (the second step). With `autofill`, the browser offers the
 * passkeys in the e-mail field's autofill instead of a dialog (conditional mediation) and the call
 * waits until one is picked. The answer is a session.
 */
export function usePasskeyLogin(step: 'login' | 'login2fa' = 'login') {
  const queryClient = useQueryClient();
  return useMutation<SessionAnswer, ApiError | Error, { autofill?: boolean } | void>({
    mutationFn: async (variables) => {
      // Loaded on use: the login screen's first load stays small (issue 11).
      const { startAuthentication: authenticate } = await import('@simplewebauthn/browser');
      const { data } = await apiRequest(`/${step}/passkey/options`, { method: 'POST', schema: webauthnOptionsAnswerSchema });
      const response = await authenticate({
        optionsJSON: data.options as unknown as AuthenticationOptions,
        useBrowserAutofill: variables?.autofill ?? false,
      });
      return apiRequest(`/${step}/passkey`, {
        method: 'POST',
        body: { challenge_id: data.challenge_id, response },
        schema: sessionAnswerSchema,
      });
    },
    onSuccess: (answer) => {
      rememberPasskeyDevice();
      storeSession(queryClient, answer.data);
    },
  });
}

/** Whether an error is the person closing the browser's passkey dialog (or another ceremony replacing it). */
export const passkeyCancelled = (error: unknown): boolean =>
  error instanceof Error && (error.name === 'NotAllowedError' || error.name === 'AbortError');

/**
 * Offers the site's passkeys in the autofill of the field marked `autocomplete="username webauthn"`
 * while the screen is open, where the browser supports it; `onSignedIn` runs when one was picked.
 * Not when `skip()` says so as the screen opens (a passkey dialog asked for already: a waiting
 * autofill request started after it would end it).
 */
export function usePasskeyAutofill(onSignedIn: (answer: SessionAnswer) => void, onError: (error: Error) => void, skip?: () => boolean) {
  const autofill = usePasskeyLogin();
  const signedIn = useEffectEvent(onSignedIn);
  const failed = useEffectEvent(onError);
  const skipped = useEffectEvent(() => skip?.() ?? false);
  const { mutate } = autofill;
  useEffect(() => {
    if (skipped()) return;
    let open = true;
    void import('@simplewebauthn/browser').then(async ({ browserSupportsWebAuthnAutofill }) => {
      if (!open || !(await browserSupportsWebAuthnAutofill()) || !open) return;
      mutate(
        { autofill: true },
        {
          onSuccess: (answer) => signedIn(answer),
          // Only an answer of the server is the visitor's to read (a passkey it refused): the
          // browser's own reasons for ending a waiting autofill are not something they did.
          onError: (error) => {
            if (error instanceof ApiError) failed(error);
          },
        },
      );
    });
    return () => {
      open = false;
      // Leaving the screen ends the waiting request, so the next ceremony may start.
      void import('@simplewebauthn/browser').then(({ WebAuthnAbortService }) => WebAuthnAbortService.cancelCeremony());
    };
  }, [mutate]);
}
