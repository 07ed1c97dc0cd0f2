import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';
import { ROUTE_STATE_MESSAGE_MS } from '@berth/contracts';
import { pushMessage } from '../components/messageStore.ts';
import { readRouteState } from '../components/RouteStateMessage.tsx';

/**
 * A message handed over in navigation state (`{ message }` or `{ notice }`, e.g. after a
 * password reset) shows in the messages area for ROUTE_STATE_MESSAGE_MS (docs/product.md §4).
 */
export function useRouteStateMessages(): void {
  const location = useLocation();
  const shown = useRef(new Set<string>());

  useEffect(() => {
    const { message, notice } = readRouteState(location.state);
    const text = message ?? notice;
    if (!text || shown.current.has(location.key)) return;
    shown.current.add(location.key);
    pushMessage({ type: 'notice', data: text, timeout: ROUTE_STATE_MESSAGE_MS });
    // Shown once: a reload of this entry must not show it again (the router keeps its own copy).
    const entry: unknown = window.history.state;
    if (entry && typeof entry === 'object' && 'usr' in entry && entry.usr && typeof entry.usr === 'object') {
      const rest: Record<string, unknown> = { ...entry.usr };
      delete rest.message;
      delete rest.notice;
      window.history.replaceState({ ...entry, usr: rest }, '');
    }
  }, [location.key, location.state]);
}
