import { useCallback, useEffect, useState } from 'react';
import { Link } from 'react-router';
import { CloseButton, Transition, type MantineTransition } from '@mantine/core';
import { IconAlertCircle, IconAlertTriangle, IconCircleCheck, IconInfoCircle, type Icon } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { MESSAGE_SLIDE_MS } from '@berth/contracts';
import { dismissMessage, type Message, type MessageData, type MessageType } from '../components/messageStore.ts';
import { translateServerText } from '../i18n/i18n.ts';
import classes from './Messages.module.css';

const ICONS: Record<MessageType, Icon> = {
  error: IconAlertCircle,
  warning: IconAlertTriangle,
  notice: IconCircleCheck,
  info: IconInfoCircle,
};

/** In from the right edge, out the same way (docs/product.md §9: 400 ms). */
const slide: MantineTransition = {
  in: { opacity: 1, transform: 'translateX(0)' },
  out: { opacity: 0, transform: 'translateX(calc(100% + 24px))' },
  transitionProperty: 'transform, opacity',
};

/** Text, an i18n key, or a server answer's `{ app: ... }` (one text or several). */
function messageText(data: MessageData): string {
  if (typeof data === 'string') return translateServerText(data);
  const texts = Array.isArray(data.app) ? data.app : [data.app];
  return texts.map((text) => translateServerText(text)).join(' ');
}

/** One message: slides in, hides after its timeout or when clicked, then leaves the store. */
export function MessageItem({ message }: { message: Message }) {
  const { t } = useTranslation();
  const [shown, setShown] = useState(false);
  const hide = useCallback(() => {
    setShown(false);
  }, []);

  // Mounted hidden first, so the entering slide has a start.
  useEffect(() => {
    const frame = window.requestAnimationFrame(() => {
      setShown(true);
    });
    return () => {
      window.cancelAnimationFrame(frame);
    };
  }, []);

  useEffect(() => {
    if (!message.timeout) return undefined;
    const timer = window.setTimeout(hide, message.timeout);
    return () => {
      window.clearTimeout(timer);
    };
  }, [message.timeout, hide]);

  const Icon = ICONS[message.type];
  const link = message.noticeLink;

  return (
    <Transition
      mounted={shown}
      transition={slide}
      duration={MESSAGE_SLIDE_MS}
      exitDuration={MESSAGE_SLIDE_MS}
      timingFunction="ease"
      onExited={() => {
        dismissMessage(message.id);
      }}
    >
      {(styles) => (
        <div
          style={styles}
          className={classes.message}
          data-type={message.type}
          data-testid="shell-message"
          role={message.type === 'error' ? 'alert' : 'status'}
          onClick={hide}
        >
          <Icon size={20} stroke={1.8} aria-hidden className={classes.icon} />
          <div className={classes.body}>
            <span className={classes.text}>{messageText(message.data)}</span>
            {link ? (
              link.to.startsWith('/') ? (
                <Link to={link.to} className={classes.link}>
                  {translateServerText(link.label)}
                </Link>
              ) : (
                <a href={link.to} className={classes.link} target="_blank" rel="noopener noreferrer">
                  {translateServerText(link.label)}
                </a>
              )
            ) : null}
          </div>
          <CloseButton
            size="sm"
            aria-label={t('app.dismiss')}
            className={classes.close}
            onClick={(event) => {
              event.stopPropagation();
              hide();
            }}
          />
        </div>
      )}
    </Transition>
  );
}
