import { afterEach, describe, expect, it, vi } from 'vitest';
import { clearMessages, currentMessages, dismissMessage, pushMessage, subscribeMessages } from './messageStore.ts';

describe('message store', () => {
  afterEach(() => {
    clearMessages();
  });

  it('keeps messages in order with their type, data, timeout and link', () => {
    const first = pushMessage({ type: 'notice', data: 'shell.loggedOut', timeout: 10_000 });
    const second = pushMessage({
      type: 'error',
      data: { app: ['One.', 'Two.'] },
      noticeLink: { to: '/account/2fa', label: 'Set up' },
    });
    expect(second).toBeGreaterThan(first);
    expect(currentMessages()).toEqual([
      { id: first, type: 'notice', data: 'shell.loggedOut', timeout: 10_000 },
      { id: second, type: 'error', data: { app: ['One.', 'Two.'] }, noticeLink: { to: '/account/2fa', label: 'Set up' } },
    ]);
  });

  it('shows the same message once, for the later push', () => {
    pushMessage({ type: 'notice', data: 'The tenant Harbor has been saved.', timeout: 10_000 });
    const later = pushMessage({ type: 'notice', data: 'The tenant Harbor has been saved.', timeout: 10_000 });
    pushMessage({ type: 'error', data: 'The tenant Harbor has been saved.' });
    expect(currentMessages().map((message) => [message.id, message.type])).toEqual([
      [later, 'notice'],
      [later + 1, 'error'],
    ]);
  });

  it('tells subscribers about changes, not about no-ops', () => {
    const listener = vi.fn();
    const unsubscribe = subscribeMessages(listener);
    const id = pushMessage({ type: 'info', data: 'Hello' });
    dismissMessage(id);
    dismissMessage(id);
    clearMessages();
    expect(listener).toHaveBeenCalledTimes(2);
    unsubscribe();
    pushMessage({ type: 'info', data: 'Unheard' });
    expect(listener).toHaveBeenCalledTimes(2);
    expect(currentMessages()).toHaveLength(1);
  });
});
