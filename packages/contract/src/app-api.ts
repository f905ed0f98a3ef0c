/**
 * The content apps' API (API.md "Apps API", `/api/app/v1`): what the end users' phones call. Its
 * own paths and answers; requests reuse the back-office's field rules where they are the same.
 */
import { z } from 'zod';
import { SIDES, Activity, Side, WalletKind } from './enums.ts';
import { CURSOR_PATTERN, DEFAULT_LIMIT, MAX_LIMIT } from './common.ts';
import {
  blankAsAbsent,
  calendarDate,
  intWithDefault,
  optionalEnum,
  optionalId,
  optionalText,
  pathId,
  pathInt,
  text,
  timestamp,
} from './fields.ts';
import { IMAGE_KINDS, USER_PHONE_NUMBER } from './users.ts';
import { contactUsBody } from './contact-us.ts';
import { atLeastOne, atLeastOneDocumented, onceFieldsValid } from './partial.ts';

export { APPS_API_BASE as APP_API_BASE } from './paths.ts';
export const APP_API_DOCS = '/api/app/docs';
/** The header every call of the apps API names its app by. */
export const APP_KEY_HEADER = 'x-app-key';

export const APP_PATHS = {
  otpRequest: '/auth/otp/request',
  otpVerify: '/auth/otp/verify',
  refresh: '/auth/refresh',
  logout: '/auth/logout',
  home: '/home',
  categories: '/categories',
  specialDays: '/special-days',
  posters: '/posters',
  videos: '/videos',
  blogs: '/blogs',
  blog: (id: number | string) => `/blogs/${id}`,
  page: (id: number | string) => `/pages/${id}`,
  faqs: '/faqs',
  me: '/me',
  myImages: '/me/images',
  myImage: (kind: string, number: number | string) => `/me/images/${kind}/${number}`,
  render: (id: number | string) => `/posters/${id}/render`,
  download: (id: number | string) => `/posters/${id}/download`,
  like: (id: number | string) => `/posters/${id}/like`,
  share: (id: number | string) => `/posters/${id}/share`,
  myNotifications: '/me/notifications',
  notificationRead: (id: number | string) => `/me/notifications/${id}/read`,
  myWallet: '/me/wallet',
  contactUs: '/contact-us',
} as const;

/** How long an issued one-time code works, and how often one number may ask. */
export const OTP_TTL_SECONDS = 300;
export const OTP_RESEND_SECONDS = 30;
export const OTP_PER_NUMBER_PER_HOUR = 5;
export const OTP_PER_ADDRESS_PER_HOUR = 20;
export const OTP_MAX_TRIES = 5;
/** How long an old app key keeps working after a rotation. */
export const APP_KEY_GRACE_HOURS = 24;

const phoneNumber = text(20).regex(USER_PHONE_NUMBER, {
  error: 'Must be 6 to 20 digits, with an optional leading +',
});

export const otpRequestBody = z.strictObject({ phoneNumber });
export const otpRequested = z.object({
  message: z.string(),
  /** Seconds before this number may ask for another code. */
  retryAfter: z.number().int(),
});

export const APP_PLATFORMS = ['android', 'ios', 'web', 'other'] as const;
export const otpVerifyBody = z.strictObject({
  phoneNumber,
  code: text(6, { pattern: { regex: /^\d{6}$/, message: 'Must be the 6 digits sent' } }).meta({
    examples: ['123456'],
  }),
  device: z
    .strictObject({
      name: text(100),
      platform: z.enum(APP_PLATFORMS, { error: `Must be one of ${APP_PLATFORMS.join(', ')}` }),
    })
    .optional(),
});
export type OtpVerifyBody = z.input<typeof otpVerifyBody>;

/** The signed-in end user, as the app sees them. */
export const appUser = z.object({
  id: z.number().int(),
  name: z.string().nullable(),
  email: z.string().nullable(),
  phoneNumber: z.string(),
  designation: z.string().nullable(),
  masterAppId: z.number().int(),
  dateLimit: z.string().nullable(),
  createdAt: timestamp,
});
export type AppUser = z.infer<typeof appUser>;

export const tokenPair = z.object({
  accessToken: z.string(),
  refreshToken: z.string(),
  /** Seconds the access token works. */
  expiresIn: z.number().int(),
  user: appUser,
});
export type TokenPair = z.infer<typeof tokenPair>;

export const REFRESH_TOKEN_PATTERN = /^\d{1,10}\.[A-Za-z0-9_-]{43}$/;
export const refreshBody = z.strictObject({
  refreshToken: text(60, {
    pattern: { regex: REFRESH_TOKEN_PATTERN, message: 'Must be a refresh token this API issued' },
  }).meta({ examples: ['1234.abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQ'] }),
});

const ME_FIELDS = ['name', 'email', 'designation'] as const;
/** Any of the fields, at least one; an empty string counts as absent. */
export const appMeBody = z
  .strictObject({
    name: optionalText(100),
    email: optionalText(254, {
      pattern: { regex: /^[^\s@]+@[^\s@]+\.[^\s@]+$/, message: 'Must be an email address' },
    }),
    designation: optionalText(100),
  })
  .superRefine((body, ctx) => atLeastOne(body, ME_FIELDS, ctx), onceFieldsValid)
  .meta(atLeastOneDocumented(ME_FIELDS));

/** A feed's paging: `cursor` is the `nextCursor` of the page before; never an offset. */
export const feedQuery = z.strictObject({
  cursor: optionalText(1023, {
    pattern: { regex: CURSOR_PATTERN, message: 'Must be a nextCursor this feed answered' },
  }),
  limit: intWithDefault(1, MAX_LIMIT, DEFAULT_LIMIT),
});
export const posterFeedQuery = feedQuery.extend({
  categoryId: optionalId,
  specialDayId: optionalId,
  date: blankAsAbsent(calendarDate).meta({ description: 'Posters of this date (YYYY-MM-DD).' }),
});
export const specialDaysQuery = z.strictObject({
  from: blankAsAbsent(calendarDate).meta({ description: 'The first day; today (UTC) if absent.' }),
  days: intWithDefault(1, 90, 30),
});

export function feed<T extends z.ZodType>(row: T) {
  return z.object({ result: z.array(row), nextCursor: z.string().nullable() });
}
export function all<T extends z.ZodType>(row: T) {
  return z.object({ result: z.array(row) });
}

export const appBanner = z.object({
  id: z.number().int(),
  image: z.string(),
  link: z.string().nullable(),
  linkType: z.string(),
});
export const appCategory = z.object({
  id: z.number().int(),
  name: z.string(),
  /** This app's live posters in it. */
  posters: z.number().int(),
});
export const appSpecialDay = z.object({
  id: z.number().int(),
  name: z.string(),
  /** Its date in the period asked for (YYYY-MM-DD). */
  date: z.string(),
});
export const appPoster = z.object({
  id: z.number().int(),
  image: z.string(),
  categoryId: z.number().int(),
  category: z.string(),
  specialDayId: z.number().int().nullable(),
  specialDay: z.string().nullable(),
  date: z.string().nullable(),
  position: Side,
  topDefNum: z.number().int(),
  selfDefNum: z.number().int(),
  bottomDefNum: z.number().int(),
  downloadCount: z.number().int(),
  createdAt: timestamp,
});
export type AppPoster = z.infer<typeof appPoster>;
export const appVideo = z.object({
  id: z.number().int(),
  video: z.string(),
  date: z.string().nullable(),
  position: Side,
  topDefNum: z.number().int(),
  selfDefNum: z.number().int(),
  bottomDefNum: z.number().int(),
  createdAt: timestamp,
});
export const appBlogSummary = z.object({
  id: z.number().int(),
  title: z.string(),
  author: z.string(),
  shortDesc: z.string(),
  image: z.string().nullable(),
  date: z.string().nullable(),
  popular: z.boolean(),
  createdAt: timestamp,
});
export const appBlog = appBlogSummary.extend({ desc: z.string() });
export const appPage = z.object({ id: z.number().int(), title: z.string(), desc: z.string() });
export const appFaq = z.object({ id: z.number().int(), question: z.string(), answer: z.string() });
export const appHome = z.object({
  /** The app's settings: its title and logo; null when none are set. */
  app: z.object({
    id: z.number().int(),
    name: z.string(),
    title: z.string().nullable(),
    logo: z.string().nullable(),
  }),
  banners: z.array(appBanner),
  categories: z.array(appCategory),
  /** Special days from today for 30 days. */
  specialDays: z.array(appSpecialDay),
});

export const appImage = z.object({
  kind: z.enum(IMAGE_KINDS),
  defNum: z.number().int(),
  position: Side.nullable(),
  image: z.string(),
  updatedAt: timestamp,
});
export const appImageParams = z.strictObject({
  kind: z.enum(IMAGE_KINDS, { error: `Must be one of ${IMAGE_KINDS.join(', ')}` }),
  number: pathInt(1, 1000),
});
export const appImageBody = z.strictObject({ position: optionalEnum(SIDES) });
export const appPosterParams = z.strictObject({ id: pathId });

export const appNotification = z.object({
  id: z.number().int(),
  title: z.string(),
  desc: z.string(),
  type: z.string(),
  logo: z.string().nullable(),
  /** Sent to this user alone (false: to every user of the app). */
  personal: z.boolean(),
  read: z.boolean(),
  createdAt: timestamp,
});
export const appWalletRow = z.object({
  id: z.number().int(),
  reward: z.number(),
  depositFor: Activity,
  status: WalletKind,
  feed: z.string().nullable(),
  createdAt: timestamp,
});
export const appShareBody = z.strictObject({
  to: optionalText(40).meta({ description: 'Where it was shared (whatsapp, instagram …).' }),
});
export const appDownload = z.object({ url: z.string(), downloadCount: z.number().int() });
export const appLike = z.object({ message: z.string(), liked: z.boolean() });
export const appMessage = z.object({ message: z.string() });
export const appContactUsBody = contactUsBody;

/** The back-office's view of an app key (Master Apps, SUPER_ADMIN). */
export const appKeyAnswer = z.object({
  message: z.string(),
  result: z.object({
    key: z.string(),
    createdAt: timestamp,
    /** The key it replaced, working until `until` (null when there is none). */
    previous: z.object({ key: z.string(), until: timestamp }).nullable(),
  }),
});
export type AppKeyAnswer = z.infer<typeof appKeyAnswer>;
