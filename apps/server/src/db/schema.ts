/**
 * The one `Database` interface Kysely types every query with. Property names are camelCase; the
 * CamelCasePlugin maps them to the snake_case columns the migrations create.
 *
 * Both engines return timestamps as ISO-8601 UTC strings, dates as YYYY-MM-DD and counts as
 * numbers (see connect.ts). SQLite returns booleans as 0/1, so boolean columns read as
 * `boolean | number` and row mappers turn them into booleans.
 */
import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';
import type {
  Activity,
  ImageKind,
  LinkType,
  LoginDirection,
  PermissionKind,
  Role,
  Side,
  Status,
  WalletKind,
} from '@master-admin/contract';

type Timestamp = string;
type Bool = ColumnType<boolean | number, boolean, boolean>;

export interface AccountTable {
  id: Generated<number>;
  /** Moved by every change (db/versions.ts); API.md "Versions". */
  version: Generated<number>;
  role: Role;
  name: string | null;
  email: string | null;
  phoneNumber: string | null;
  passwordHash: string | null;
  status: Status;
  masterAppId: number | null;
  dateLimit: string | null;
  /** A staff account's job title ("Editor"); not its access role. */
  roles: ColumnType<string | null, string | null | undefined, string | null>;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

export interface SessionTable {
  id: string;
  accountId: number;
  ip: string | null;
  userAgent: string | null;
  createdAt: Timestamp;
  expiresAt: Timestamp;
  revokedAt: Timestamp | null;
  /** The number the session is shown and ended by; `id` is the token's secret, never shown. */
  publicId: number;
  lastSeenAt: Timestamp | null;
  /** How it began: password, totp, recovery or passkey. */
  signInMethod: string | null;
  /** May only enrol a second factor (the owner requires one and the account has none). */
  enrolmentOnly: ColumnType<boolean | number, boolean | undefined, boolean>;
  /** When the session last proved who it is: its sign-in, or `auth/reauth` since. */
  provedAt: Timestamp | null;
  /** The app an end user's session belongs to (apps API); null for a back-office session. */
  masterAppId: ColumnType<number | null, number | null | undefined, number | null>;
  /** The device an app named at sign-in. */
  deviceName: ColumnType<string | null, string | null | undefined, string | null>;
  platform: ColumnType<string | null, string | null | undefined, string | null>;
}

/** The key a master app's calls of the apps API carry; a rotated one works until `retiresAt`. */
export interface AppKeyTable {
  key: string;
  masterAppId: number;
  createdAt: Timestamp;
  retiresAt: Timestamp | null;
}

/** An app session's refresh tokens: the current one and those used (a used one ends it). */
export interface AppRefreshTokenTable {
  tokenHash: string;
  sessionId: string;
  createdAt: Timestamp;
  usedAt: Timestamp | null;
}

/** A one-time sign-in code sent to a phone number (apps API). */
export interface OtpCodeTable {
  id: Generated<number>;
  masterAppId: number;
  phoneNumber: string;
  /** HMAC-SHA-256 (hex) of the code, keyed with the server's secret. */
  codeHash: string;
  ip: string;
  tries: ColumnType<number, number | undefined, number>;
  createdAt: Timestamp;
  expiresAt: Timestamp;
  usedAt: Timestamp | null;
}

/** What an end user did in the content app. */
export interface UserActivityTable {
  id: Generated<number>;
  accountId: number;
  activity: Activity;
  posterId: number | null;
  detail: string | null;
  ip: string | null;
  device: string | null;
  createdAt: Timestamp;
}

export interface PosterLikeTable {
  accountId: number;
  posterId: number;
  createdAt: Timestamp;
}

export interface NotificationReadTable {
  notificationId: number;
  accountId: number;
  readAt: Timestamp;
}

export interface TotpFactorTable {
  accountId: number;
  /** Base32, as authenticator apps take it. */
  secret: string;
  createdAt: Timestamp;
  /** Null until a code confirmed the enrolment. */
  confirmedAt: Timestamp | null;
  /** The last RFC 6238 time step accepted: a code is accepted once. */
  lastStep: number | null;
}

export interface RecoveryCodeTable {
  id: Generated<number>;
  accountId: number;
  /** SHA-256 (hex) of the code. */
  codeHash: string;
  createdAt: Timestamp;
  usedAt: Timestamp | null;
}

export interface PasskeyTable {
  id: Generated<number>;
  accountId: number;
  /** base64url, as WebAuthn names the credential. */
  credentialId: string;
  /** base64url of the COSE public key. */
  publicKey: string;
  counter: ColumnType<number, number | undefined, number>;
  /** Comma-separated WebAuthn transports. */
  transports: string | null;
  name: string;
  createdAt: Timestamp;
  lastUsedAt: Timestamp | null;
}

export interface AuthChallengeTable {
  id: string;
  /** login (a sign-in's second step), passkey-register, passkey-login. */
  kind: string;
  accountId: number | null;
  createdAt: Timestamp;
  expiresAt: Timestamp;
  usedAt: Timestamp | null;
}

export interface SecuritySettingsTable {
  id: number;
  requireSecondFactor: ColumnType<boolean | number, boolean | undefined, boolean>;
  updatedAt: Timestamp | null;
}

export interface LoginHistoryTable {
  id: Generated<number>;
  accountId: number;
  ip: string | null;
  latitude: number | null;
  longitude: number | null;
  status: LoginDirection;
  /** The device an app sign-in named, or a back-office sign-in's browser and system (null before #34). */
  device: ColumnType<string | null, string | null | undefined, string | null>;
  createdAt: Timestamp;
}

/** Sign-in attempts per key in the current window (auth/throttle.ts). */
export interface LoginThrottleTable {
  key: string;
  windowStart: Timestamp;
  count: number;
}

export interface MasterAppTable {
  id: Generated<number>;
  /** Moved by every change (db/versions.ts); API.md "Versions". */
  version: Generated<number>;
  name: string;
  /** IANA time zone; null: the server's DEFAULT_TIME_ZONE (migration 0028). */
  timeZone: string | null;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

export interface MenuTable {
  id: Generated<number>;
  /** Moved by every change (db/versions.ts); API.md "Versions". */
  version: Generated<number>;
  name: string;
  title: string;
  builtIn: Bool;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

export interface PermissionTable {
  id: Generated<number>;
  name: PermissionKind;
}

export interface UserPermissionTable {
  id: Generated<number>;
  accountId: number;
  menuId: number;
  permissionId: number;
  status: Bool;
  updatedAt: Timestamp;
}

export interface CategoryTable {
  id: Generated<number>;
  /** Moved by every change (db/versions.ts); API.md "Versions". */
  version: Generated<number>;
  name: string;
  downloadCount: ColumnType<number, number | undefined, number>;
  status: Status;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

export interface SpecialDayTable {
  id: Generated<number>;
  /** Moved by every change (db/versions.ts); API.md "Versions". */
  version: Generated<number>;
  name: string;
  month: number;
  day: number;
  year: number | null;
  status: Status;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

export interface PosterTable {
  id: Generated<number>;
  /** Moved by every change (db/versions.ts); API.md "Versions". */
  version: Generated<number>;
  masterAppId: number;
  categoryId: number;
  specialDayId: number | null;
  accountId: number;
  topDefNum: number;
  selfDefNum: number;
  bottomDefNum: number;
  poster: string;
  videoThumb: string | null;
  date: string | null;
  downloadCount: ColumnType<number, number | undefined, number>;
  status: Status;
  position: Side;
  /** The window in which an ACTIVE row is live; null: open at that end (migration 0028). */
  liveFrom: ColumnType<string | null, string | null | undefined, string | null>;
  liveUntil: ColumnType<string | null, string | null | undefined, string | null>;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

export interface VideoTable {
  id: Generated<number>;
  /** Moved by every change (db/versions.ts); API.md "Versions". */
  version: Generated<number>;
  masterAppId: number;
  /** The uploader. */
  accountId: number;
  /** Media key of the stored file (`videos/<hash[0..2]>/<hash>.<mp4|webm|mov>`). */
  video: string;
  topDefNum: number;
  selfDefNum: number;
  bottomDefNum: number;
  position: Side;
  date: string | null;
  downloadCount: ColumnType<number, number | undefined, number>;
  status: Status;
  /** The window in which an ACTIVE row is live; null: open at that end (migration 0028). */
  liveFrom: ColumnType<string | null, string | null | undefined, string | null>;
  liveUntil: ColumnType<string | null, string | null | undefined, string | null>;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

export interface BannerTable {
  id: Generated<number>;
  /** Moved by every change (db/versions.ts); API.md "Versions". */
  version: Generated<number>;
  masterAppId: number;
  /** Media key. */
  image: string;
  link: string | null;
  linkType: LinkType;
  status: Status;
  /** The window in which an ACTIVE row is live; null: open at that end (migration 0028). */
  liveFrom: ColumnType<string | null, string | null | undefined, string | null>;
  liveUntil: ColumnType<string | null, string | null | undefined, string | null>;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

export interface BlogTable {
  id: Generated<number>;
  /** Moved by every change (db/versions.ts); API.md "Versions". */
  version: Generated<number>;
  title: string;
  author: string;
  shortDesc: string;
  /** Sanitised HTML. */
  desc: string;
  image: string | null;
  date: string | null;
  popular: Bool;
  status: Status;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

export interface PageTable {
  id: Generated<number>;
  /** Moved by every change (db/versions.ts); API.md "Versions". */
  version: Generated<number>;
  masterAppId: number;
  title: string;
  /** Sanitised HTML. */
  desc: string;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

export interface FaqTable {
  id: Generated<number>;
  /** Moved by every change (db/versions.ts); API.md "Versions". */
  version: Generated<number>;
  question: string;
  answer: string;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

export interface SettingsTable {
  id: Generated<number>;
  /** Moved by every change (db/versions.ts); API.md "Versions". */
  version: Generated<number>;
  masterAppId: number;
  title: string;
  userDomain: string | null;
  adminDomain: string | null;
  mobileDomain: string | null;
  /** Media key. */
  logo: string;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

export interface NotificationTable {
  id: Generated<number>;
  /** Moved by every change (db/versions.ts); API.md "Versions". */
  version: Generated<number>;
  masterAppId: number;
  accountId: number | null;
  title: string;
  desc: string;
  type: string;
  read: ColumnType<boolean | number, boolean | undefined, boolean>;
  /** How many users read it (`notification_reads`), kept with them. */
  readCount: ColumnType<number, number | undefined, number>;
  /** Media key. */
  logo: string | null;
  createdAt: Timestamp;
}

export interface ContactUsTable {
  id: Generated<number>;
  /** Moved by every change (db/versions.ts); API.md "Versions". */
  version: Generated<number>;
  fName: string;
  lName: string;
  email: string;
  phoneNumber: string;
  query: string;
  createdAt: Timestamp;
}

/** A USER account's details beside the account (name, email and phone live on the account). */
export interface UserDetailTable {
  id: Generated<number>;
  accountId: number;
  designation: string | null;
  adminAssignName: string | null;
  /** Media keys. */
  profile: string | null;
  top: string | null;
  bottom: string | null;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

/** A user's numbered top, self or bottom image; (account, kind, defNum) is unique. */
export interface UserImageTable {
  id: Generated<number>;
  /** Moved by every change (db/versions.ts); API.md "Versions". */
  version: Generated<number>;
  accountId: number;
  kind: ImageKind;
  defNum: number;
  /** Self images only. */
  position: Side | null;
  /** Media key. */
  image: string;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

/** A reward-history row, written by the content app. */
export interface WalletTable {
  id: Generated<number>;
  accountId: number;
  reward: number;
  depositFor: Activity;
  status: WalletKind;
  feed: string | null;
  createdAt: Timestamp;
}

/** A poster's downloads on one UTC day, written by the content app. */
export interface PosterDownloadTable {
  posterId: number;
  /** YYYY-MM-DD, UTC. */
  day: string;
  n: number;
}

/** Kept by triggers (migration 0014): posters, live users and downloads per app and UTC day. */
export interface TrendCountTable {
  metric: 'posters' | 'users' | 'downloads';
  masterAppId: number;
  /** YYYY-MM-DD, UTC. */
  day: string;
  n: number | string;
}

/**
 * Kept by triggers (migration 0017): downloads per app and category, or per poster (with its
 * app), in each UTC day, week from Monday, month (and, for categories, year) starting on `start`.
 */
export interface TopCategoryDownloadTable {
  grain: 'd' | 'w' | 'm' | 'y';
  masterAppId: number;
  /** YYYY-MM-DD, UTC: the unit's first day. */
  start: string;
  categoryId: number;
  n: number | string;
}
export interface TopPosterDownloadTable {
  grain: 'd' | 'w' | 'm';
  masterAppId: number;
  /** YYYY-MM-DD, UTC: the unit's first day. */
  start: string;
  posterId: number;
  n: number | string;
}
/** Kept by triggers (migration 0017): each poster's downloads of all time. */
export interface TopPosterTotalTable {
  posterId: number;
  masterAppId: number;
  n: number | string;
}

/** Rows per list and grouping set of filter values, kept by triggers (list-structures.ts). */
export interface ListCountTable {
  list: string;
  grp: number;
  k1: string;
  k2: string;
  k3: string;
  k4: string;
  n: number;
}

/** One change a signed-in account made (audit/record.ts); append-only. */
export interface AuditLogTable {
  id: Generated<number>;
  accountId: number;
  ip: string | null;
  /** The browser and system (auth/device.ts), for security events; null before #24. */
  device: ColumnType<string | null, string | null | undefined, string | null>;
  area: string;
  rowId: number | null;
  action: string;
  /** JSON: the changed fields, [{ field, old, new, redacted? }]. */
  changes: string;
  createdAt: Timestamp;
}

/** Who is editing which row, until when (events/presence.ts). */
export interface PresenceTable {
  /** A menu name, as the event stream names areas. */
  area: string;
  rowId: number;
  accountId: number;
  expiresAt: Timestamp;
}

/** One open event stream, on any instance (events/streams.ts). */
export interface EventStreamTable {
  id: Generated<number>;
  accountId: number;
  openedAt: Timestamp;
}

/**
 * An `Idempotency-Key` a change call sent (http/idempotency.ts): its request's fingerprint, how
 * far the request got and, once done, its answer; kept until `expiresAt` (24 hours).
 */
export interface IdempotencyKeyTable {
  /** The caller's account; 0 for a call made without a session. */
  accountId: number;
  key: string;
  fingerprint: string;
  state: 'running' | 'committed' | 'done';
  /** The answer's status; on a 'committed' row, the status of an answer that was not kept. */
  status: number | null;
  contentType: string | null;
  body: string | null;
  /** When the request that holds the key claimed it (a take-over claims it again). */
  createdAt: Timestamp;
  expiresAt: Timestamp;
}

/** A deleted row kept for restore (migration 0029, features/trash). */
export interface TrashTable {
  id: Generated<number>;
  area: string;
  rowId: number;
  title: string;
  /** Media key of the row's picture. */
  thumbnail: string | null;
  /** The row as JSON (its columns by their camelCase names). */
  row: string;
  /** The rows that went with it by cascade, as JSON: `{ <table>: [rows] }`. */
  related: string;
  deletedAt: Timestamp;
  deletedBy: number | null;
}

/** A media key a trashed row holds: in use until the row is purged. */
export interface TrashMediaTable {
  trashId: number;
  key: string;
}

export interface Database {
  accounts: AccountTable;
  sessions: SessionTable;
  loginHistory: LoginHistoryTable;
  loginThrottle: LoginThrottleTable;
  masterApps: MasterAppTable;
  menus: MenuTable;
  permissions: PermissionTable;
  userPermissions: UserPermissionTable;
  categories: CategoryTable;
  specialDays: SpecialDayTable;
  posters: PosterTable;
  posterDownloads: PosterDownloadTable;
  trendCounts: TrendCountTable;
  topCategoryDownloads: TopCategoryDownloadTable;
  topPosterDownloads: TopPosterDownloadTable;
  topPosterTotals: TopPosterTotalTable;
  videos: VideoTable;
  banners: BannerTable;
  blogs: BlogTable;
  pages: PageTable;
  faqs: FaqTable;
  settings: SettingsTable;
  notifications: NotificationTable;
  contactUs: ContactUsTable;
  listCounts: ListCountTable;
  userDetails: UserDetailTable;
  userImages: UserImageTable;
  wallets: WalletTable;
  auditLog: AuditLogTable;
  presence: PresenceTable;
  totpFactors: TotpFactorTable;
  recoveryCodes: RecoveryCodeTable;
  passkeys: PasskeyTable;
  authChallenges: AuthChallengeTable;
  securitySettings: SecuritySettingsTable;
  eventStreams: EventStreamTable;
  idempotencyKeys: IdempotencyKeyTable;
  appKeys: AppKeyTable;
  appRefreshTokens: AppRefreshTokenTable;
  otpCodes: OtpCodeTable;
  userActivities: UserActivityTable;
  posterLikes: PosterLikeTable;
  notificationReads: NotificationReadTable;
  trash: TrashTable;
  trashMedia: TrashMediaTable;
}

export type Account = Selectable<AccountTable>;
export type NewAccount = Insertable<AccountTable>;
export type AccountUpdate = Updateable<AccountTable>;
