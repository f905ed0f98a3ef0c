/**
 * Each list's columns as people read them (issue #22): the CSV export's header row, and the web
 * screens' column headings where a column shows one field. A title for every field of the list's
 * row (the type says which; the server checks it at start), in the order the file has them;
 * `null` leaves a field out of the file when another column already holds it (a nested row's id
 * beside the row's own `masterAppId`).
 */
import type { AuditEntry } from './audit.ts';
import type { Banner } from './banners.ts';
import type { Blog } from './blogs.ts';
import type { Category } from './categories.ts';
import type { ContactUs } from './contact-us.ts';
import type { Faq } from './faqs.ts';
import type { MasterApp } from './master-apps.ts';
import type { Notification } from './notifications.ts';
import type { Page } from './pages.ts';
import type { Poster } from './posters.ts';
import type { Settings } from './settings.ts';
import type { SpecialDay } from './special-days.ts';
import type { Staff } from './staff.ts';
import type { ActivityRow, LoginHistoryRow, User, UserImage, WalletRow } from './users.ts';
import type { Video } from './videos.ts';

type PathOf<V, K extends string> = unknown extends V
  ? K
  : NonNullable<V> extends ReadonlyArray<infer E>
    ? NonNullable<E> extends Record<string, unknown>
      ? `${K}.${RowPath<NonNullable<E>>}`
      : K
    : NonNullable<V> extends Record<string, unknown>
      ? `${K}.${RowPath<NonNullable<V>>}`
      : K;

/** The fields of a list row as the export names them: nested ones as `masterApp.name`. */
export type RowPath<T> = { [K in keyof T & string]-?: PathOf<T[K], K> }[keyof T & string];

/**
 * A title for every field of a list row (null: left out of the file), but its `version`: a
 * concurrency token (API.md, "Versions"), never a column.
 */
export type ColumnTitles<T> = {
  readonly [P in Exclude<RowPath<T>, 'version'>]: string | null;
};

export const MASTER_APP_COLUMNS = {
  id: 'ID',
  name: 'Name',
  timeZone: 'Time zone',
  timeZoneIsDefault: 'Time zone is the default',
  createdAt: 'Created',
} as const satisfies ColumnTitles<MasterApp>;

export const BANNER_COLUMNS = {
  id: 'Banner',
  image: 'Image',
  'masterApp.id': 'Master app ID',
  'masterApp.name': 'Master app',
  link: 'Link',
  linkType: 'Link type',
  status: 'Status',
  liveFrom: 'Live from',
  liveUntil: 'Live until',
  createdAt: 'Created',
  updatedAt: 'Updated',
} as const satisfies ColumnTitles<Banner>;

export const BLOG_COLUMNS = {
  id: 'ID',
  image: 'Image',
  title: 'Title',
  author: 'Author',
  date: 'Date',
  popular: 'Popular',
  status: 'Status',
  shortDesc: 'Short description',
  desc: 'Description',
  createdAt: 'Created',
  updatedAt: 'Updated',
} as const satisfies ColumnTitles<Blog>;

export const PAGE_COLUMNS = {
  id: 'ID',
  title: 'Title',
  'masterApp.id': 'Master app ID',
  'masterApp.name': 'Master app',
  desc: 'Content',
  updatedAt: 'Updated',
} as const satisfies ColumnTitles<Page>;

export const FAQ_COLUMNS = {
  id: 'ID',
  question: 'Question',
  answer: 'Answer',
  createdAt: 'Created',
} as const satisfies ColumnTitles<Faq>;

export const CATEGORY_COLUMNS = {
  id: 'ID',
  name: 'Name',
  downloadCount: 'Downloads',
  status: 'Status',
  createdAt: 'Created',
} as const satisfies ColumnTitles<Category>;

export const SPECIAL_DAY_COLUMNS = {
  id: 'ID',
  name: 'Name',
  day: 'Day',
  month: 'Month',
  year: 'Year',
  status: 'Status',
  createdAt: 'Created',
  updatedAt: 'Updated',
} as const satisfies ColumnTitles<SpecialDay>;

export const CONTACT_US_COLUMNS = {
  id: 'ID',
  fName: 'First name',
  lName: 'Last name',
  email: 'Email',
  phoneNumber: 'Phone',
  query: 'Query',
  createdAt: 'Received',
} as const satisfies ColumnTitles<ContactUs>;

export const SETTINGS_COLUMNS = {
  id: 'ID',
  logo: 'Logo',
  title: 'Title',
  'masterApp.id': 'Master app ID',
  'masterApp.name': 'Master app',
  user_domain: 'User domain',
  admin_domain: 'Admin domain',
  mobile_domain: 'Mobile domain',
  updatedAt: 'Updated',
} as const satisfies ColumnTitles<Settings>;

export const NOTIFICATION_COLUMNS = {
  id: 'ID',
  logo: 'Logo',
  title: 'Title',
  desc: 'Description',
  type: 'Type',
  accountId: 'To (user ID)',
  read: 'Read',
  readCount: 'Read by',
  masterAppId: 'Master app ID',
  'masterApp.id': null,
  'masterApp.name': 'Master app',
  createdAt: 'Created',
} as const satisfies ColumnTitles<Notification>;

/**
 * What posters and videos share, titled once: their app, the user's images placed on them, date,
 * counts, status; then when they were made and changed. Two parts, so that a poster's uploader
 * keeps its place between them in the file. Each names only fields both rows have.
 */
type SharedTitles = { readonly [P in RowPath<Poster> & RowPath<Video>]?: string | null };
const PLACED_COLUMNS = {
  masterAppId: 'Master app ID',
  'masterApp.id': null,
  'masterApp.name': 'Master app',
  topDefNum: 'Top number',
  selfDefNum: 'Self number',
  bottomDefNum: 'Bottom number',
  position: 'Self photo side',
  date: 'Date',
  downloadCount: 'Downloads',
  status: 'Status',
  liveFrom: 'Live from',
  liveUntil: 'Live until',
} as const satisfies SharedTitles;
const PLACED_TIMES_COLUMNS = {
  createdAt: 'Created',
  updatedAt: 'Updated',
} as const satisfies SharedTitles;

export const POSTER_COLUMNS = {
  id: 'ID',
  poster: 'Poster',
  videoThumb: 'Thumbnail',
  categoryId: 'Category ID',
  'category.id': null,
  'category.name': 'Category',
  specialDayId: 'Special day ID',
  'specialDay.id': null,
  'specialDay.name': 'Special day',
  'specialDay.day': 'Special day: day',
  'specialDay.month': 'Special day: month',
  ...PLACED_COLUMNS,
  'account.id': 'Uploaded by (ID)',
  'account.phoneNumber': 'Uploaded by (phone number)',
  ...PLACED_TIMES_COLUMNS,
} as const satisfies ColumnTitles<Poster>;

export const VIDEO_COLUMNS = {
  id: 'ID',
  videoUrl: 'Video',
  iframeLink: 'Player link',
  video_id: 'Video file ID',
  library_id: 'Video store',
  ...PLACED_COLUMNS,
  ...PLACED_TIMES_COLUMNS,
} as const satisfies ColumnTitles<Video>;

export const USER_COLUMNS = {
  id: 'ID',
  'userDetail.id': null,
  'userDetail.userId': null,
  'userDetail.name': 'Name',
  phoneNumber: 'Phone number',
  'userDetail.email': 'Email',
  'userDetail.designation': 'Designation',
  'userDetail.adminAssignName': 'Name given by the admin',
  'userDetail.profile': 'Profile picture',
  'userDetail.top': 'Top banner',
  'userDetail.bottom': 'Bottom banner',
  masterAppId: 'Master app ID',
  'masterApp.id': null,
  'masterApp.name': 'Master app',
  dateLimit: 'Date limit',
  status: 'Status',
  createdAt: 'Registered',
  updatedAt: 'Updated',
} as const satisfies ColumnTitles<User>;

export const USER_IMAGE_COLUMNS = {
  id: 'ID',
  accountId: 'User ID',
  defNum: 'Number',
  image: 'Image',
  position: 'Side',
  createdAt: 'Uploaded',
  updatedAt: 'Updated',
} as const satisfies ColumnTitles<UserImage>;

export const WALLET_COLUMNS = {
  id: 'ID',
  reward: 'Reward',
  status: 'Kind',
  depositFor: 'For',
  feed: 'Feed',
  createdAt: 'When',
} as const satisfies ColumnTitles<WalletRow>;

export const LOGIN_HISTORY_COLUMNS = {
  id: 'ID',
  status: 'Event',
  ip: 'IP address',
  latitude: 'Latitude',
  longitude: 'Longitude',
  device: 'Device',
  createdAt: 'When',
} as const satisfies ColumnTitles<LoginHistoryRow>;

export const ACTIVITY_COLUMNS = {
  id: 'ID',
  activity: 'Activity',
  posterId: 'Poster ID',
  detail: 'Detail',
  device: 'Device',
  ip: 'IP address',
  createdAt: 'When',
} as const satisfies ColumnTitles<ActivityRow>;

export const STAFF_COLUMNS = {
  id: 'ID',
  'staffDetail.id': null,
  'staffDetail.name': 'Name',
  'staffDetail.email': 'Email',
  phoneNumber: 'Phone',
  roles: 'Job title',
  status: 'Status',
  createdAt: 'Created',
  secondFactor: null,
} as const satisfies ColumnTitles<Staff>;

export const AUDIT_COLUMNS = {
  id: 'ID',
  createdAt: 'When',
  accountId: 'Who (ID)',
  accountName: 'Who',
  ip: 'Address',
  device: 'Device',
  area: 'Area',
  rowId: 'Row',
  action: 'Action',
  'changes.field': 'Changed field',
  'changes.old': 'Old value',
  'changes.new': 'New value',
  'changes.redacted': 'Value hidden',
} as const satisfies ColumnTitles<AuditEntry>;
