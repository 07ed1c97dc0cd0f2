import { useQuery } from '@tanstack/react-query';
import { hostingServicesAnswerSchema, type HostingServices } from '@berth/contracts';
import { type ApiError, apiRequest } from './client.ts';

/** GET /api/host/services: whether the name and mail servers serve what the pages keep. */
export function useHostingServices() {
  return useQuery<HostingServices, ApiError>({
    queryKey: ['host', 'services'],
    // The database a deployment runs on does not change while the page is open.
    staleTime: Infinity,
    queryFn: async ({ signal }) => (await apiRequest('/host/services', { schema: hostingServicesAnswerSchema, signal })).data,
  });
}
