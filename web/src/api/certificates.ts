import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { certificateAnswerSchema, type Certificate, type CertificateUploadPayload } from '@berth/contracts';
import type { z } from 'zod';
import { type ApiError, apiRequest } from './client.ts';

/* The certificate section of a domain's page (/host/domain/{id}/edit). */

const certificateKey = (id: number) => ['domains', 'detail', id, 'certificate'] as const;

/** GET /api/host/domain/{id}/certificate: asked again every few seconds while one is being ordered. */
export function useCertificate(id: number) {
  return useQuery<Certificate, ApiError>({
    queryKey: certificateKey(id),
    queryFn: async ({ signal }) => (await apiRequest(`/host/domain/${id}/certificate`, { schema: certificateAnswerSchema, signal })).data,
    refetchInterval: (query) => (query.state.data?.state === 'pending' ? 3_000 : false),
  });
}

/** POST /api/host/domain/{id}/certificate/renew: a new one is ordered now. */
export function useCertificateRenew(id: number) {
  const queryClient = useQueryClient();
  return useMutation<z.output<typeof certificateAnswerSchema>, ApiError, void>({
    mutationFn: () => apiRequest(`/host/domain/${id}/certificate/renew`, { method: 'POST', schema: certificateAnswerSchema }),
    onSuccess: (answer) => {
      queryClient.setQueryData(certificateKey(id), answer.data);
      // The order runs in the background: ask again shortly for its outcome.
      setTimeout(() => void queryClient.invalidateQueries({ queryKey: certificateKey(id) }), 3_000);
    },
  });
}

/** PUT /api/host/domain/{id}/certificate: one's own certificate and key. */
export function useCertificateUpload(id: number) {
  const queryClient = useQueryClient();
  return useMutation<z.output<typeof certificateAnswerSchema>, ApiError, CertificateUploadPayload>({
    mutationFn: (payload) =>
      apiRequest(`/host/domain/${id}/certificate`, { method: 'PUT', body: payload, schema: certificateAnswerSchema }),
    onSuccess: (answer) => queryClient.setQueryData(certificateKey(id), answer.data),
  });
}
