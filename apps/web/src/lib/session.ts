import { STORAGE_KEYS } from '@master-admin/contract';

/** The signed-in state lives in browser storage (spec §3): the token and the login id. */
export const session = {
  token: (): string | null => localStorage.getItem(STORAGE_KEYS.token),
  loginId: (): string | null => localStorage.getItem(STORAGE_KEYS.loginId),
  isSignedIn: (): boolean => localStorage.getItem(STORAGE_KEYS.token) !== null,
  signIn(token: string, loginId: string | undefined) {
    localStorage.setItem(STORAGE_KEYS.token, token);
    if (loginId) localStorage.setItem(STORAGE_KEYS.loginId, loginId);
    else localStorage.removeItem(STORAGE_KEYS.loginId);
  },
  clear() {
    localStorage.removeItem(STORAGE_KEYS.token);
    localStorage.removeItem(STORAGE_KEYS.loginId);
  },
};
