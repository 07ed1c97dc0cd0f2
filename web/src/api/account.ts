import type { MessageAnswer } from '@berth/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import {
  messageAnswerSchema,
  outboxAnswerSchema,
  recoveryCodesAnswerSchema,
  sessionListAnswerSchema,
  twoFactorSetupAnswerSchema,
  twoFactorStatusAnswerSchema,
  type OutboxMail,
  type SessionListItem,
  type passwordChangePayloadSchema,
  userAnswerSchema,
  type EmailChangePayload,
  type ProfileUpdatePayload,
  type User,
} from '@berth/contracts';
import { type ApiError, apiRequest } from './client.ts';
import { queryKeys } from './queries.ts';
import { shellKeys, useStoreUser } from './shell.ts';

/* The calls of the signed-in account pages: /account, /account/2fa, /password, /system/outbox. */

export const accountKeys = {
  twoFactor: ['account', '2fa'] as const,
  sessions: ['account', 'sessions'] as const,
  outbox: ['system', 'outbox'] as const,
};

export type TwoFactorStatus = z.output<typeof twoFactorStatusAnswerSchema>['data'];
export type TwoFactorSetup = z.output<typeof twoFactorSetupAnswerSchema>['data'];
export type RecoveryCodesAnswer = z.output<typeof recoveryCodesAnswerSchema>;

/** GET /api/account/2fa */
export function useTwoFactorStatus() {
  return useQuery<TwoFactorStatus, ApiError>({
    queryKey: accountKeys.twoFactor,
    queryFn: async ({ signal }) => (await apiRequest('/account/2fa', { schema: twoFactorStatusAnswerSchema, signal })).data,
    staleTime: 0,
  });
}

/** 2FA changes show in the status, in the user (google2fa_enabled) and in the side menu's badge. */
function useRefreshTwoFactor() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: accountKeys.twoFactor }),
      queryClient.invalidateQueries({ queryKey: queryKeys.currentUser }),
      queryClient.invalidateQueries({ queryKey: shellKeys.menu }),
    ]);
}

/** POST /api/account/2fa/setup: a secret waiting for a code to confirm it. */
export function useTwoFactorSetup() {
  return useMutation<TwoFactorSetup, ApiError, string>({
    mutationFn: async (password) =>
      (
        await apiRequest('/account/2fa/setup', {
          method: 'POST',
          body: { password },
          schema: twoFactorSetupAnswerSchema,
        })
      ).data,
  });
}

/** POST /api/account/2fa/enable → the 10 recovery codes, shown once. */
export function useTwoFactorEnable() {
  const refresh = useRefreshTwoFactor();
  return useMutation<RecoveryCodesAnswer, ApiError, string>({
    mutationFn: (code) =>
      apiRequest('/account/2fa/enable', {
        method: 'POST',
        body: { code },
        schema: recoveryCodesAnswerSchema,
      }),
    onSuccess: () => refresh(),
  });
}

/** POST /api/account/2fa/recovery-codes: a new set; the old one stops working. */
export function useRecoveryCodesRegenerate() {
  const refresh = useRefreshTwoFactor();
  return useMutation<RecoveryCodesAnswer, ApiError, string>({
    mutationFn: (password) =>
      apiRequest('/account/2fa/recovery-codes', {
        method: 'POST',
        body: { password },
        schema: recoveryCodesAnswerSchema,
      }),
    onSuccess: () => refresh(),
  });
}

/** POST /api/account/2fa/disable */
export function useTwoFactorDisable() {
  const refresh = useRefreshTwoFactor();
  return useMutation<MessageAnswer, ApiError, string>({
    mutationFn: (password) =>
      apiRequest('/account/2fa/disable', {
        method: 'POST',
        body: { password },
        schema: messageAnswerSchema,
      }),
    onSuccess: () => refresh(),
  });
}

/** PATCH /api/account/password: other sessions are signed out by the server. */
export function usePasswordChange() {
  const queryClient = useQueryClient();
  return useMutation<MessageAnswer, ApiError, z.output<typeof passwordChangePayloadSchema>>({
    mutationFn: (payload) =>
      apiRequest('/account/password', {
        method: 'PATCH',
        body: payload,
        schema: messageAnswerSchema,
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountKeys.sessions }),
  });
}

/** GET /api/account/sessions */
export function useSessions() {
  return useQuery<SessionListItem[], ApiError>({
    queryKey: accountKeys.sessions,
    queryFn: async ({ signal }) => (await apiRequest('/account/sessions', { schema: sessionListAnswerSchema, signal })).data,
    staleTime: 0,
  });
}

/** DELETE /api/account/sessions/:id */
export function useSessionRevoke() {
  const queryClient = useQueryClient();
  return useMutation<MessageAnswer, ApiError, string>({
    mutationFn: (id) =>
      apiRequest(`/account/sessions/${encodeURIComponent(id)}`, {
        method: 'DELETE',
        schema: messageAnswerSchema,
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountKeys.sessions }),
  });
}

/** GET /api/system/outbox (super admins), newest first. */
export function useOutbox(enabled: boolean) {
  return useQuery<OutboxMail[], ApiError>({
    queryKey: accountKeys.outbox,
    queryFn: async ({ signal }) => (await apiRequest('/system/outbox', { schema: outboxAnswerSchema, signal })).data,
    enabled,
    staleTime: 0,
  });
}

/** PATCH /api/user/profile */
export function useProfileUpdate() {
  const setUser = useStoreUser();
  return useMutation<User, ApiError, ProfileUpdatePayload>({
    mutationFn: async (payload) => (await apiRequest('/user/profile', { method: 'PATCH', body: payload, schema: userAnswerSchema })).data,
    onSuccess: (user) => setUser(user),
  });
}

/** POST /api/user/avatar (multipart) and DELETE /api/user/avatar */
export function useAvatar() {
  const setUser = useStoreUser();
  const upload = useMutation<User, ApiError, File>({
    mutationFn: async (file) => {
      const body = new FormData();
      body.append('image', file);
      return (await apiRequest('/user/avatar', { method: 'POST', body, schema: userAnswerSchema })).data;
    },
    onSuccess: (user) => setUser(user),
  });
  const remove = useMutation<User, ApiError, void>({
    mutationFn: async () => (await apiRequest('/user/avatar', { method: 'DELETE', schema: userAnswerSchema })).data,
    onSuccess: (user) => setUser(user),
  });
  return { upload, remove };
}

/** PATCH /api/account/email: the new address must be verified from the mail sent to it. */
export function useEmailChange() {
  const queryClient = useQueryClient();
  return useMutation<MessageAnswer, ApiError, EmailChangePayload>({
    mutationFn: (payload) => apiRequest('/account/email', { method: 'PATCH', body: payload, schema: messageAnswerSchema }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.currentUser }),
  });
}
