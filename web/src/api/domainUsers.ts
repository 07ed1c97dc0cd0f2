import { useInfiniteQuery, useMutation, useQuery, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import type { z } from 'zod';
import {
  autoreplyAnswerSchema,
  domainAnswerSchema,
  domainUserAnswerSchema,
  domainUserListAnswerSchema,
  mailLogAnswerSchema,
  messageAnswerSchema,
  PAGE_SIZE_MAX,
  type Autoreply,
  type AutoreplyPayload,
  type Domain,
  type DomainUser,
  type DomainUserCreatePayload,
  type MailLogEntry,
  type domainUserPasswordResetPayloadSchema,
  type domainUserUpdatePayloadSchema,
} from '@berth/contracts';
import { type ApiError, apiRequest } from './client.ts';

/* The calls of /host/domain/{id}/users: a domain's mailbox/FTP accounts. */

export const domainUserKeys = {
  /** Under the `domains` prefix, so anything that refreshes a domain refreshes its pages too. */
  heading: (domainId: number) => ['domains', domainId, 'heading'] as const,
  list: (domainId: number) => ['domains', domainId, 'users'] as const,
  mailLog: (domainId: number, id: number) => ['domains', domainId, 'users', id, 'mail-log'] as const,
};

type DomainUserList = z.output<typeof domainUserListAnswerSchema>;
export type DomainUserAnswer = z.output<typeof domainUserAnswerSchema>;
export type DomainUserUpdate = z.output<typeof domainUserUpdatePayloadSchema>;
export type DomainUserPasswordReset = z.output<typeof domainUserPasswordResetPayloadSchema>;

/**
 * GET /api/host/domain/{id}: the domain a domain page is about (its name for the heading).
 * A 404 means the domain does not exist or is someone else's.
 */
export function useDomainHeading(domainId: number, enabled = true) {
  return useQuery<Domain, ApiError>({
    queryKey: domainUserKeys.heading(domainId),
    enabled,
    queryFn: async ({ signal }) => (await apiRequest(`/host/domain/${domainId}`, { schema: domainAnswerSchema, signal })).data,
  });
}

/** GET /api/host/domain/{id}/users, a keyset page at a time (by uid). */
export function useDomainUsers(domainId: number, enabled = true) {
  return useInfiniteQuery<DomainUserList, ApiError, InfiniteData<DomainUserList>, readonly unknown[], string | null>({
    queryKey: domainUserKeys.list(domainId),
    enabled,
    initialPageParam: null,
    queryFn: async ({ pageParam, signal }) => {
      const query = new URLSearchParams({ limit: String(PAGE_SIZE_MAX) });
      if (pageParam) query.set('cursor', pageParam);
      return apiRequest(`/host/domain/${domainId}/users?${query.toString()}`, {
        schema: domainUserListAnswerSchema,
        signal,
      });
    },
    getNextPageParam: (page) => page.next_cursor,
  });
}

/** GET /api/host/domain/{id}/users/{userId}/mail-log: the last 7 days, newest first (null: not asked yet). */
export function useMailLog(domainId: number, id: number | null) {
  return useQuery<MailLogEntry[], ApiError>({
    queryKey: domainUserKeys.mailLog(domainId, id ?? 0),
    enabled: id !== null,
    // While it is open the log follows what the mail host does (a deferred message is retried).
    refetchInterval: 5_000,
    queryFn: async ({ signal }) =>
      (await apiRequest(`/host/domain/${domainId}/users/${id}/mail-log`, { schema: mailLogAnswerSchema, signal })).data,
  });
}

/** Every change reloads the list (an account moves by uid; counts show on the domain). */
function useRefreshUsers(domainId: number) {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: ['domains', domainId] });
}

/** POST /api/host/domain/{id}/users */
export function useDomainUserCreate(domainId: number) {
  const refresh = useRefreshUsers(domainId);
  return useMutation<DomainUserAnswer, ApiError, DomainUserCreatePayload>({
    mutationFn: (payload) =>
      apiRequest(`/host/domain/${domainId}/users`, { method: 'POST', body: payload, schema: domainUserAnswerSchema }),
    onSuccess: () => refresh(),
  });
}

/** PATCH /api/host/domain/{id}/users/{userId}: quota or enabled. */
export function useDomainUserUpdate(domainId: number) {
  const refresh = useRefreshUsers(domainId);
  return useMutation<DomainUserAnswer, ApiError, { account: DomainUser; changes: DomainUserUpdate }>({
    mutationFn: ({ account, changes }) =>
      apiRequest(`/host/domain/${domainId}/users/${account.id}`, {
        method: 'PATCH',
        body: changes,
        schema: domainUserAnswerSchema,
      }),
    onSuccess: () => refresh(),
  });
}

/** POST /api/host/domain/{id}/users/{userId}/password: the owner or an admin sets a new one. */
export function useDomainUserPasswordReset(domainId: number) {
  return useMutation<DomainUserAnswer, ApiError, { account: DomainUser; payload: DomainUserPasswordReset }>({
    mutationFn: ({ account, payload }) =>
      apiRequest(`/host/domain/${domainId}/users/${account.id}/password`, {
        method: 'POST',
        body: payload,
        schema: domainUserAnswerSchema,
      }),
  });
}

/** DELETE /api/host/domain/{id}/users/{userId} */
export function useDomainUserDelete(domainId: number) {
  const refresh = useRefreshUsers(domainId);
  return useMutation<z.output<typeof messageAnswerSchema>, ApiError, DomainUser>({
    mutationFn: (account) => apiRequest(`/host/domain/${domainId}/users/${account.id}`, { method: 'DELETE', schema: messageAnswerSchema }),
    onSuccess: () => refresh(),
  });
}

/** GET /api/host/domain/{id}/users/{userId}/autoreply: the mailbox's autoresponder. */
export function useAutoreply(domainId: number, accountId: number | null) {
  return useQuery<Autoreply, ApiError>({
    queryKey: [...domainUserKeys.list(domainId), accountId, 'autoreply'],
    enabled: accountId !== null,
    // Opened to be edited: always what the server holds now.
    staleTime: 0,
    queryFn: async ({ signal }) =>
      (await apiRequest(`/host/domain/${domainId}/users/${accountId}/autoreply`, { schema: autoreplyAnswerSchema, signal })).data,
  });
}

/** PUT /api/host/domain/{id}/users/{userId}/autoreply */
export function useAutoreplySave(domainId: number) {
  const refresh = useRefreshUsers(domainId);
  return useMutation<z.output<typeof autoreplyAnswerSchema>, ApiError, { account: DomainUser; payload: AutoreplyPayload }>({
    mutationFn: ({ account, payload }) =>
      apiRequest(`/host/domain/${domainId}/users/${account.id}/autoreply`, { method: 'PUT', body: payload, schema: autoreplyAnswerSchema }),
    onSuccess: () => refresh(),
  });
}
