import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { securitySettingsAnswerSchema, type SecuritySettings, type SecuritySettingsPayload } from '@berth/contracts';
import { type ApiError, apiRequest } from './client.ts';
import { queryKeys } from './queries.ts';
import type { z } from 'zod';

const securityKey = ['system', 'security'] as const;
export type SecuritySettingsAnswer = z.output<typeof securitySettingsAnswerSchema>;

/** GET /api/system/security: who must have a second factor. */
export function useSecuritySettings() {
  return useQuery<SecuritySettings, ApiError>({
    queryKey: securityKey,
    queryFn: async ({ signal }) => (await apiRequest('/system/security', { schema: securitySettingsAnswerSchema, signal })).data,
  });
}

/** PATCH /api/system/security */
export function useSecuritySettingsUpdate() {
  const queryClient = useQueryClient();
  return useMutation<SecuritySettingsAnswer, ApiError, SecuritySettingsPayload>({
    mutationFn: (payload) => apiRequest('/system/security', { method: 'PATCH', body: payload, schema: securitySettingsAnswerSchema }),
    onSuccess: (answer) => {
      queryClient.setQueryData(securityKey, answer.data);
      // The signed-in admin may now be one who must set up a second factor.
      return queryClient.invalidateQueries({ queryKey: queryKeys.currentUser });
    },
  });
}
