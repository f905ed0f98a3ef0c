/** API paths under the base path, shared by the server's routes and the web app's calls. */
export const API_BASE = '/api/v1';

export const PATHS = {
  health: '/health',
  login: '/auth/admin/login',
  logout: '/auth/admin/logout',
  passReset: '/auth/admin/pass-reset',
  adminDetail: '/account/admin-detail',
  dashboard: '/dashboard/getCount',
  masterAppCreate: '/master-app',
  masterAppList: '/master-app/list',
  masterAppOptions: '/master-app/options',
  masterAppUpdate: (id: number | string) => `/master-app/update/${id}`,
} as const;

/** Browser storage keys (spec §9). */
export const STORAGE_KEYS = { token: 'ACCESS_TOKEN', loginId: 'loginId' } as const;
