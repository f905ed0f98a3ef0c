import { STORAGE_KEYS } from '@master-admin/contract';

/** Where the signed-in account's grants are remembered between visits (lib/permissions.ts). */
export const GRANTS_KEY = 'grants';

/** The signed-in state lives in browser storage (spec §3): the token and the login id. */
export const session = {
  token: (): string | null => localStorage.getItem(STORAGE_KEYS.token),
  loginId: (): string | null => localStorage.getItem(STORAGE_KEYS.loginId),
  isSignedIn: (): boolean => localStorage.getItem(STORAGE_KEYS.token) !== null,
  signIn(token: string, loginId: string | undefined) {
    localStorage.removeItem(GRANTS_KEY);
    localStorage.setItem(STORAGE_KEYS.token, token);
    if (loginId) localStorage.setItem(STORAGE_KEYS.loginId, loginId);
    else localStorage.removeItem(STORAGE_KEYS.loginId);
  },
  clear() {
    localStorage.removeItem(GRANTS_KEY);
    localStorage.removeItem(STORAGE_KEYS.token);
    localStorage.removeItem(STORAGE_KEYS.loginId);
  },
};
