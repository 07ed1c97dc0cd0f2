import { Link } from 'react-router';
import { Tooltip } from '@mantine/core';
import { IconBell } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useUnreadNotifications } from '../api/notifications.ts';
import classes from './Header.module.css';

/**
 * The bell with the number of unread notifications (stored on the server, so what arrived while
 * the user was away is counted too). A realtime notification refreshes it (api/realtime.ts).
 */
export function NotificationBell() {
  const { t } = useTranslation();
  const unread = useUnreadNotifications().data ?? 0;
  return (
    <Tooltip label={t('shell.notifications')} openDelay={400}>
      <Link
        to="/notifications"
        className={classes.iconButton}
        aria-label={t('shell.notificationsUnread', { count: unread })}
        data-testid="notification-bell"
      >
        <IconBell size={20} stroke={1.7} aria-hidden />
        {unread > 0 ? (
          <span className={classes.cartCount} data-testid="notification-count" aria-hidden>
            {unread > 99 ? '99+' : unread}
          </span>
        ) : null}
      </Link>
    </Tooltip>
  );
}
