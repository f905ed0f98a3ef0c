/**
 * Staff, menus and per-menu permissions (API.md, "Staff, menus, permissions"): SUPER_ADMIN only.
 */
import { z } from 'zod';
import { STATUSES, Status, PermissionKind } from './enums.ts';
import { MAX_LIMIT, listQuery, listResponse, mutationResponse, version } from './common.ts';
import {
  blankAsAbsent,
  bool,
  emailAddress,
  id,
  intWithDefault,
  optionalEnum,
  optionalText,
  pathId,
  plainText,
  text,
  timestamp,
} from './fields.ts';
import { NEW_PASSWORD_DESCRIPTION, PASSWORD_MAX, PASSWORD_MIN } from './auth.ts';
import { BULK_MAX } from './posters.ts';
import { atLeastOne, atLeastOneDocumented, onceFieldsValid } from './partial.ts';

export const STAFF_NAME_MAX = 100;
export const STAFF_EMAIL_MAX = 254;
export const STAFF_PHONE_MAX = 20;
export const STAFF_ROLES_MAX = 50;
/** A phone number: digits, with an optional leading +, 6 to 20 characters. */
export const STAFF_PHONE_NUMBER = /^\+?\d{6,19}$/;

const email = emailAddress(STAFF_EMAIL_MAX);
const phoneNumber = text(STAFF_PHONE_MAX).regex(STAFF_PHONE_NUMBER, {
  error: 'Must be 6 to 19 digits, with an optional leading +',
});
/** A job title shown in the staff list ("Editor"); the account's access role is always STAFF. */
const roles = text(STAFF_ROLES_MAX);
const password = plainText(PASSWORD_MAX)
  .min(1, { error: 'Required' })
  .min(PASSWORD_MIN, { error: `Must be at least ${PASSWORD_MIN} characters` })
  .meta({ description: NEW_PASSWORD_DESCRIPTION });

export const staffDetail = z.object({
  id: z.number().int(),
  name: z.string().nullable(),
  email: z.string().nullable(),
});

/** A staff account as the list shows it; `staffDetail` holds one entry, the account's own. */
export const staff = z.object({
  id: z.number().int(),
  version,
  phoneNumber: z.string().nullable(),
  roles: z.string().nullable(),
  status: Status,
  createdAt: timestamp,
  /** Whether it has a second factor (a confirmed authenticator app or a passkey). */
  secondFactor: z.boolean(),
  staffDetail: z.array(staffDetail),
});
export type Staff = z.infer<typeof staff>;

export const staffCreateBody = z.strictObject({
  name: text(STAFF_NAME_MAX),
  email,
  phoneNumber,
  password,
  roles,
});
export type StaffCreateBody = z.input<typeof staffCreateBody>;

export const STAFF_UPDATE_FIELDS = ['name', 'email', 'phoneNumber', 'roles'] as const;
/** Update: any of the fields, at least one; an empty field counts as absent. */
export const staffUpdateBody = z
  .strictObject({
    name: optionalText(STAFF_NAME_MAX),
    email: blankAsAbsent(email),
    phoneNumber: blankAsAbsent(phoneNumber),
    roles: optionalText(STAFF_ROLES_MAX),
  })
  .superRefine((body, ctx) => atLeastOne(body, STAFF_UPDATE_FIELDS, ctx), onceFieldsValid)
  .meta(atLeastOneDocumented(STAFF_UPDATE_FIELDS));
export type StaffUpdateBody = z.input<typeof staffUpdateBody>;

/** The edit dialog's form: every field stays required there. */
export const staffEditForm = staffCreateBody.pick({
  name: true,
  email: true,
  phoneNumber: true,
  roles: true,
});
export type StaffEditForm = z.infer<typeof staffEditForm>;

export const staffPasswordBody = z.strictObject({ password });
export type StaffPasswordBody = z.input<typeof staffPasswordBody>;

export const staffListQuery = listQuery.extend({ status: optionalEnum(STATUSES) });
export type StaffListQuery = z.input<typeof staffListQuery>;
export const staffList = listResponse(staff);
export const staffMutation = mutationResponse(staff);

// --- Menus -------------------------------------------------------------------------------------

export const MENU_NAME_MAX = 50;
export const MENU_TITLE_MAX = 100;
/** A menu's name: a key such as `specialDay` (letters and digits, starting with a letter). */
export const MENU_NAME = /^[A-Za-z][A-Za-z0-9_]*$/;
const menuName = text(MENU_NAME_MAX).regex(MENU_NAME, {
  error: 'Must start with a letter and hold only letters, digits and _',
});

export const menu = z.object({
  id: z.number().int(),
  version,
  name: z.string(),
  title: z.string(),
});
export type Menu = z.infer<typeof menu>;

export const menuCreateBody = z.strictObject({ name: menuName, title: text(MENU_TITLE_MAX) });
export type MenuCreateBody = z.input<typeof menuCreateBody>;

export const MENU_UPDATE_FIELDS = ['name', 'title'] as const;
export const menuUpdateBody = z
  .strictObject({ name: blankAsAbsent(menuName), title: optionalText(MENU_TITLE_MAX) })
  .superRefine((body, ctx) => atLeastOne(body, MENU_UPDATE_FIELDS, ctx), onceFieldsValid)
  .meta(atLeastOneDocumented(MENU_UPDATE_FIELDS));
export type MenuUpdateBody = z.input<typeof menuUpdateBody>;

/** `menus/all`: a bare array, 100 menus by default (API.md). */
export const menuListQuery = listQuery.extend({
  limit: intWithDefault(1, MAX_LIMIT, MAX_LIMIT),
});
export type MenuListQuery = z.input<typeof menuListQuery>;
export const menuList = z.array(menu);
export const menuMutation = mutationResponse(menu);

// --- Permissions -------------------------------------------------------------------------------

/** One user-permission row: whether `accountId` holds the kind `permission` on `menuId`. */
export const permissionEntry = z.object({
  id: z.number().int(),
  accountId: z.number().int(),
  menuId: z.number().int(),
  permissionId: z.number().int(),
  status: z.boolean(),
  updatedAt: timestamp,
  permission: z.object({ id: z.number().int(), name: PermissionKind }),
});
export type PermissionEntry = z.infer<typeof permissionEntry>;

/** `permissions/{menuId}/{accountId}`. */
export const menuPermissions = z.object({ result: z.array(permissionEntry) });
export type MenuPermissions = z.infer<typeof menuPermissions>;

/** One menu and the account's rows on it. */
export const menuPermissionGroup = menu.extend({ userPermission: z.array(permissionEntry) });
export type MenuPermissionGroup = z.infer<typeof menuPermissionGroup>;

/** `user-permissions/list/{accountId}`: one group per menu, by menu id. */
export const userPermissions = z.object({ perms: z.array(menuPermissionGroup) });
export type UserPermissions = z.infer<typeof userPermissions>;

/** `account/staff/profile/{id}`: the staff row and its permission groups. */
export const staffProfile = staff.extend({ perms: z.array(menuPermissionGroup) });
export type StaffProfile = z.infer<typeof staffProfile>;

export const permissionStatusBody = z.strictObject({ status: bool });
export type PermissionStatusBody = z.input<typeof permissionStatusBody>;
export const permissionMutation = mutationResponse(permissionEntry);

/** All or nothing: 1..500 distinct rows of the one account named in the path. */
export const permissionBulkBody = z.strictObject({
  items: z
    .array(z.strictObject({ id, status: bool }), { error: 'Must be a list of { id, status }' })
    .min(1, { error: 'Give at least one item' })
    .max(BULK_MAX, { error: `At most ${BULK_MAX} items at a time` })
    .refine((items) => new Set(items.map((i) => i.id)).size === items.length, {
      error: 'An id is repeated',
    }),
});
export type PermissionBulkBody = z.input<typeof permissionBulkBody>;
export const permissionBulkResponse = z.object({
  message: z.string(),
  perms: z.array(menuPermissionGroup),
});

export const menuAccountParams = z.strictObject({ menuId: pathId, accountId: pathId });
