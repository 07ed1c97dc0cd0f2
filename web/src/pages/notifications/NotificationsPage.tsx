import { Button, Text } from '@mantine/core';
import {
  IconAlertCircle,
  IconAlertTriangle,
  IconBellOff,
  IconCheck,
  IconChecks,
  IconInfoCircle,
  IconCircleCheck,
} from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { Notification } from '@berth/contracts';
import { useMarkAllNotificationsRead, useMarkNotificationRead, useNotifications } from '../../api/notifications.ts';
import { formatDateTime, formatRelative } from '../../components/formatDate.ts';
import { usePageTitle } from '../../components/usePageTitle.ts';
import { FormAlert } from '../../forms/FormAlert.tsx';
import { describeError } from '../../forms/validation.ts';
import { PageHeader, Section } from '../PageHeader.tsx';
import classes from '../Pages.module.css';
import notificationClasses from './Notifications.module.css';
import { EmptyState, LoadingRows, LoadMore } from '../../components/ListStates.tsx';
import { LoadFailed } from '../../components/LoadFailed.tsx';

const ICONS = {
  error: IconAlertCircle,
  warning: IconAlertTriangle,
  notice: IconCircleCheck,
  info: IconInfoCircle,
} as const;

/** /notifications: what the panel told the user (expiry reminders, ...), newest first; unread ones stand out. */
export function NotificationsPage() {
  const { t } = useTranslation();
  const notifications = useNotifications();
  const markAll = useMarkAllNotificationsRead();
  const markOne = useMarkNotificationRead();
  usePageTitle(t('notifications.title'));

  const items = notifications.data?.pages.flatMap((page) => page.data) ?? [];
  const unread = notifications.data?.pages[0]?.unread ?? 0;
  const failure = markAll.error ?? markOne.error;

  return (
    <div className={classes.page}>
      <PageHeader
        title={t('notifications.title')}
        description={t('notifications.description')}
        actions={
          <Button
            variant="default"
            leftSection={<IconChecks size={16} aria-hidden />}
            disabled={unread === 0}
            loading={markAll.isPending}
            onClick={() => {
              markAll.mutate();
            }}
          >
            {t('notifications.markAll')}
          </Button>
        }
      />
      {failure ? (
        <FormAlert
          kind="error"
          onClose={() => {
            markAll.reset();
            markOne.reset();
          }}
        >
          {describeError(failure, t)}
        </FormAlert>
      ) : null}
      <Section
        id="notifications"
        title={t('notifications.listTitle')}
        aside={
          notifications.isSuccess ? (
            <Text fz="sm" c="dimmed" data-testid="notifications-unread">
              {t('notifications.unread', { count: unread })}
            </Text>
          ) : null
        }
      >
        {notifications.isPending ? (
          <LoadingRows height={60} />
        ) : notifications.isError ? (
          <LoadFailed error={notifications.error} onRetry={() => void notifications.refetch()} />
        ) : items.length === 0 ? (
          <EmptyState icon={<IconBellOff size={24} stroke={1.6} />} title={t('notifications.emptyTitle')}>
            {t('notifications.empty')}
          </EmptyState>
        ) : (
          <>
            <ul className={notificationClasses.list} aria-label={t('notifications.listTitle')}>
              {items.map((notification) => (
                <NotificationItem
                  key={notification.id}
                  notification={notification}
                  pending={markOne.isPending && markOne.variables === notification.id}
                  onRead={() => {
                    markOne.mutate(notification.id);
                  }}
                />
              ))}
            </ul>
            <LoadMore pages={notifications} label={t('notifications.loadMore')} />
          </>
        )}
      </Section>
    </div>
  );
}

function NotificationItem({ notification, pending, onRead }: { notification: Notification; pending: boolean; onRead: () => void }) {
  const { t } = useTranslation();
  const TypeIcon = ICONS[notification.type];
  return (
    <li className={notificationClasses.item} data-unread={!notification.read || undefined} data-type={notification.type}>
      <span className={notificationClasses.icon} aria-hidden>
        <TypeIcon size={18} stroke={1.8} />
      </span>
      <div className={notificationClasses.body}>
        <Text fz="sm" fw={notification.read ? 400 : 600} className={notificationClasses.text}>
          {notification.read ? null : <span className={notificationClasses.visuallyHidden}>{t('notifications.unreadLabel')}: </span>}
          {notification.text}
        </Text>
        <Text fz="xs" c="dimmed">
          <time dateTime={notification.created_at} title={formatDateTime(notification.created_at)}>
            {formatRelative(notification.created_at)}
          </time>
        </Text>
      </div>
      {notification.read ? null : (
        <Button
          size="xs"
          variant="subtle"
          leftSection={<IconCheck size={14} aria-hidden />}
          loading={pending}
          onClick={onRead}
          className={notificationClasses.action}
        >
          {t('notifications.markRead')}
        </Button>
      )}
    </li>
  );
}
