import { useQuery } from '@tanstack/react-query';
import { dashboardAnswerSchema, type Dashboard } from '@berth/contracts';
import { type ApiError, apiRequest } from './client.ts';

export const dashboardKeys = {
  dashboard: ['dashboard'] as const,
};

/** GET /api/dashboard: the numbers of the first page; fresh on every visit. */
export function useDashboard() {
  return useQuery<Dashboard, ApiError>({
    queryKey: dashboardKeys.dashboard,
    queryFn: async ({ signal }) => (await apiRequest('/dashboard', { schema: dashboardAnswerSchema, signal })).data,
    staleTime: 0,
  });
}
