import { Loader } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useAppLoading } from '../components/appLoading.ts';
import { useMessages } from '../components/messageStore.ts';
import { MessageItem } from './MessageItem.tsx';
import classes from './Messages.module.css';

/**
 * The messages of the store (components/messageStore.ts), stacked under the header on the right.
 * While the app loads (a page's code, the menu) a loading indicator stands in for them.
 */
export function MessagesArea() {
  const { t } = useTranslation();
  const messages = useMessages();
  const loading = useAppLoading();

  return (
    <section aria-label={t('messages.label')} className={classes.area} data-testid="shell-messages">
      {loading ? (
        <div className={classes.loading} role="status" data-testid="shell-messages-loading">
          <Loader size={16} type="oval" aria-hidden />
          <span>{t('app.loading')}</span>
        </div>
      ) : (
        messages.map((message) => <MessageItem key={message.id} message={message} />)
      )}
    </section>
  );
}
