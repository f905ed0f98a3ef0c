import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { messageResponse, PATHS } from '@master-admin/contract';
import { endSessionRequests, formBody, request } from './api';
import { events } from './events';
import { session } from './session';

/**
 * Signing out: ends this session on the server, forgets it here and shows the sign-in screen.
 * The one way out, for the menu's Logout and for ending this device's own session in the list.
 */
export function useSignOut(): () => Promise<void> {
  const client = useQueryClient();
  const navigate = useNavigate();
  return async () => {
    const ending = endSessionRequests();
    events.stop();
    await request(messageResponse, {
      method: 'POST',
      url: PATHS.logout,
      body: formBody({}),
      endsSession: true,
    }).catch(() => {
      // Signing out locally is what matters; the session also expires on its own.
    });
    session.clear();
    client.clear();
    // finally() rather than try … finally: React Compiler does not compile a function holding one.
    await Promise.resolve(navigate('/auth/sign-in', { replace: true })).finally(ending.done);
  };
}
