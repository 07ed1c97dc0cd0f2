import { useInfiniteQuery, useMutation, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { promoAnswerSchema, promoListAnswerSchema, type PromoPatch, type PromoPayload } from '@berth/contracts';
import type { z } from 'zod';
import { type ApiError, apiRequest } from './client.ts';

/* The partner's promo codes (/system/partner/promo). */

export const promoKeys = { list: ['promo', 'list'] as const };

export type PromoPage = z.output<typeof promoListAnswerSchema>;
export type PromoAnswer = z.output<typeof promoAnswerSchema>;

/** GET /api/system/partner/promo: keyset pages, newest first. */
export function usePromoList() {
  return useInfiniteQuery<PromoPage, ApiError, InfiniteData<PromoPage>, typeof promoKeys.list, string | null>({
    queryKey: promoKeys.list,
    queryFn: ({ pageParam, signal }) =>
      apiRequest(`/system/partner/promo?limit=50${pageParam ? `&cursor=${encodeURIComponent(pageParam)}` : ''}`, {
        schema: promoListAnswerSchema,
        signal,
      }),
    initialPageParam: null,
    getNextPageParam: (last) => last.next_cursor,
  });
}

function useRefreshPromos() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: promoKeys.list });
}

/** POST /api/system/partner/promo */
export function usePromoCreate() {
  const refresh = useRefreshPromos();
  return useMutation<PromoAnswer, ApiError, PromoPayload>({
    mutationFn: (payload) => apiRequest('/system/partner/promo', { method: 'POST', body: payload, schema: promoAnswerSchema }),
    onSuccess: () => {
      void refresh();
    },
  });
}

/** PATCH /api/system/partner/promo/{id} */
export function usePromoUpdate() {
  const refresh = useRefreshPromos();
  return useMutation<PromoAnswer, ApiError, { id: number; patch: PromoPatch }>({
    mutationFn: ({ id, patch }) => apiRequest(`/system/partner/promo/${id}`, { method: 'PATCH', body: patch, schema: promoAnswerSchema }),
    onSuccess: () => {
      void refresh();
    },
  });
}
