/**
 * What the trash knows of each area whose deletes it keeps (API.md "Planning festivals"): the
 * table, the menu whose DELETE right covers it, the columns holding media keys, the rows that go
 * with a row by cascade (kept with it, so a restore brings its counts back), the rows it points
 * at (which must be there again for a restore), the title the trash list shows.
 */
import { TRASH_AREA_MENUS, type TrashArea } from '@master-admin/contract';
import type { Database } from '../../db/schema.ts';

/** A row as the trash keeps it: its columns by their camelCase names. */
export type KeptRow = Record<string, unknown> & { id: number };

/** Names of the rows a title mentions, by table and id. */
export type Names = {
  masterApps: Map<number, string>;
  categories: Map<number, string>;
  specialDays: Map<number, string>;
};

export type TrashAreaSpec = {
  table: keyof Database;
  /** The row as a sentence names it: "Poster 12". */
  noun: string;
  menu: string;
  /** Columns holding a media key. */
  media: readonly string[];
  /** Rich-text columns: the media keys inside them are kept too. */
  richText: readonly string[];
  /** The column of the row's picture, if any. */
  thumbnail?: string;
  /** Tables whose rows reference this row and go with it (foreign key ON DELETE CASCADE). */
  related: ReadonlyArray<{
    table: 'posterDownloads' | 'posterLikes' | 'notificationReads';
    column: string;
  }>;
  /** Columns pointing at other rows, which a restore needs (a null column needs nothing). */
  parents: ReadonlyArray<{ column: string; table: keyof Database; noun: string }>;
  /** A unique value a restore must find free: the column and the index's comparison. */
  unique?: { column: string; lower: boolean };
  title: (row: KeptRow, names: Names) => string;
};

const app = { column: 'masterAppId', table: 'masterApps', noun: 'master app' } as const;
const appName = (row: KeptRow, names: Names) =>
  names.masterApps.get(row.masterAppId as number) ?? `app ${String(row.masterAppId)}`;
const text = (value: unknown, fallback: string) =>
  typeof value === 'string' && value.trim() !== '' ? value.trim().slice(0, 200) : fallback;

export const TRASH_SPECS: { [A in TrashArea]: TrashAreaSpec } = {
  posters: {
    table: 'posters',
    noun: 'Poster',
    menu: TRASH_AREA_MENUS.posters,
    media: ['poster', 'videoThumb'],
    richText: [],
    thumbnail: 'poster',
    related: [
      { table: 'posterDownloads', column: 'posterId' },
      { table: 'posterLikes', column: 'posterId' },
    ],
    parents: [
      app,
      { column: 'categoryId', table: 'categories', noun: 'category' },
      { column: 'specialDayId', table: 'specialDays', noun: 'special day' },
      { column: 'accountId', table: 'accounts', noun: 'account' },
    ],
    title: (row, names) =>
      [
        names.categories.get(row.categoryId as number) ?? `Category ${String(row.categoryId)}`,
        row.specialDayId === null ? undefined : names.specialDays.get(row.specialDayId as number),
        appName(row, names),
      ]
        .filter((part) => part !== undefined)
        .join(' · '),
  },
  videos: {
    table: 'videos',
    noun: 'Video',
    menu: TRASH_AREA_MENUS.videos,
    media: ['video'],
    richText: [],
    related: [],
    parents: [app, { column: 'accountId', table: 'accounts', noun: 'account' }],
    title: (row, names) =>
      `Video · ${appName(row, names)}${typeof row.date === 'string' ? ` · ${row.date}` : ''}`,
  },
  banners: {
    table: 'banners',
    noun: 'Banner',
    menu: TRASH_AREA_MENUS.banners,
    media: ['image'],
    richText: [],
    thumbnail: 'image',
    related: [],
    parents: [app],
    title: (row, names) => `${text(row.link, 'Banner')} · ${appName(row, names)}`,
  },
  categories: {
    table: 'categories',
    noun: 'Category',
    menu: TRASH_AREA_MENUS.categories,
    media: [],
    richText: [],
    related: [],
    parents: [],
    unique: { column: 'name', lower: true },
    title: (row) => text(row.name, 'Category'),
  },
  specialDays: {
    table: 'specialDays',
    noun: 'Special day',
    menu: TRASH_AREA_MENUS.specialDays,
    media: [],
    richText: [],
    related: [],
    parents: [],
    title: (row) => `${text(row.name, 'Special day')} (${String(row.day)}/${String(row.month)})`,
  },
  blogs: {
    table: 'blogs',
    noun: 'Blog',
    menu: TRASH_AREA_MENUS.blogs,
    media: ['image'],
    richText: ['desc'],
    thumbnail: 'image',
    related: [],
    parents: [],
    title: (row) => text(row.title, 'Blog'),
  },
  pages: {
    table: 'pages',
    noun: 'Page',
    menu: TRASH_AREA_MENUS.pages,
    media: [],
    richText: ['desc'],
    related: [],
    parents: [app],
    title: (row, names) => `${text(row.title, 'Page')} · ${appName(row, names)}`,
  },
  faqs: {
    table: 'faqs',
    noun: 'FAQ',
    menu: TRASH_AREA_MENUS.faqs,
    media: [],
    richText: [],
    related: [],
    parents: [],
    title: (row) => text(row.question, 'FAQ'),
  },
  notifications: {
    table: 'notifications',
    noun: 'Notification',
    menu: TRASH_AREA_MENUS.notifications,
    media: ['logo'],
    richText: [],
    thumbnail: 'logo',
    related: [{ table: 'notificationReads', column: 'notificationId' }],
    parents: [app, { column: 'accountId', table: 'accounts', noun: 'account' }],
    title: (row, names) => `${text(row.title, 'Notification')} · ${appName(row, names)}`,
  },
};

/**
 * The order a restore puts areas back in: rows others point at first (a category and its
 * posters restored in one call).
 */
export const RESTORE_ORDER: readonly TrashArea[] = [
  'categories',
  'specialDays',
  'posters',
  'videos',
  'banners',
  'blogs',
  'pages',
  'faqs',
  'notifications',
];
