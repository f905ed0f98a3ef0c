import { STORAGE_KEYS } from '@master-admin/contract';

/** Where the signed-in account's grants are remembered between visits (lib/permissions.ts). */
export const GRANTS_KEY = 'grants';

/** The signed-in state lives in browser storage (spec §3): the token and the login id. */
export const session = {
  token: (): string | null => localStorage.getItem(STORAGE_KEYS.token),
  loginId: (): string | null => localStorage.getItem(STORAGE_KEYS.loginId),
  isSignedIn: (): boolean => localStorage.getItem(STORAGE_KEYS.token) !== null,
  /**
   * The signed-in account's id: the token's subject (`sub`, a signed JWT the server checks; read
   * here only to keep this account's drafts apart from another's and to tell its own changes in
   * the event stream from others'). Null when signed out or the token is not a JWT.
   */
  accountId: (): number | null => subjectOf(localStorage.getItem(STORAGE_KEYS.token)),
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

/** The account id a token's payload names (`sub`), if it is a JWT naming one. */
export function subjectOf(token: string | null): number | null {
  const payload = token?.split('.')[1];
  if (!payload) return null;
  try {
    const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
    const id = Number((JSON.parse(json) as { sub?: unknown }).sub);
    return Number.isInteger(id) && id > 0 ? id : null;
  } catch {
    return null;
  }
}
