import { useSyncExternalStore } from 'react';

/** docs/product.md §3: a message's type. */
export type MessageType = 'error' | 'notice' | 'warning' | 'info';

/** The text of a message: an i18n key or text, or a server answer's `{ app: ... }` map. */
export type MessageData = string | { app: string | string[] };

/** A link shown at the end of a message, e.g. "Set up" beside a 2FA reminder. */
export interface NoticeLink {
  /** In-app path (`/account/2fa`) or an absolute URL. */
  to: string;
  /** An i18n key or text. */
  label: string;
}

export interface Message {
  id: number;
  type: MessageType;
  data: MessageData;
  /** Milliseconds until it hides itself; without one it stays until clicked. */
  timeout?: number;
  noticeLink?: NoticeLink;
}

export type NewMessage = Omit<Message, 'id'>;

/**
 * One list of messages for the whole app, outside React so that anything can push to it: pages,
 * route-state messages, realtime notifications, failed calls. The shell's messages area shows it.
 */
let messages: readonly Message[] = [];
let nextId = 1;
const listeners = new Set<() => void>();

function emit(next: readonly Message[]): void {
  messages = next;
  for (const listener of listeners) listener();
}

/** Shows a message; returns its id (for `dismissMessage`). */
export function pushMessage(message: NewMessage): number {
  const id = nextId++;
  // The same message twice (two saves in a row) shows once, for the later one's time.
  const same = (shown: Message) => shown.type === message.type && JSON.stringify(shown.data) === JSON.stringify(message.data);
  emit([...messages.filter((shown) => !same(shown)), { ...message, id }]);
  return id;
}

export function dismissMessage(id: number): void {
  if (messages.some((message) => message.id === id)) {
    emit(messages.filter((message) => message.id !== id));
  }
}

/** Leaving the shell (logout) must not carry one user's messages over to the next. */
export function clearMessages(): void {
  if (messages.length) emit([]);
}

/** Calls `listener` after every change; returns the unsubscribe. */
export function subscribeMessages(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** The messages now, oldest first. */
export const currentMessages = (): readonly Message[] => messages;

export function useMessages(): readonly Message[] {
  return useSyncExternalStore(subscribeMessages, currentMessages, currentMessages);
}

/** How long confirmations ("Language changed") stay; errors stay until clicked. */
export const NOTICE_TIMEOUT_MS = 6_000;
