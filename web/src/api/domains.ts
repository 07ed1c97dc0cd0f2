import type { MessageAnswer } from '@berth/contracts';
import { keepPreviousData, useInfiniteQuery, useMutation, useQuery, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import {
  customerListAnswerSchema,
  domainAnswerSchema,
  domainListAnswerSchema,
  messageAnswerSchema,
  webSiteLogsAnswerSchema,
  type Customer,
  type Domain,
  type DomainCreatePayload,
  type DomainSort,
  type DomainUpdatePayload,
  type WebSiteLogs,
} from '@berth/contracts';
import type { z } from 'zod';
import { type ApiError, apiRequest } from './client.ts';
import { shellKeys } from './shell.ts';

/* The calls of the domain pages: /host/domain, /host/domain/create, /host/domain/{id}/edit. */

/** Under the shell's `['domains']` prefix, beside its live list and per-domain menus. */
export const domainKeys = {
  lists: ['domains', 'list'] as const,
  list: (filter: DomainListFilter) => ['domains', 'list', filter] as const,
  detail: (id: number) => ['domains', 'detail', id] as const,
  logs: (id: number) => ['domains', 'detail', id, 'logs'] as const,
  owners: (q: string) => ['domains', 'owners', q] as const,
};

export interface DomainListFilter {
  q: string;
  sort: DomainSort;
}

export type DomainPage = z.output<typeof domainListAnswerSchema>;
export type DomainAnswer = z.output<typeof domainAnswerSchema>;

const DOMAIN_PAGE_SIZE = 50;
const OWNER_SEARCH_SIZE = 20;

function query(params: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== '') search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

/**
 * GET /api/host/domain: keyset pages, each continuing from the last one's `next_cursor`. The
 * previous pages stay on screen while a new search or sort loads.
 */
export function useDomainList(filter: DomainListFilter) {
  return useInfiniteQuery<DomainPage, ApiError, InfiniteData<DomainPage>, ReturnType<typeof domainKeys.list>, string | null>({
    queryKey: domainKeys.list(filter),
    queryFn: ({ pageParam, signal }) =>
      apiRequest(
        `/host/domain${query({ q: filter.q.trim(), sort: filter.sort, limit: DOMAIN_PAGE_SIZE, cursor: pageParam ?? undefined })}`,
        { schema: domainListAnswerSchema, signal },
      ),
    initialPageParam: null,
    getNextPageParam: (last) => last.next_cursor,
    placeholderData: keepPreviousData,
  });
}

/** GET /api/host/domain/{id}: a foreign or missing id fails with a 404 ApiError. */
export function useDomain(id: number, enabled = true) {
  return useQuery<Domain, ApiError>({
    queryKey: domainKeys.detail(id),
    queryFn: async ({ signal }) => (await apiRequest(`/host/domain/${id}`, { schema: domainAnswerSchema, signal })).data,
    enabled,
    // While the web server applies a change, ask again until it says live or why not.
    refetchInterval: (query) => (query.state.data?.web?.state === 'applying' && query.state.data.web.server !== null ? 1_500 : false),
  });
}

/** GET /api/host/domain/{id}/logs: the site's last access and error log lines, asked again every few seconds while shown. */
export function useSiteLogs(id: number) {
  return useQuery<WebSiteLogs, ApiError>({
    queryKey: domainKeys.logs(id),
    queryFn: async ({ signal }) => (await apiRequest(`/host/domain/${id}/logs`, { schema: webSiteLogsAnswerSchema, signal })).data,
    refetchInterval: 5_000,
  });
}

/** GET /api/system/customers?q=: owners an admin may give a domain to (prefix of e-mail or name). */
export function useOwnerSearch(q: string, enabled: boolean) {
  return useQuery<Customer[], ApiError>({
    queryKey: domainKeys.owners(q),
    queryFn: async ({ signal }) =>
      (
        await apiRequest(`/system/customers${query({ q: q.trim(), limit: OWNER_SEARCH_SIZE })}`, {
          schema: customerListAnswerSchema,
          signal,
        })
      ).data,
    enabled,
    placeholderData: keepPreviousData,
  });
}

/** The lists and the shell's selector show the change; a domain's own menu does not depend on it. */
function useRefreshDomainLists() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: domainKeys.lists }),
      queryClient.invalidateQueries({ queryKey: shellKeys.liveDomains }),
    ]);
}

/** POST /api/host/domain → the new domain and the server's message. */
export function useDomainCreate() {
  const queryClient = useQueryClient();
  const refresh = useRefreshDomainLists();
  return useMutation<DomainAnswer, ApiError, DomainCreatePayload>({
    mutationFn: (payload) => apiRequest('/host/domain', { method: 'POST', body: payload, schema: domainAnswerSchema }),
    onSuccess: (answer) => {
      queryClient.setQueryData(domainKeys.detail(answer.data.id), answer.data);
      void refresh();
    },
  });
}

/** POST /api/host/domain/{id}/verify: checks the proof TXT record; the answer replaces the cached domain. */
export function useDomainVerify(id: number) {
  const queryClient = useQueryClient();
  const refresh = useRefreshDomainLists();
  return useMutation<DomainAnswer, ApiError, void>({
    mutationFn: () => apiRequest(`/host/domain/${id}/verify`, { method: 'POST', schema: domainAnswerSchema }),
    onSuccess: (answer) => {
      queryClient.setQueryData(domainKeys.detail(id), answer.data);
      void refresh();
    },
  });
}

/** PATCH /api/host/domain/{id}: the answer replaces the cached domain. */
export function useDomainUpdate(id: number) {
  const queryClient = useQueryClient();
  const refresh = useRefreshDomainLists();
  return useMutation<DomainAnswer, ApiError, DomainUpdatePayload>({
    mutationFn: (payload) => apiRequest(`/host/domain/${id}`, { method: 'PATCH', body: payload, schema: domainAnswerSchema }),
    onSuccess: (answer) => {
      queryClient.setQueryData(domainKeys.detail(id), answer.data);
      void refresh();
    },
  });
}

/**
 * DELETE /api/host/domain/{id}?confirm=<name>. The page that showed the domain stops asking for
 * it first (a refetch would only answer 404); the lists and the selector are refreshed here, and
 * the cached domain is dropped by `forgetDomain` once nothing shows it.
 */
export function useDomainDelete(id: number) {
  const refresh = useRefreshDomainLists();
  return useMutation<MessageAnswer, ApiError, string>({
    mutationFn: (confirm) => apiRequest(`/host/domain/${id}${query({ confirm })}`, { method: 'DELETE', schema: messageAnswerSchema }),
    onSuccess: () => {
      void refresh();
    },
  });
}

/**
 * Drops a deleted domain's cached answers (its settings, its menu) once no page shows them, so
 * that its id reads as missing from now on.
 */
export function useForgetDomain() {
  const queryClient = useQueryClient();
  return (id: number) => {
    queryClient.removeQueries({ queryKey: domainKeys.detail(id), type: 'inactive' });
    queryClient.removeQueries({ queryKey: shellKeys.domainMenu(id), type: 'inactive' });
  };
}
