import { useEffect } from 'react';
import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { io } from 'socket.io-client';
import { notificationEventSchema, REALTIME_EVENTS, realtimeChannel } from '@berth/contracts';
import { pushMessage } from '../components/messageStore.ts';
import { dashboardKeys } from './dashboard.ts';
import { notificationKeys } from './notifications.ts';
import { queryKeys } from './queries.ts';
import { shellKeys } from './shell.ts';

/**
 * The user's private realtime channels (docs/product.md §7): a notification shows as a message
 * and reloads the user; `cart-updated` refetches the cart. socket.io reconnects by itself (e.g.
 * after a server restart); the channels are subscribed again on every connect, because a new
 * connection starts in no rooms.
 */
export function useRealtime(userId: number): void {
  const queryClient = useQueryClient();

  useEffect(() => {
    const socket = io({
      path: '/socket.io/',
      transports: ['websocket', 'polling'],
      withCredentials: true,
      // A restarted or redeployed server has the page back within about two seconds; the jitter
      // keeps many browsers from reconnecting in the same instant.
      reconnection: true,
      reconnectionDelay: 500,
      reconnectionDelayMax: 2_000,
      randomizationFactor: 0.5,
    });

    let connectedBefore = false;
    socket.on('connect', () => {
      // Events sent while the page was disconnected are lost: read again what they would have changed.
      if (connectedBefore) {
        void queryClient.invalidateQueries({ queryKey: queryKeys.currentUser });
        void queryClient.invalidateQueries({ queryKey: shellKeys.cart });
      }
      const firstConnect = !connectedBefore;
      connectedBefore = true;
      const notifications = realtimeChannel.notifications(userId);
      for (const channel of [notifications, realtimeChannel.cart(userId)]) {
        socket.emit('subscribe', channel, (answer: { ok?: boolean } | undefined) => {
          if (!answer?.ok) console.warn(`Realtime channel ${channel} was refused.`);
          else if (firstConnect && channel === notifications) void catchUpOnNotifications(queryClient);
        });
      }
    });

    socket.on(REALTIME_EVENTS.notification, (payload: unknown) => {
      const event = notificationEventSchema.safeParse(payload);
      if (!event.success) return;
      pushMessage({ type: event.data.type, data: event.data.text });
      refreshWhatNotificationsChange(queryClient);
    });

    socket.on(REALTIME_EVENTS.cartUpdated, () => {
      void queryClient.invalidateQueries({ queryKey: shellKeys.cart });
    });

    return () => {
      socket.disconnect();
    };
  }, [userId, queryClient]);
}

/**
 * A notification sent after the page read its data (the HTML preloads it) and before this
 * subscription reached nobody: on a slow phone that is seconds. The unread count is read again
 * once the channel is subscribed (one small request), and only if it moved is what the event
 * would have refreshed read again too.
 */
async function catchUpOnNotifications(queryClient: QueryClient): Promise<void> {
  const before = queryClient.getQueryData<number>(notificationKeys.unread);
  await queryClient.refetchQueries({ queryKey: notificationKeys.unread, exact: true });
  const after = queryClient.getQueryData<number>(notificationKeys.unread);
  if (before !== undefined && after !== before) refreshWhatNotificationsChange(queryClient);
}

/** What a notification changes: the user, the notification list and count, the dashboard's number. */
function refreshWhatNotificationsChange(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: queryKeys.currentUser });
  void queryClient.invalidateQueries({ queryKey: notificationKeys.all });
  void queryClient.invalidateQueries({ queryKey: dashboardKeys.dashboard });
}
