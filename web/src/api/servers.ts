import { useQuery } from '@tanstack/react-query';
import { webServersAnswerSchema, type WebServer } from '@berth/contracts';
import { type ApiError, apiRequest } from './client.ts';

/** GET /api/system/servers (super admins, servers.manage): asked only by who may read it. */
export function useServers(enabled: boolean) {
  return useQuery<WebServer[], ApiError>({
    queryKey: ['system', 'servers'],
    enabled,
    queryFn: async ({ signal }) => (await apiRequest('/system/servers', { schema: webServersAnswerSchema, signal })).data,
  });
}
