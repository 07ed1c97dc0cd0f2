import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import {
  apiTokenCreatedAnswerSchema,
  apiTokenListAnswerSchema,
  messageAnswerSchema,
  type ApiToken,
  type ApiTokenCreatePayload,
} from '@berth/contracts';
import { type ApiError, apiRequest } from './client.ts';

const tokenKeys = { own: ['account', 'api-tokens'] as const, tenant: ['system', 'api-tokens'] as const };
export type ApiTokenCreatedAnswer = z.output<typeof apiTokenCreatedAnswerSchema>;

/** GET /api/account/api-tokens, or the tenant's (GET /api/system/api-tokens) for admins. */
export function useApiTokens(scope: 'own' | 'tenant') {
  return useQuery<ApiToken[], ApiError>({
    queryKey: tokenKeys[scope],
    queryFn: async ({ signal }) =>
      (await apiRequest(scope === 'own' ? '/account/api-tokens' : '/system/api-tokens', { schema: apiTokenListAnswerSchema, signal })).data,
  });
}

/** POST /api/account/api-tokens: the answer holds the token, once. */
export function useApiTokenCreate() {
  const queryClient = useQueryClient();
  return useMutation<ApiTokenCreatedAnswer, ApiError, ApiTokenCreatePayload>({
    mutationFn: (payload) => apiRequest('/account/api-tokens', { method: 'POST', body: payload, schema: apiTokenCreatedAnswerSchema }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['account', 'api-tokens'] }),
  });
}

/** DELETE /api/account/api-tokens/{id}, or the admins' DELETE /api/system/api-tokens/{id}. */
export function useApiTokenRevoke(scope: 'own' | 'tenant') {
  const queryClient = useQueryClient();
  return useMutation<z.output<typeof messageAnswerSchema>, ApiError, ApiToken>({
    mutationFn: (token) =>
      apiRequest(`${scope === 'own' ? '/account' : '/system'}/api-tokens/${token.id}`, { method: 'DELETE', schema: messageAnswerSchema }),
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: tokenKeys.own }),
        queryClient.invalidateQueries({ queryKey: tokenKeys.tenant }),
      ]);
    },
  });
}
