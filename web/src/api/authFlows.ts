import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import {
  captchaConfigAnswerSchema,
  messageAnswerSchema,
  messageSessionAnswerSchema,
  otpRequestAnswerSchema,
  registerVerifyAnswerSchema,
  registrationAnswerSchema,
  type CaptchaConfig,
  type domainUserPasswordPayloadSchema,
  type login2faPayloadSchema,
  type otpLoginPayloadSchema,
  type otpRequestPayloadSchema,
  type passwordForgotPayloadSchema,
  type passwordResetPayloadSchema,
  type recoveryPayloadSchema,
  type registrationPayloadSchema,
} from '@berth/contracts';
import { type ApiError, apiRequest } from './client.ts';
import { queryKeys, storeSession } from './queries.ts';

/* The calls of the public screens (docs/product.md §7). Payloads are the schemas' outputs. */

type Out<S extends z.ZodType> = z.output<S>;

/** Answers with a session go into the cache here; the screen decides where to go next. */
function useSessionMutation<P>(path: (payload: P) => string, body: (payload: P) => unknown) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (payload: P) =>
      apiRequest(path(payload), {
        method: 'POST',
        body: body(payload),
        schema: messageSessionAnswerSchema,
      }),
    onSuccess: (answer) => {
      storeSession(queryClient, answer.data);
    },
  });
}

const same = <P>(payload: P): P => payload;

/** POST /api/login2fa */
export function useLogin2fa() {
  return useSessionMutation((_: Out<typeof login2faPayloadSchema>) => '/login2fa', same);
}

/** POST /api/login2fa/recovery */
export function useLogin2faRecovery() {
  return useSessionMutation((_: Out<typeof recoveryPayloadSchema>) => '/login2fa/recovery', same);
}

/** POST /api/password/forgot: the same answer whether or not the address has an account. */
export function usePasswordForgot() {
  return useMutation({
    mutationFn: (payload: Out<typeof passwordForgotPayloadSchema>) =>
      apiRequest('/password/forgot', {
        method: 'POST',
        body: payload,
        schema: messageAnswerSchema,
      }),
  });
}

export interface PasswordResetVariables {
  uniqId: string;
  token: string;
  payload: Out<typeof passwordResetPayloadSchema>;
}

/** POST /api/password/reset/{uniq_id}/{token} */
export function usePasswordReset() {
  return useSessionMutation(
    ({ uniqId, token }: PasswordResetVariables) => `/password/reset/${encodeURIComponent(uniqId)}/${encodeURIComponent(token)}`,
    ({ payload }) => payload,
  );
}

/** POST /api/password/otp → notice and data.uniq_id */
export function useOtpRequest() {
  return useMutation({
    mutationFn: (payload: Out<typeof otpRequestPayloadSchema>) =>
      apiRequest('/password/otp', {
        method: 'POST',
        body: payload,
        schema: otpRequestAnswerSchema,
      }),
  });
}

/** POST /api/password/otplogin */
export function useOtpLogin() {
  return useSessionMutation((_: Out<typeof otpLoginPayloadSchema>) => '/password/otplogin', same);
}

/** POST /api/registration: no session yet; the mailed link activates the account. */
export function useRegistration() {
  return useMutation({
    mutationFn: (payload: Out<typeof registrationPayloadSchema>) =>
      apiRequest('/registration', { method: 'POST', body: payload, schema: registrationAnswerSchema }),
  });
}

/**
 * PATCH /api/register/verify: a new registration's link answers its session, which goes into the
 * cache; a changed address's link changes the signed-in user's "verified" flag.
 */
export function useRegisterVerify() {
  const queryClient = useQueryClient();
  return useMutation<z.output<typeof registerVerifyAnswerSchema>, ApiError, string>({
    mutationFn: (code) =>
      apiRequest('/register/verify', {
        method: 'PATCH',
        body: { code },
        schema: registerVerifyAnswerSchema,
      }),
    onSuccess: (answer) => {
      if (answer.data) storeSession(queryClient, answer.data);
      else void queryClient.invalidateQueries({ queryKey: queryKeys.currentUser });
    },
  });
}

/** POST /api/register/resend (signed in): the verification e-mail once more. */
export function useRegisterResend() {
  return useMutation<z.output<typeof messageAnswerSchema>, ApiError>({
    mutationFn: () => apiRequest('/register/resend', { method: 'POST', schema: messageAnswerSchema }),
  });
}

/** PATCH /api/host/domain-user/change-password */
export function useDomainUserPasswordChange() {
  return useMutation({
    mutationFn: (payload: Out<typeof domainUserPasswordPayloadSchema>) =>
      apiRequest('/host/domain-user/change-password', {
        method: 'PATCH',
        body: payload,
        schema: messageAnswerSchema,
      }),
  });
}

/** GET /api/captcha: which captcha the registration form shows. */
export function useCaptchaConfig() {
  return useQuery<CaptchaConfig, ApiError>({
    queryKey: ['captcha'],
    queryFn: async ({ signal }) => (await apiRequest('/captcha', { schema: captchaConfigAnswerSchema, signal })).data,
    staleTime: Infinity,
  });
}
