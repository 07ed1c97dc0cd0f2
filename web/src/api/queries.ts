import { MutationCache, QueryCache, QueryClient, useMutation, useQuery, useQueryClient, type QueryKey } from '@tanstack/react-query';
import {
  currentUserAnswerSchema,
  sessionAnswerSchema,
  tenantAnswerSchema,
  type CurrentUserAnswer,
  type LoginPayload,
  type SessionData,
  type Tenant,
} from '@berth/contracts';
import { applyUserLanguage } from '../i18n/i18n.ts';
import { ApiError, apiRequest } from './client.ts';

export type CurrentUser = CurrentUserAnswer['data'];

export const queryKeys = {
  currentUser: ['user'] as const,
  tenant: ['tenant'] as const,
} satisfies Record<string, QueryKey>;

/** Client errors (4xx) are answers, not glitches: retrying them only delays the screen. */
function shouldRetry(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
  return failureCount < 2;
}

export function createQueryClient(): QueryClient {
  // A call refused because a second factor must be set up first: reload the user, whose answer
  // says so, and the shell shows only the set-up (shell/Shell.tsx).
  const onError = (error: unknown) => {
    if (error instanceof ApiError && error.isTwoFactorSetupRequired) void client.invalidateQueries({ queryKey: queryKeys.currentUser });
  };
  const client: QueryClient = new QueryClient({
    queryCache: new QueryCache({ onError }),
    mutationCache: new MutationCache({ onError }),
    defaultOptions: {
      queries: {
        retry: shouldRetry,
        staleTime: 30_000,
        refetchOnWindowFocus: false,
      },
      mutations: { retry: false },
    },
  });
  return client;
}

/** GET /api/user: the session's user and tenant; fails with a 401 ApiError when logged out. */
export function useCurrentUser() {
  const queryClient = useQueryClient();
  return useQuery<CurrentUser, ApiError>({
    queryKey: queryKeys.currentUser,
    queryFn: async ({ signal }) => {
      const data = (await apiRequest('/user', { schema: currentUserAnswerSchema, signal })).data;
      // The answer holds this host's tenant: the pages (usePageTitle) need no GET /api/tenant of their own.
      queryClient.setQueryData<Tenant>(queryKeys.tenant, data.tenant);
      return data;
    },
  });
}

/** GET /api/tenant: the tenant of this host name (public). */
export function useTenant() {
  return useQuery<Tenant, ApiError>({
    queryKey: queryKeys.tenant,
    queryFn: async ({ signal }) => (await apiRequest('/tenant', { schema: tenantAnswerSchema, signal })).data,
    staleTime: 5 * 60_000,
  });
}

/** POST /api/login. A signed-in answer goes straight into the current-user cache. */
export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (payload: LoginPayload) => apiRequest('/login', { method: 'POST', body: payload, schema: sessionAnswerSchema }),
    onSuccess: (answer) => {
      storeSession(queryClient, answer.data);
    },
  });
}

/**
 * Every answer that signs someone in (login, 2FA, OTP, reset, registration) carries the
 * session: a signed-in user goes straight into the current-user cache.
 */
export function storeSession(queryClient: QueryClient, session: SessionData): void {
  if (session.status !== 'authenticated') return;
  const { user, tenant, abilities } = session;
  queryClient.setQueryData<CurrentUser>(queryKeys.currentUser, { user, tenant, abilities });
  queryClient.setQueryData<Tenant>(queryKeys.tenant, tenant);
  applyUserLanguage(user.language);
}

/** POST /api/logout. The caller leaves the shell before `forgetSession` drops the user data. */
export function useLogout() {
  return useMutation<unknown, ApiError>({
    mutationFn: () => apiRequest('/logout', { method: 'POST' }),
  });
}

/** Drops every cached answer that belonged to the session; the tenant stays (it is per host). */
export function forgetSession(queryClient: QueryClient): void {
  queryClient.removeQueries({
    predicate: (query) => query.queryKey[0] !== queryKeys.tenant[0],
  });
}
