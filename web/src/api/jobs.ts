import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { jobsAnswerSchema, messageAnswerSchema, type JobState, type JobsAnswer, type MessageAnswer } from '@berth/contracts';
import { type ApiError, apiRequest } from './client.ts';

const jobKeys = { all: ['system', 'jobs'] as const, list: (state: JobState | '') => ['system', 'jobs', state] as const };

/** GET /api/system/jobs (super admins, jobs.manage), refreshed every 5 s while the page is open. */
export function useJobs(state: JobState | '', enabled: boolean) {
  return useQuery<JobsAnswer, ApiError>({
    queryKey: jobKeys.list(state),
    enabled,
    placeholderData: keepPreviousData,
    refetchInterval: 5_000,
    queryFn: ({ signal }) => apiRequest(`/system/jobs${state ? `?state=${state}` : ''}`, { schema: jobsAnswerSchema, signal }),
  });
}

/** POST /api/system/jobs/{id}/retry: a failed job runs again. */
export function useJobRetry() {
  const queryClient = useQueryClient();
  return useMutation<MessageAnswer, ApiError, string>({
    mutationFn: (id) => apiRequest(`/system/jobs/${encodeURIComponent(id)}/retry`, { method: 'POST', schema: messageAnswerSchema }),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: jobKeys.all }),
  });
}
