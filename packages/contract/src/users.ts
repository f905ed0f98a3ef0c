/**
 * End users of the content app (accounts of role USER), their numbered top/self/bottom images,
 * wallet rows and login history (API.md, "Users" and "A user's numbered images").
 */
import { z } from 'zod';
import { Activity, LoginDirection, SIDES, STATUSES, Side, Status, WalletKind } from './enums.ts';
import {
  listQuery,
  listResponse,
  masterAppRef,
  mutationResponse,
  sortParam,
  version,
  bulkVersions,
  checkVersionIds,
} from './common.ts';
import {
  blankAsAbsent,
  blankAsNull,
  calendarDate,
  id,
  optionalCalendarDate,
  optionalEnum,
  optionalId,
  optionalText,
  pathId,
  text,
  timestamp,
} from './fields.ts';
import { atLeastOne, atLeastOneDocumented, onceFieldsValid } from './partial.ts';
import { bulkIds, defNum, position } from './posters.ts';

export const USER_NAME_MAX = 100;
export const USER_EMAIL_MAX = 254;
export const USER_TEXT_MAX = 100;

/** Digits with an optional leading +, 6 to 20 characters in all. */
export const USER_PHONE_NUMBER = /^\+?\d{6,19}$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const phoneNumber = text(20).regex(USER_PHONE_NUMBER, {
  error: 'Must be 6 to 20 digits, with an optional leading +',
});
const optionalEmail = optionalText(USER_EMAIL_MAX, {
  pattern: { regex: EMAIL, message: 'Must be an email address' },
});

/** A date limit to set: YYYY-MM-DD, or an empty string (or null) to clear it. */
export const dateLimitOrNone = blankAsNull(calendarDate).meta({
  description: 'YYYY-MM-DD; an empty string or null clears the date limit',
});

/** What the spec calls `userDetail`: the user's profile and banner images. */
export const userDetail = z.object({
  id: z.number().int(),
  userId: z.number().int(),
  name: z.string().nullable(),
  email: z.string().nullable(),
  /** The profile image's URL (set by the content app). */
  profile: z.string().nullable(),
  /** The top banner's URL. */
  top: z.string().nullable(),
  /** The bottom banner's URL. */
  bottom: z.string().nullable(),
  designation: z.string().nullable(),
  adminAssignName: z.string().nullable(),
});
export type UserDetail = z.infer<typeof userDetail>;

export const user = z.object({
  id: z.number().int(),
  version,
  phoneNumber: z.string(),
  status: Status,
  dateLimit: z.string().nullable(),
  masterAppId: z.number().int(),
  createdAt: timestamp,
  updatedAt: timestamp,
  userDetail,
  masterApp: masterAppRef,
});
export type User = z.infer<typeof user>;

export const userCreateBody = z.strictObject({
  name: text(USER_NAME_MAX),
  phoneNumber,
  email: optionalEmail,
  designation: optionalText(USER_TEXT_MAX),
  adminAssignName: optionalText(USER_TEXT_MAX),
  masterAppId: id,
  dateLimit: optionalCalendarDate,
});
export type UserCreateBody = z.input<typeof userCreateBody>;

export const USER_UPDATE_FIELDS = [
  'name',
  'phoneNumber',
  'email',
  'designation',
  'adminAssignName',
  'masterAppId',
  'dateLimit',
] as const;

/**
 * Edit: any of the create fields, at least one. An empty text field counts as absent (API.md,
 * Conventions); `dateLimit` sent empty (or null) clears it.
 */
export const userUpdateBody = z
  .strictObject({
    name: optionalText(USER_NAME_MAX),
    phoneNumber: blankAsAbsent(phoneNumber),
    email: optionalEmail,
    designation: optionalText(USER_TEXT_MAX),
    adminAssignName: optionalText(USER_TEXT_MAX),
    masterAppId: optionalId,
    dateLimit: dateLimitOrNone.optional(),
  })
  .superRefine((body, ctx) => atLeastOne(body, USER_UPDATE_FIELDS, ctx), onceFieldsValid)
  .meta(atLeastOneDocumented(USER_UPDATE_FIELDS, ['dateLimit']));
export type UserUpdateBody = z.input<typeof userUpdateBody>;

export const dateLimitBody = z.strictObject({ dateLimit: dateLimitOrNone });
export type DateLimitBody = z.input<typeof dateLimitBody>;

/** Fields the users list may be sorted by (each indexed with the list's role, 0020). */
export const USER_SORTS = ['createdAt', 'name', 'email', 'status', 'dateLimit'] as const;

export const userListQuery = listQuery.extend({
  sort: sortParam(USER_SORTS),
  status: optionalEnum(STATUSES).meta({
    description: 'DELETED users are listed only when this is DELETED',
  }),
  masterAppId: optionalId,
});
export type UserListQuery = z.input<typeof userListQuery>;

export const userList = listResponse(user);

/** The statuses a bulk change may set: DELETED is not one (delete is its own call, API.md). */
export const USER_BULK_STATUSES = STATUSES.filter((s) => s !== 'DELETED') as [
  Exclude<Status, 'DELETED'>,
  ...Array<Exclude<Status, 'DELETED'>>,
];

/** The body of `account/user/bulk-status`. */
export const userBulkStatusBody = z
  .strictObject({
    ids: bulkIds,
    status: z.enum(USER_BULK_STATUSES, {
      error: `Must be one of ${USER_BULK_STATUSES.join(', ')}`,
    }),
    versions: bulkVersions,
  })
  .superRefine(checkVersionIds);
export type UserBulkStatusBody = z.input<typeof userBulkStatusBody>;
export const userMutation = mutationResponse(user);

// ---------------------------------------------------------------------------------------------
// Numbered images

export const IMAGE_KINDS = ['top', 'self', 'bottom'] as const;
export type ImageKind = (typeof IMAGE_KINDS)[number];

export const userImage = z.object({
  id: z.number().int(),
  version,
  accountId: z.number().int(),
  defNum: z.number().int(),
  /** The image's URL. */
  image: z.string(),
  /** Self images only: the side of the poster the photo suits. */
  position: Side.optional(),
  createdAt: timestamp,
  updatedAt: timestamp,
});
export type UserImage = z.infer<typeof userImage>;

/** Upload a top or bottom image: the file comes as the multipart file `file`. */
export const imageCreateBody = z.strictObject({ defNum });
/** Upload a self image: also its side. */
export const selfImageCreateBody = z.strictObject({ defNum, position });
export type ImageCreateBody = z.input<typeof selfImageCreateBody>;

export const imageListQuery = z.strictObject({
  limit: listQuery.shape.limit,
  offset: listQuery.shape.offset,
  cursor: listQuery.shape.cursor,
});
export const selfImageListQuery = imageListQuery.extend({ position: optionalEnum(SIDES) });
export type ImageListQuery = z.input<typeof selfImageListQuery>;

/** `accountId`, when given, must be the image's owner (else 400). */
export const defNumBody = z.strictObject({ defNum, accountId: optionalId });
export type DefNumBody = z.input<typeof defNumBody>;

export const imageList = listResponse(userImage);
export const imageMutation = mutationResponse(userImage);

// ---------------------------------------------------------------------------------------------
// Wallet and login history

export const walletRow = z.object({
  id: z.number().int(),
  reward: z.number().int(),
  /** What the reward was for. */
  depositFor: Activity,
  /** What kind of transaction it was. */
  status: WalletKind,
  feed: z.string().nullable(),
  createdAt: timestamp,
});
export type WalletRow = z.infer<typeof walletRow>;
export const walletListQuery = listQuery;
export const walletList = listResponse(walletRow);

export const loginHistoryRow = z.object({
  id: z.number().int(),
  ip: z.string().nullable(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  status: LoginDirection,
  /** The device: the one an app sign-in named (name and platform), or the browser and system of a back-office one; null before issue #34. */
  device: z.string().nullable(),
  createdAt: timestamp,
});
export type LoginHistoryRow = z.infer<typeof loginHistoryRow>;
export const loginHistoryQuery = listQuery;
export const loginHistoryList = listResponse(loginHistoryRow);

/** What an end user did in the content app (apps API): sign-ups, sign-ins, likes, shares. */
export const activityRow = z.object({
  id: z.number().int(),
  activity: Activity,
  /** The poster it was about (LIKE, UNLIKE, SHARED). */
  posterId: z.number().int().nullable(),
  /** Where it was shared, for SHARED. */
  detail: z.string().nullable(),
  ip: z.string().nullable(),
  device: z.string().nullable(),
  createdAt: timestamp,
});
export type ActivityRow = z.infer<typeof activityRow>;
export const activityListQuery = listQuery;
export const activityList = listResponse(activityRow);

/** The header of a poster preview naming the slots the user has no image for. */
export const PREVIEW_MISSING_HEADER = 'x-preview-missing';
export const previewParams = z.strictObject({ posterId: pathId, accountId: pathId });
