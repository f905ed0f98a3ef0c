import { z } from 'zod';
import type { BuiltInMenuName } from './enums.ts';
import { checkDateRange, dateRange, listQuery, listResponse } from './common.ts';
import { optionalEnum, optionalId, timestamp } from './fields.ts';

/**
 * The areas an audit entry names, each with the menu whose VIEW right lets an account read the
 * history of that area's rows (`undefined`: SUPER_ADMIN only). A staff member's permission
 * changes are entries of the `staff` area on that staff member's row.
 */
export const AUDIT_AREA_MENUS = {
  auth: undefined,
  masterApps: 'masterApp',
  banners: 'banner',
  blogs: 'blogs',
  pages: 'pages',
  faqs: 'faqs',
  categories: 'category',
  specialDays: 'specialDay',
  settings: 'settings',
  notifications: 'notification',
  posters: 'poster',
  videos: 'video',
  users: 'users',
  userImages: 'users',
  staff: undefined,
  menus: 'menus',
} as const satisfies Record<string, BuiltInMenuName | undefined>;
export type AuditArea = keyof typeof AUDIT_AREA_MENUS;
export const AUDIT_AREAS = Object.keys(AUDIT_AREA_MENUS) as [AuditArea, ...AuditArea[]];

export const AUDIT_ACTIONS = [
  'CREATE',
  'UPDATE',
  'STATUS',
  'FILE',
  'DELETE',
  'PASSWORD',
  'PERMISSIONS',
  'SIGN_IN',
  'SIGN_OUT',
  // Security events (issue #24): each with the address and device it came from.
  'SIGN_IN_FAILED',
  'SIGN_IN_THROTTLED',
  'FACTOR_ADDED',
  'FACTOR_REMOVED',
  'SESSION_ENDED',
  'DEVICE_REFUSED',
  'SECURITY',
  // Proof of presence (issue #31): a proof made or refused, new recovery codes, the owner's or
  // the operator's reset of an account's factors.
  'REAUTH',
  'REAUTH_FAILED',
  'RECOVERY_CODES',
  'FACTORS_RESET',
  // What end users do through the apps API (issue #34), on the poster or notification.
  'DOWNLOAD',
  'LIKE',
  'UNLIKE',
  'SHARE',
  'READ',
  // The trash (issue #35): a trashed row brought back, or deleted for good.
  'RESTORE',
  'PURGE',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/**
 * One changed field. A secret (a password) is named with `redacted: true` and no values; a file
 * is its stored key.
 */
export const auditChange = z.object({
  field: z.string(),
  old: z.unknown(),
  new: z.unknown(),
  redacted: z.boolean().optional(),
});
export type AuditChange = z.infer<typeof auditChange>;

export const auditEntry = z.object({
  id: z.number().int(),
  accountId: z.number().int(),
  /** The account's email (or phone number) as it is now; null when it has neither. */
  accountName: z.string().nullable(),
  ip: z.string().nullable(),
  /** The browser and system the request came from (its user agent, named), when known. */
  device: z.string().nullable(),
  area: z.enum(AUDIT_AREAS),
  rowId: z.number().int().nullable(),
  action: z.enum(AUDIT_ACTIONS),
  changes: z.array(auditChange),
  createdAt: timestamp,
});
export type AuditEntry = z.infer<typeof auditEntry>;

/** The audit log's filters: newest first; the dates are UTC days, both included. */
export const auditListFilters = listQuery.omit({ keyword: true }).extend({
  accountId: optionalId,
  area: optionalEnum(AUDIT_AREAS),
  rowId: optionalId,
  ...dateRange,
});

export const auditListQuery = auditListFilters.superRefine(checkDateRange);
export type AuditListQuery = z.input<typeof auditListQuery>;

/** A row's history: its entries, newest first. */
export const auditHistoryQuery = z.strictObject({
  limit: listQuery.shape.limit,
  offset: listQuery.shape.offset,
  cursor: listQuery.shape.cursor,
});
export type AuditHistoryQuery = z.input<typeof auditHistoryQuery>;

export const auditList = listResponse(auditEntry);
