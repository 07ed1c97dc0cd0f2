import { keepPreviousData, useInfiniteQuery, useMutation, useQuery, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import {
  creditAdjustmentAnswerSchema,
  creditAnswerSchema,
  topUpAnswerSchema,
  type CreditAdjustmentPayload,
  type CreditEntryType,
  type TopUpPayload,
} from '@berth/contracts';
import type { z } from 'zod';
import { type ApiError, apiRequest } from './client.ts';
import { queryKeys } from './queries.ts';

/* Partner credit: the balance, the ledger with its filters, top-ups and admin adjustments. */

export interface CreditFilter {
  /** ISO dates (`2026-11-01`), empty for no bound; `to` is inclusive. */
  from: string;
  to: string;
  type: CreditEntryType | '';
}

export const creditKeys = {
  all: ['credit'] as const,
  ledger: (filter: CreditFilter) => ['credit', 'ledger', filter] as const,
};

export type CreditPage = z.output<typeof creditAnswerSchema>;
export type TopUpAnswer = z.output<typeof topUpAnswerSchema>;
export type CreditAdjustmentAnswer = z.output<typeof creditAdjustmentAnswerSchema>;

const PAGE_SIZE = 50;

/** The filter as a query string (also for the CSV export link). */
export function creditSearch(filter: CreditFilter, extra: Record<string, string> = {}): string {
  const search = new URLSearchParams();
  if (filter.from) search.set('from', filter.from);
  if (filter.to) search.set('to', filter.to);
  if (filter.type) search.set('type', filter.type);
  for (const [key, value] of Object.entries(extra)) search.set(key, value);
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** Where the browser downloads the filtered ledger as CSV. */
export const creditExportUrl = (filter: CreditFilter): string => `/api/credit/export.csv${creditSearch(filter)}`;

/** GET /api/credit: balance, top-up limits and keyset pages of the ledger, newest first. */
export function useCreditLedger(filter: CreditFilter) {
  return useInfiniteQuery<CreditPage, ApiError, InfiniteData<CreditPage>, ReturnType<typeof creditKeys.ledger>, string | null>({
    queryKey: creditKeys.ledger(filter),
    queryFn: ({ pageParam, signal }) =>
      apiRequest(`/credit${creditSearch(filter, { limit: String(PAGE_SIZE), ...(pageParam ? { cursor: pageParam } : {}) })}`, {
        schema: creditAnswerSchema,
        signal,
      }),
    initialPageParam: null,
    getNextPageParam: (last) => last.next_cursor,
    placeholderData: keepPreviousData,
  });
}

/** GET /api/credit (first page only): the balance and the top-up limits, e.g. for the add-credit dialog. */
export function useCreditSummary(enabled = true) {
  return useQuery<CreditPage['data'], ApiError>({
    queryKey: [...creditKeys.all, 'summary'],
    queryFn: async ({ signal }) => (await apiRequest('/credit?limit=1', { schema: creditAnswerSchema, signal })).data,
    enabled,
  });
}

/** The balance shows in the header (the user's commission) and on the credit page. */
function useRefreshCredit() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: creditKeys.all }),
      queryClient.invalidateQueries({ queryKey: queryKeys.currentUser }),
      queryClient.invalidateQueries({ queryKey: ['invoices'] }),
    ]);
}

/** POST /api/credit/top-up → an unpaid invoice with how to pay it. */
export function useTopUp() {
  const refresh = useRefreshCredit();
  return useMutation<TopUpAnswer, ApiError, TopUpPayload>({
    mutationFn: (payload) => apiRequest('/credit/top-up', { method: 'POST', body: payload, schema: topUpAnswerSchema }),
    onSuccess: () => {
      void refresh();
    },
  });
}

/** POST /api/system/credit/adjustments: an admin credits or debits a user of the tenant. */
export function useCreditAdjustment() {
  const refresh = useRefreshCredit();
  return useMutation<CreditAdjustmentAnswer, ApiError, CreditAdjustmentPayload>({
    mutationFn: (payload) =>
      apiRequest('/system/credit/adjustments', { method: 'POST', body: payload, schema: creditAdjustmentAnswerSchema }),
    onSuccess: () => {
      void refresh();
    },
  });
}

/* Admins: another user's credit (super admins any user, host admins their tenant's; else 404). */

export const userCreditKeys = {
  // Under creditKeys.all, so that an adjustment refreshes it too.
  ledger: (userId: number, filter: CreditFilter) => [...creditKeys.all, 'user', userId, filter] as const,
};

/** Where the browser downloads a user's filtered ledger as CSV. */
export const userCreditExportUrl = (userId: number, filter: CreditFilter): string =>
  `/api/system/credit/${userId}/export.csv${creditSearch(filter)}`;

/** GET /api/system/credit/{userId}: the user's balance and keyset pages of their ledger, newest first. */
export function useUserCreditLedger(userId: number, filter: CreditFilter, enabled = true) {
  return useInfiniteQuery<CreditPage, ApiError, InfiniteData<CreditPage>, ReturnType<typeof userCreditKeys.ledger>, string | null>({
    queryKey: userCreditKeys.ledger(userId, filter),
    queryFn: ({ pageParam, signal }) =>
      apiRequest(
        `/system/credit/${userId}${creditSearch(filter, { limit: String(PAGE_SIZE), ...(pageParam ? { cursor: pageParam } : {}) })}`,
        { schema: creditAnswerSchema, signal },
      ),
    initialPageParam: null,
    getNextPageParam: (last) => last.next_cursor,
    // A new filter keeps the rows on screen until its answer; another user's never show.
    placeholderData: (previous, previousQuery) => (previousQuery?.queryKey[2] === userId ? previous : undefined),
    enabled,
  });
}
