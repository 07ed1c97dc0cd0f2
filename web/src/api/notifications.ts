import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  notificationListAnswerSchema,
  notificationReadAnswerSchema,
  notificationsReadAllAnswerSchema,
  type NotificationListAnswer,
} from '@berth/contracts';
import { type ApiError, apiRequest } from './client.ts';
import { dashboardKeys } from './dashboard.ts';

export const notificationKeys = {
  all: ['notifications'] as const,
  unread: ['notifications', 'unread'] as const,
};

/** GET /api/notifications, page after page (keyset cursor), newest first. */
export function useNotifications() {
  return useInfiniteQuery<NotificationListAnswer, ApiError>({
    queryKey: notificationKeys.all,
    queryFn: ({ pageParam, signal }) => {
      const query = typeof pageParam === 'string' ? `?cursor=${encodeURIComponent(pageParam)}` : '';
      return apiRequest(`/notifications${query}`, { schema: notificationListAnswerSchema, signal });
    },
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor,
    staleTime: 0,
  });
}

/** The unread count alone (the header's bell): the first page of one row carries it. */
export function useUnreadNotifications() {
  return useQuery<number, ApiError>({
    queryKey: notificationKeys.unread,
    queryFn: async ({ signal }) => (await apiRequest('/notifications?limit=1', { schema: notificationListAnswerSchema, signal })).unread,
    staleTime: 30_000,
  });
}

/** Reading changes the list and the dashboard's unread number. */
function useRefreshNotifications() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: notificationKeys.all }),
      queryClient.invalidateQueries({ queryKey: dashboardKeys.dashboard }),
    ]);
}

/** POST /api/notifications/{id}/read */
export function useMarkNotificationRead() {
  const refresh = useRefreshNotifications();
  return useMutation<unknown, ApiError, number>({
    mutationFn: (id) => apiRequest(`/notifications/${id}/read`, { method: 'POST', schema: notificationReadAnswerSchema }),
    onSuccess: () => refresh(),
  });
}

/** POST /api/notifications/read-all */
export function useMarkAllNotificationsRead() {
  const refresh = useRefreshNotifications();
  return useMutation<unknown, ApiError>({
    mutationFn: () => apiRequest('/notifications/read-all', { method: 'POST', schema: notificationsReadAllAnswerSchema }),
    onSuccess: () => refresh(),
  });
}
