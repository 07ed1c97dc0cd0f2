import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { forgetSession, useLogout } from '../api/queries.ts';
import { clearMessages, pushMessage } from '../components/messageStore.ts';
import { describeError } from '../forms/validation.ts';

/** POST /api/logout, then the login screen; a failure shows as a message (docs/product.md §8). */
export function useLogoutAction() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const logout = useLogout();

  const run = () => {
    if (logout.isPending) return;
    logout.mutate(undefined, {
      onSuccess: () => {
        // Leave the shell first, so nothing in it refetches the user we are about to forget.
        void Promise.resolve(navigate('/login', { replace: true, state: { message: 'shell.loggedOut' } })).then(() => {
          forgetSession(queryClient);
          clearMessages();
        });
      },
      onError: (error) => {
        pushMessage({ type: 'error', data: `${t('shell.logoutFailed')}: ${describeError(error, t)}` });
      },
    });
  };

  return { run, pending: logout.isPending };
}
