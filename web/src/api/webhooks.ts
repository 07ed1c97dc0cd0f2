import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  messageAnswerSchema,
  webhookDeliveriesAnswerSchema,
  webhookEndpointsAnswerSchema,
  webhookSecretAnswerSchema,
  webhookAllowedRangesAnswerSchema,
  type MessageAnswer,
  type WebhookAllowedRanges,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookEndpointPayload,
} from '@berth/contracts';
import type { z } from 'zod';
import { type ApiError, apiRequest } from './client.ts';

/* /api/system/webhooks: the signed-in admin's tenant's endpoints (webhooks.manage). */

const keys = {
  all: ['system', 'webhooks'] as const,
  deliveries: (id: number) => ['system', 'webhooks', id, 'deliveries'] as const,
};
export type WebhookSecretAnswer = z.output<typeof webhookSecretAnswerSchema>;

export function useWebhooks(enabled: boolean) {
  return useQuery<WebhookEndpoint[], ApiError>({
    queryKey: keys.all,
    enabled,
    queryFn: async ({ signal }) => (await apiRequest('/system/webhooks', { schema: webhookEndpointsAnswerSchema, signal })).data,
  });
}

/** The endpoint's last 100 attempts, refreshed every 5 s while shown. */
export function useWebhookDeliveries(id: number) {
  return useQuery<WebhookDelivery[], ApiError>({
    queryKey: keys.deliveries(id),
    refetchInterval: 5_000,
    queryFn: async ({ signal }) =>
      (await apiRequest(`/system/webhooks/${id}/deliveries`, { schema: webhookDeliveriesAnswerSchema, signal })).data,
  });
}

export function useWebhookCreate() {
  const queryClient = useQueryClient();
  return useMutation<WebhookSecretAnswer, ApiError, WebhookEndpointPayload>({
    mutationFn: (payload) => apiRequest('/system/webhooks', { method: 'POST', body: payload, schema: webhookSecretAnswerSchema }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: keys.all }),
  });
}

export function useWebhookRotate() {
  const queryClient = useQueryClient();
  return useMutation<WebhookSecretAnswer, ApiError, number>({
    mutationFn: (id) => apiRequest(`/system/webhooks/${id}/rotate`, { method: 'POST', schema: webhookSecretAnswerSchema }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: keys.all }),
  });
}

/** Test, delete and replay: a message answer, and the lists refresh. */
export function useWebhookAction() {
  const queryClient = useQueryClient();
  return useMutation<MessageAnswer, ApiError, { path: string; method: 'POST' | 'DELETE' }>({
    mutationFn: ({ path, method }) => apiRequest(path, { method, schema: messageAnswerSchema }),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: keys.all }),
  });
}

const rangesKey = ['system', 'webhooks', 'allowed-ranges'] as const;

/** GET /api/system/webhooks/allowed-ranges (super admins: webhooks.allow_ranges). */
export function useWebhookAllowedRanges(enabled: boolean) {
  return useQuery<WebhookAllowedRanges, ApiError>({
    queryKey: rangesKey,
    enabled,
    queryFn: async ({ signal }) =>
      (await apiRequest('/system/webhooks/allowed-ranges', { schema: webhookAllowedRangesAnswerSchema, signal })).data,
  });
}

/** PUT: the whole list; a 422 names the line (`ranges.<n>`) that is not an address or range. */
export function useWebhookAllowedRangesSave() {
  const queryClient = useQueryClient();
  return useMutation<z.output<typeof webhookAllowedRangesAnswerSchema>, ApiError, string[]>({
    mutationFn: (ranges) =>
      apiRequest('/system/webhooks/allowed-ranges', { method: 'PUT', body: { ranges }, schema: webhookAllowedRangesAnswerSchema }),
    onSuccess: (answer) => queryClient.setQueryData(rangesKey, answer.data),
  });
}
