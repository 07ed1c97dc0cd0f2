import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  domainOptionsAnswerSchema,
  languagesAnswerSchema,
  menuAnswerSchema,
  userAnswerSchema,
  type DomainOption,
  type Language,
  type LanguageCode,
  type MenuItem,
  type User,
} from '@berth/contracts';
import type { z } from 'zod';
import { type ApiError, apiRequest } from './client.ts';
import { type CurrentUser, queryKeys } from './queries.ts';

/* The calls of the signed-in shell: menu, domain selector, cart, languages, notifications. */

export const shellKeys = {
  languages: ['languages'] as const,
  menu: ['menu'] as const,
  liveDomains: ['domains', 'live'] as const,
  domainMenu: (id: number) => ['domains', id, 'menu'] as const,
  cart: ['cart'] as const,
};

export type UserAnswer = z.output<typeof userAnswerSchema>;

/** Answers that carry the user replace the cached one, so the header re-renders at once. */
export function useStoreUser() {
  const queryClient = useQueryClient();
  return (user: User) => {
    queryClient.setQueryData<CurrentUser>(queryKeys.currentUser, (current) => (current ? { ...current, user } : current));
  };
}

/** GET /api/languages: rarely changes, so it is kept for the visit. */
export function useLanguages() {
  return useQuery<Language[], ApiError>({
    queryKey: shellKeys.languages,
    queryFn: async ({ signal }) => (await apiRequest('/languages', { schema: languagesAnswerSchema, signal })).data,
    staleTime: Infinity,
  });
}

/** PATCH /api/user/language → the user (with the new language) and a message in it. */
export function useLanguageChange() {
  const storeUser = useStoreUser();
  return useMutation<UserAnswer, ApiError, LanguageCode>({
    mutationFn: (language) => apiRequest('/user/language', { method: 'PATCH', body: { language }, schema: userAnswerSchema }),
    onSuccess: (answer) => {
      storeUser(answer.data);
    },
  });
}

/** PATCH /api/user/notification-viewed: the 2FA reminder is shown once. */
export function useNotificationViewed() {
  const storeUser = useStoreUser();
  return useMutation<UserAnswer, ApiError, 'google2fa'>({
    mutationFn: (notification) =>
      apiRequest('/user/notification-viewed', {
        method: 'PATCH',
        body: { notification },
        schema: userAnswerSchema,
      }),
    onSuccess: (answer) => {
      storeUser(answer.data);
    },
  });
}

/** GET /api/menu: the role's navigation tree; titles are i18n keys. */
export function useMenu() {
  return useQuery<MenuItem[], ApiError>({
    queryKey: shellKeys.menu,
    queryFn: async ({ signal }) => (await apiRequest('/menu', { schema: menuAnswerSchema, signal })).data,
    staleTime: 5 * 60_000,
  });
}

/**
 * GET /api/domains/live: the domain selector's options (only domains that have not expired).
 * Thousands for an admin, so it loads only once something needs it.
 */
export function useLiveDomains(enabled: boolean) {
  return useQuery<DomainOption[], ApiError>({
    queryKey: shellKeys.liveDomains,
    queryFn: async ({ signal }) => (await apiRequest('/domains/live', { schema: domainOptionsAnswerSchema, signal })).data,
    enabled,
    staleTime: 60_000,
  });
}

/** GET /api/host/domain/:id/menu: the selected domain's own pages. */
export function useDomainMenu(id: number | null) {
  return useQuery<MenuItem[], ApiError>({
    queryKey: shellKeys.domainMenu(id ?? 0),
    queryFn: async ({ signal }) => (await apiRequest(`/host/domain/${id ?? 0}/menu`, { schema: menuAnswerSchema, signal })).data,
    enabled: id !== null,
    staleTime: 5 * 60_000,
  });
}
