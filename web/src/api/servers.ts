import { useQuery } from '@tanstack/react-query';
import { certificateAnswerSchema, webServersAnswerSchema, type Certificate, type WebServer } from '@berth/contracts';
import { type ApiError, apiRequest } from './client.ts';

/** GET /api/system/servers (super admins, servers.manage): asked only by who may read it. */
export function useServers(enabled: boolean) {
  return useQuery<WebServer[], ApiError>({
    queryKey: ['system', 'servers'],
    enabled,
    queryFn: async ({ signal }) => (await apiRequest('/system/servers', { schema: webServersAnswerSchema, signal })).data,
  });
}

/** GET /api/system/certificate: the panel's own certificate, every server's default (super admins). */
export function usePlatformCertificate(enabled: boolean) {
  return useQuery<Certificate, ApiError>({
    queryKey: ['system', 'certificate'],
    enabled,
    queryFn: async ({ signal }) => (await apiRequest('/system/certificate', { schema: certificateAnswerSchema, signal })).data,
    refetchInterval: (query) => (query.state.data?.state === 'pending' ? 5_000 : false),
  });
}
