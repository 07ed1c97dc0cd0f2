import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { mailAliasAnswerSchema, mailAliasListAnswerSchema, type MailAlias, type MailAliasCreatePayload } from '@berth/contracts';
import { type ApiError, apiRequest } from './client.ts';

/* The calls of /host/domain/{id}/aliases: a domain's forwarders. */

export const mailAliasKeys = {
  /** Under the `domains` prefix, so anything that refreshes a domain refreshes its pages too. */
  list: (domainId: number) => ['domains', domainId, 'aliases'] as const,
};

type MailAliasAnswer = z.output<typeof mailAliasAnswerSchema>;

/** GET /api/host/domain/{id}/aliases */
export function useMailAliases(domainId: number, enabled = true) {
  return useQuery<MailAlias[], ApiError>({
    queryKey: mailAliasKeys.list(domainId),
    enabled,
    queryFn: async ({ signal }) =>
      (await apiRequest(`/host/domain/${domainId}/aliases`, { schema: mailAliasListAnswerSchema, signal })).data,
  });
}

/** POST /api/host/domain/{id}/aliases */
export function useMailAliasCreate(domainId: number) {
  const queryClient = useQueryClient();
  return useMutation<MailAliasAnswer, ApiError, MailAliasCreatePayload>({
    mutationFn: (payload) =>
      apiRequest(`/host/domain/${domainId}/aliases`, { method: 'POST', body: payload, schema: mailAliasAnswerSchema }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: mailAliasKeys.list(domainId) }),
  });
}

/** DELETE /api/host/domain/{id}/aliases/{aliasId} */
export function useMailAliasDelete(domainId: number) {
  const queryClient = useQueryClient();
  return useMutation<MailAliasAnswer, ApiError, MailAlias>({
    mutationFn: (alias) => apiRequest(`/host/domain/${domainId}/aliases/${alias.id}`, { method: 'DELETE', schema: mailAliasAnswerSchema }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: mailAliasKeys.list(domainId) }),
  });
}
