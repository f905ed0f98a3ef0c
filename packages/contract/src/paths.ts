/** API paths under the base path, shared by the server's routes and the web app's calls. */
export const API_BASE = '/api/v1';
/** The content apps' API (API.md "Apps API"); its paths are `APP_PATHS` (app-api.ts). */
export const APPS_API_BASE = '/api/app/v1';

/** Whether `url` is a call of either API (the back-office's or the apps'). */
export function isApiPath(url: string): boolean {
  return url.startsWith(`${API_BASE}/`) || url.startsWith(`${APPS_API_BASE}/`);
}

export const PATHS = {
  health: '/health',
  ready: '/health/ready',
  login: '/auth/admin/login',
  logout: '/auth/admin/logout',
  passReset: '/auth/admin/pass-reset',
  adminDetail: '/account/admin-detail',
  myPermissions: '/account/me/permissions',
  loginVerify: '/auth/admin/login/verify',
  myFactors: '/account/me/factors',
  totp: '/account/me/totp',
  totpConfirm: '/account/me/totp/confirm',
  passkeyRegisterOptions: '/auth/passkey/register/options',
  passkeyRegisterVerify: '/auth/passkey/register/verify',
  passkeyLoginOptions: '/auth/passkey/login/options',
  passkeyLoginVerify: '/auth/passkey/login/verify',
  passkeys: '/account/me/passkeys',
  passkey: (id: number | string) => `/account/me/passkeys/${id}`,
  mySessions: '/account/me/sessions',
  mySession: (id: number | string) => `/account/me/sessions/${id}`,
  staffSessions: (accountId: number | string) => `/account/staff/sessions/${accountId}`,
  staffSession: (accountId: number | string, id: number | string) =>
    `/account/staff/sessions/${accountId}/${id}`,
  security: '/account/security',
  reauth: '/auth/reauth',
  reauthPasskeyOptions: '/auth/reauth/passkey/options',
  recoveryCodes: '/account/me/recovery-codes',
  staffFactors: (id: number | string) => `/account/staff/${id}/factors`,
  dashboard: '/dashboard/getCount',
  dashboardTrends: '/dashboard/trends',
  dashboardTop: '/dashboard/top',
  dashboardSpecialDays: '/dashboard/special-days',
  masterAppCreate: '/master-app',
  masterAppList: '/master-app/list',
  masterAppOptions: '/master-app/options',
  masterAppUpdate: (id: number | string) => `/master-app/update/${id}`,
  masterAppKey: (id: number | string) => `/master-app/${id}/app-key`,

  bannerCreate: (masterAppId: number | string) => `/banner/${masterAppId}`,
  bannerList: '/banner/list',
  bannerLink: (id: number | string) => `/banner/linktype/${id}`,
  bannerStatus: (id: number | string) => `/banner/status/${id}`,
  bannerImage: (id: number | string) => `/banner/update/${id}`,
  bannerSchedule: (id: number | string) => `/banner/schedule/${id}`,
  bannerRemove: (id: number | string) => `/banner/remove/${id}`,

  blogCreate: '/blogs',
  blogList: '/blogs/all',
  blog: (id: number | string) => `/blogs/${id}`,
  blogImage: (id: number | string) => `/blogs/image/${id}`,
  blogStatus: (id: number | string) => `/blogs/status/${id}`,
  blogPopular: (id: number | string) => `/blogs/popular/${id}`,
  blogRemove: (id: number | string) => `/blogs/remove/${id}`,

  pageList: '/pages/all',
  page: (id: number | string) => `/pages/${id}`,

  faqCreate: '/faqs',
  faqList: '/faqs/list',
  faqUpdate: (id: number | string) => `/faqs/update/${id}`,
  faqRemove: (id: number | string) => `/faqs/remove/${id}`,

  categoryCreate: '/category',
  categoryList: '/category/list',
  categoryOptions: '/category/options',
  category: (id: number | string) => `/category/${id}`,
  categoryStatus: (id: number | string) => `/category/status/${id}`,
  categoryRemove: (id: number | string) => `/category/remove/${id}`,

  specialDayCreate: '/special-day',
  specialDayList: '/special-day/list',
  specialDayOptions: '/special-day/options',
  specialDayCalendar: '/special-day/calendar',
  planningCoverage: '/planning/coverage',
  specialDay: (id: number | string) => `/special-day/${id}`,
  specialDayStatus: (id: number | string) => `/special-day/status/${id}`,
  specialDayRemove: (id: number | string) => `/special-day/remove/${id}`,
  specialDayYear: (year: number | string) => `/special-day/year/${year}`,

  posterCreateAll: (categoryId: number | string) => `/poster/${categoryId}`,
  posterCreateOne: (categoryId: number | string) => `/poster/only-cat/${categoryId}`,
  posterList: '/poster/list',
  posterDefNums: (id: number | string) => `/poster/def-num-update/${id}`,
  posterDate: (id: number | string) => `/poster/date-update/${id}`,
  posterStatus: (id: number | string) => `/poster/status/${id}`,
  posterBulkStatus: '/poster/bulk-status',
  posterPosition: (id: number | string) => `/poster/position/${id}`,
  posterFile: (id: number | string) => `/poster/update/${id}`,
  posterThumb: (id: number | string) => `/poster/video-thumb/${id}`,
  posterSchedule: (id: number | string) => `/poster/schedule/${id}`,
  posterRemove: (id: number | string) => `/poster/remove/${id}`,
  posterBulkDelete: '/poster/bulkDelete',

  videoCreate: '/video',
  videoList: '/video/list',
  videoDefNums: (id: number | string) => `/video/def-num-update/${id}`,
  videoDate: (id: number | string) => `/video/date-update/${id}`,
  videoPosition: (id: number | string) => `/video/position/${id}`,
  videoStatus: (id: number | string) => `/video/status/${id}`,
  videoSchedule: (id: number | string) => `/video/schedule/${id}`,
  videoBulkStatus: '/video/bulk-status',
  videoRemove: (id: number | string) => `/video/remove/${id}`,
  videoRemoveMany: '/video/remove-all-app',

  userRegister: '/auth/user/register',
  userList: '/account/user/list',
  userEdit: (accountId: number | string) => `/user-details/admin/edit/${accountId}`,
  userDateLimit: (accountId: number | string) => `/account/update-datelimit/${accountId}`,
  userStatus: (id: number | string) => `/account/user/status/${id}`,
  userBulkStatus: '/account/user/bulk-status',
  userTopBanner: (accountId: number | string) => `/user-details/top-banner/${accountId}`,
  userBottomBanner: (accountId: number | string) => `/user-details/bottom-banner/${accountId}`,
  userDelete: (id: number | string) => `/account/delete-user/${id}`,
  user: (accountId: number | string) => `/account/user/${accountId}`,
  wallets: (accountId: number | string) => `/wallets/all/${accountId}`,
  loginHistory: (accountId: number | string) => `/login-history/all/${accountId}`,
  loginHistoryOwn: '/login-history/own',
  userActivities: (accountId: number | string) => `/account/user/${accountId}/activities`,
  userSessions: (accountId: number | string) => `/account/user/${accountId}/sessions`,
  userSession: (accountId: number | string, id: number | string) =>
    `/account/user/${accountId}/sessions/${id}`,

  imageCreate: (kind: string, accountId: number | string) => `/${kind}/${accountId}`,
  imageList: (kind: string, accountId: number | string) => `/${kind}/${accountId}`,
  imageFile: (kind: string, id: number | string) => `/${kind}/update/${id}`,
  imageDefNum: (kind: string, id: number | string) => `/${kind}/def-num-update/${id}`,
  selfPosition: (id: number | string) => `/self/position/${id}`,
  imageRemove: (kind: string, id: number | string) => `/${kind}/remove/${id}`,

  posterPreview: (posterId: number | string, accountId: number | string) =>
    `/poster/preview/${posterId}/${accountId}`,

  settingsCreate: (masterAppId: number | string) => `/settings/${masterAppId}`,
  settingsList: '/settings/admin',
  settingsUpdate: (id: number | string) => `/settings/update/${id}`,

  notificationCreate: '/notifications/single',
  notificationList: '/notifications/admin',
  notificationRemove: (id: number | string) => `/notifications/remove/${id}`,

  staffCreate: '/account/add-staff',
  staffList: '/account/stafflist',
  staffProfile: (id: number | string) => `/account/staff/profile/${id}`,
  staffUpdate: (id: number | string) => `/account/update/staff/${id}`,
  staffPassword: (id: number | string) => `/account/staff/password/${id}`,
  staffStatus: (id: number | string) => `/account/staff/status/${id}`,
  staffRemove: (id: number | string) => `/account/remove-staff/${id}`,

  menuCreate: '/menus',
  menuList: '/menus/all',
  menu: (id: number | string) => `/menus/${id}`,
  menuRemove: (id: number | string) => `/menus/remove/${id}`,

  menuPermissions: (menuId: number | string, accountId: number | string) =>
    `/permissions/${menuId}/${accountId}`,
  permissionStatus: (id: number | string) => `/permissions/status/${id}`,
  userPermissionList: (accountId: number | string) => `/user-permissions/list/${accountId}`,
  userPermissionStatus: (id: number | string) => `/user-permissions/status/${id}`,
  userPermissionBulk: (accountId: number | string) => `/user-permissions/bulk/${accountId}`,

  auditList: '/audit/list',
  /** One row's audit entries; one path per area, each open to that area's viewers. */
  auditHistory: (area: string, id: number | string) => `/audit/history/${area}/${id}`,

  /** The event stream (server-sent events) and "I am editing this row" (API.md "Events"). */
  events: '/events',
  presence: '/presence',

  /** The trash: its list and purge (DELETE), and restore (API.md "Planning festivals"). */
  trash: '/trash',
  trashRestore: '/trash/restore',

  contactList: '/contact-us/all',
  contactSubmit: '/public/contact-us',

  /**
   * A list's CSV export, beside every list call (its path with `/export`): the list's query
   * without limit and offset, every matching row, the list's access.
   */
  listExport: (listPath: string) => `${listPath}/export`,
} as const;

/** Browser storage keys (spec §9). */
export const STORAGE_KEYS = { token: 'ACCESS_TOKEN', loginId: 'loginId' } as const;
