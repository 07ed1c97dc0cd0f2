import { useEffect, useState } from 'react';
import { useLocation } from 'react-router';
import { Alert } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { ROUTE_STATE_MESSAGE_MS } from '@berth/contracts';
import { translateServerText } from '../i18n/i18n.ts';

/** Navigation state other screens pass along, e.g. `{ message: 'shell.loggedOut' }`. */
export interface RouteState {
  message?: string;
  /** A notice from the previous screen's answer, e.g. "we have sent you a code". */
  notice?: string;
  from?: { pathname: string; search?: string; hash?: string };
  /** The id of an element to scroll to after the navigation (shell/useScrollOnNavigate.ts). */
  scrollTo?: string;
}

export function readRouteState(state: unknown): RouteState {
  if (typeof state !== 'object' || state === null) return {};
  const { message, notice, from, scrollTo } = state as Record<string, unknown>;
  const result: RouteState = {};
  if (typeof scrollTo === 'string' && scrollTo !== '') result.scrollTo = scrollTo;
  if (typeof message === 'string' && message !== '') result.message = message;
  if (typeof notice === 'string' && notice !== '') result.notice = notice;
  if (typeof from === 'object' && from !== null) {
    const { pathname, search, hash } = from as Record<string, unknown>;
    if (typeof pathname === 'string' && pathname.startsWith('/')) {
      result.from = {
        pathname,
        search: typeof search === 'string' ? search : '',
        hash: typeof hash === 'string' ? hash : '',
      };
    }
  }
  return result;
}

/**
 * Shows `location.state.message` (else `.notice`) for ROUTE_STATE_MESSAGE_MS (docs/product.md §4), or until
 * dismissed. The message may be an i18n key or text.
 */
export function RouteStateMessage() {
  const location = useLocation();
  const { t } = useTranslation();
  const state = readRouteState(location.state);
  const message = state.message ?? state.notice;
  // The key of the navigation whose message was hidden: a new navigation shows its own again.
  const [hiddenFor, setHiddenFor] = useState<string | null>(null);

  useEffect(() => {
    if (!message) return undefined;
    const timer = window.setTimeout(() => {
      setHiddenFor(location.key);
    }, ROUTE_STATE_MESSAGE_MS);
    return () => {
      window.clearTimeout(timer);
    };
  }, [message, location.key]);

  if (!message || hiddenFor === location.key) return null;

  return (
    <Alert
      variant="light"
      color="harbor"
      icon={<IconInfoCircle aria-hidden />}
      withCloseButton
      closeButtonLabel={t('app.dismiss')}
      onClose={() => {
        setHiddenFor(location.key);
      }}
      role="status"
    >
      {translateServerText(message)}
    </Alert>
  );
}
