import type { MessageAnswer } from '@berth/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  adminCatalogueAnswerSchema,
  hostingPlanAnswerSchema,
  messageAnswerSchema,
  tldPriceAnswerSchema,
  type HostingPlanPayload,
  type ShopSettingsPayload,
  type TldPricePayload,
} from '@berth/contracts';
import type { z } from 'zod';
import { type ApiError, apiRequest } from './client.ts';
import { shopKeys } from './shop.ts';

/* The tenant's catalogue administration (/system/partner/catalogue): settings, plans, TLD prices. */

export const catalogueKeys = { admin: ['catalogue', 'admin'] as const };

export type AdminCatalogue = z.output<typeof adminCatalogueAnswerSchema>['data'];
type CatalogueAnswer = z.output<typeof adminCatalogueAnswerSchema>;
type PlanAnswer = z.output<typeof hostingPlanAnswerSchema>;
type TldAnswer = z.output<typeof tldPriceAnswerSchema>;

/** GET /api/system/shop/catalogue: settings and every product, inactive ones included. */
export function useAdminCatalogue(enabled = true) {
  return useQuery<AdminCatalogue, ApiError>({
    queryKey: catalogueKeys.admin,
    queryFn: async ({ signal }) => (await apiRequest('/system/shop/catalogue', { schema: adminCatalogueAnswerSchema, signal })).data,
    enabled,
  });
}

/** After a change both the admin view and the shop's own (cached) catalogue are out of date. */
function useRefresh() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: catalogueKeys.admin }),
      queryClient.invalidateQueries({ queryKey: shopKeys.catalogue }),
    ]);
}

/** PATCH /api/system/shop/settings */
export function useShopSettingsUpdate() {
  const queryClient = useQueryClient();
  const refresh = useRefresh();
  return useMutation<CatalogueAnswer, ApiError, ShopSettingsPayload>({
    mutationFn: (payload) => apiRequest('/system/shop/settings', { method: 'PATCH', body: payload, schema: adminCatalogueAnswerSchema }),
    onSuccess: (answer) => {
      queryClient.setQueryData(catalogueKeys.admin, answer.data);
      void refresh();
    },
  });
}

/** POST /api/system/shop/plans, or PATCH /api/system/shop/plans/{id} when `id` is given. */
export function usePlanSave() {
  const refresh = useRefresh();
  return useMutation<PlanAnswer, ApiError, { id: number | null; payload: HostingPlanPayload }>({
    mutationFn: ({ id, payload }) =>
      id === null
        ? apiRequest('/system/shop/plans', { method: 'POST', body: payload, schema: hostingPlanAnswerSchema })
        : apiRequest(`/system/shop/plans/${id}`, { method: 'PATCH', body: payload, schema: hostingPlanAnswerSchema }),
    onSuccess: () => {
      void refresh();
    },
  });
}

/** DELETE /api/system/shop/plans/{id} */
export function usePlanDelete() {
  const refresh = useRefresh();
  return useMutation<MessageAnswer, ApiError, number>({
    mutationFn: (id) => apiRequest(`/system/shop/plans/${id}`, { method: 'DELETE', schema: messageAnswerSchema }),
    onSuccess: () => {
      void refresh();
    },
  });
}

/** POST /api/system/shop/tlds, or PATCH /api/system/shop/tlds/{id} (the TLD itself stays) when `id` is given. */
export function useTldSave() {
  const refresh = useRefresh();
  return useMutation<TldAnswer, ApiError, { id: number | null; payload: TldPricePayload }>({
    mutationFn: ({ id, payload }) => {
      if (id === null) return apiRequest('/system/shop/tlds', { method: 'POST', body: payload, schema: tldPriceAnswerSchema });
      const { tld: _fixed, ...patch } = payload;
      return apiRequest(`/system/shop/tlds/${id}`, { method: 'PATCH', body: patch, schema: tldPriceAnswerSchema });
    },
    onSuccess: () => {
      void refresh();
    },
  });
}

/** DELETE /api/system/shop/tlds/{id} */
export function useTldDelete() {
  const refresh = useRefresh();
  return useMutation<MessageAnswer, ApiError, number>({
    mutationFn: (id) => apiRequest(`/system/shop/tlds/${id}`, { method: 'DELETE', schema: messageAnswerSchema }),
    onSuccess: () => {
      void refresh();
    },
  });
}
