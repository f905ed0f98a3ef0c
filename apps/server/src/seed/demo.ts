/**
 * `npm run admin -- demo`: a believable festival-poster business in an empty database. Rows are
 * written as the areas write them (a master app with its standard pages, staff with their
 * permission rows, a user with its details, images stored through the media service); counts and
 * search structures follow through their triggers. Choices come from a seeded random source, so
 * every run makes the same rows; dates spread over the last year. Each demo row is found by its
 * name before it is added, and a row's dependants (a user's images, wallet and history) are written
 * with it in one transaction, so `--force` adds only what is missing and never changes a row.
 */
import { sql } from 'kysely';
import type { Db } from '../db/connect.ts';
import { createBackOfficeAccount } from '../features/accounts/service.ts';
import { generatedPassword } from '../auth/passwords.ts';
import { createMasterApp } from '../features/master-apps/lookup.ts';
import { mediaPrefixes, sanitizeRichText } from '../http/rich-text.ts';
import type { MediaService } from '../media/service.ts';
import { seedTrash } from './demo-trash.ts';
import { randomSource, type RandomSource } from './bench.ts';
import {
  APP_DOMAINS,
  DEMO_APPS,
  DEMO_TIME_ZONES,
  DEMO_CATEGORIES,
  DEMO_SPECIAL_DAYS,
  DEMO_STAFF,
  PAGE_TEXTS,
} from './demo-catalog.ts';
import { PALETTES, cardSvg, storePicture } from './demo-pictures.ts';
import { seedPostersVideosBanners } from './demo-posters.ts';
import { seedUsers } from './demo-users.ts';
import { seedWriting } from './demo-writing.ts';

const DAY_MS = 86_400_000;

/** How much the demo makes: `full` for people, `small` for tests (the same kinds, fewer rows). */
export type DemoSize = 'full' | 'small';
const SIZES = {
  full: {
    designs: 96,
    users: 90,
    videos: 4,
    bannersPerApp: 4,
    blogs: 8,
    faqs: 10,
    notices: 8,
    enquiries: 30,
  },
  small: {
    designs: 8,
    users: 6,
    videos: 1,
    bannersPerApp: 1,
    blogs: 2,
    faqs: 3,
    notices: 2,
    enquiries: 4,
  },
} as const;

/** Tables whose rows mean the database has content (the first admin account alone does not). */
const CONTENT_TABLES = [
  ['masterApps', 'master apps'],
  ['categories', 'categories'],
  ['specialDays', 'special days'],
  ['posters', 'posters'],
  ['videos', 'videos'],
  ['banners', 'banners'],
  ['blogs', 'blogs'],
  ['faqs', 'FAQs'],
  ['notifications', 'notifications'],
  ['contactUs', 'enquiries'],
  ['settings', 'settings'],
] as const;

/** What content the database holds, as "3 posters"; empty when it has none. */
export async function existingContent(db: Db): Promise<string[]> {
  const found: string[] = [];
  for (const [table, label] of CONTENT_TABLES) {
    const { n } = await db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    if (Number(n) > 0) found.push(`${Number(n)} ${label}`);
  }
  const accounts = await db
    .selectFrom('accounts')
    .select(['role', (eb) => eb.fn.countAll<number>().as('n')])
    .where('role', '!=', 'SUPER_ADMIN')
    .groupBy('role')
    .execute();
  for (const { role, n } of accounts) {
    found.push(`${Number(n)} ${role === 'USER' ? 'users' : 'staff accounts'}`);
  }
  return found;
}

export type DemoStaff = { email: string; name: string; password?: string; menus: string[] };
export type DemoResult = { added: Record<string, number>; staff: DemoStaff[] };

/** What the parts of the demo share: its size, the rows made first, the clock and the tally. */
export type DemoScope = {
  size: (typeof SIZES)[DemoSize];
  apps: number[];
  days: Array<{ id: number; name: string; date: Date; category: string }>;
  categories: Map<string, number>;
  /** The categories this run added (only their download totals are written). */
  newCategories: number[];
  /** The content editor, who uploads most posters and the videos. */
  editor: number;
  /** The first admin (the editor when there is none), who uploads the rest. */
  owner: number;
  rng: RandomSource;
  at: (daysAgo: number) => string;
  tally: Tally;
  now: number;
  today: Date;
};

/** Keeps what one run adds, per area, for the report. */
export class Tally {
  readonly added: Record<string, number> = {};
  add(area: string, n = 1) {
    this.added[area] = (this.added[area] ?? 0) + n;
  }
}

/** The date of `month`/`day` within [today − 300 days, today + 65 days): last year's or the next. */
function occurrence(month: number, day: number, today: Date): Date {
  for (const year of [
    today.getUTCFullYear() - 1,
    today.getUTCFullYear(),
    today.getUTCFullYear() + 1,
  ]) {
    const date = new Date(Date.UTC(year, month - 1, day));
    const offset = (date.getTime() - today.getTime()) / DAY_MS;
    if (offset >= -300 && offset < 65) return date;
  }
  return new Date(Date.UTC(today.getUTCFullYear(), month - 1, day));
}

/** An instant `daysAgo` days before `now`, at a working hour picked by `rng`. */
export function daysBefore(now: number, daysAgo: number, rng: RandomSource): string {
  const base = now - Math.max(0, daysAgo) * DAY_MS;
  const start = new Date(base);
  start.setUTCHours(3 + rng.int(12), rng.int(60), rng.int(60), 0);
  return new Date(Math.min(now - 60_000, start.getTime())).toISOString();
}

/** The id of a row of `table` whose `name` matches case-insensitively, if any. */
async function idByName(db: Db, table: 'masterApps' | 'categories' | 'specialDays', name: string) {
  const row = await db
    .selectFrom(table)
    .select('id')
    .where(sql<string>`lower(name)`, '=', name.toLowerCase())
    .executeTakeFirst();
  return row?.id;
}

export async function seedDemo(
  db: Db,
  media: MediaService,
  options: { size?: DemoSize } = {},
): Promise<DemoResult> {
  const size = SIZES[options.size ?? 'full'];
  const tally = new Tally();
  const now = Date.now();
  const today = new Date(Math.floor(now / DAY_MS) * DAY_MS);
  const rng = randomSource(2026);
  const at = (daysAgo: number) => daysBefore(now, daysAgo, rng);

  // Master apps, each with its standard pages written out, its settings and logo.
  const apps: number[] = [];
  for (const [i, name] of DEMO_APPS.entries()) {
    let id = await idByName(db, 'masterApps', name);
    if (id === undefined) {
      id = (await createMasterApp(db, name, DEMO_TIME_ZONES[name] ?? null)).id;
      // Made a year ago, before everything else.
      const stamp = at(365);
      await db
        .updateTable('masterApps')
        .set({ createdAt: stamp, updatedAt: stamp })
        .where('id', '=', id)
        .execute();
      tally.add('master apps');
      const prefixes = mediaPrefixes(media.store);
      for (const [title, body] of Object.entries(PAGE_TEXTS)) {
        await db
          .updateTable('pages')
          .set({ desc: sanitizeRichText(body(name), prefixes) })
          .where('masterAppId', '=', id)
          .where('title', '=', title)
          .where('desc', '=', '')
          .execute();
      }
    }
    apps.push(id);
    const hasSettings = await db
      .selectFrom('settings')
      .select('id')
      .where('masterAppId', '=', id)
      .executeTakeFirst();
    if (!hasSettings) {
      const logo = await storePicture(
        media,
        cardSvg(256, 256, name.split(' ')[0]!, '', PALETTES[i]!),
        'settings',
      );
      const domain = APP_DOMAINS[name];
      const stamp = at(365);
      await db
        .insertInto('settings')
        .values({
          masterAppId: id,
          title: name,
          userDomain: `https://${domain}`,
          adminDomain: `https://admin.${domain}`,
          mobileDomain: `https://m.${domain}`,
          logo,
          createdAt: stamp,
          updatedAt: stamp,
        })
        .execute();
      tally.add('settings');
    }
  }

  // Categories and special days, made in the year's first weeks.
  const categories = new Map<string, number>();
  const newCategories: number[] = [];
  for (const name of DEMO_CATEGORIES) {
    let id = await idByName(db, 'categories', name);
    if (id === undefined) {
      const stamp = at(330 + rng.int(30));
      ({ id } = await db
        .insertInto('categories')
        .values({ name, downloadCount: 0, status: 'ACTIVE', createdAt: stamp, updatedAt: stamp })
        .returning('id')
        .executeTakeFirstOrThrow());
      newCategories.push(id);
      tally.add('categories');
    }
    categories.set(name, id);
  }
  const days: Array<{ id: number; name: string; date: Date; category: string }> = [];
  for (const [name, month, day, category] of DEMO_SPECIAL_DAYS) {
    let id = await idByName(db, 'specialDays', name);
    if (id === undefined) {
      const stamp = at(320 + rng.int(40));
      ({ id } = await db
        .insertInto('specialDays')
        .values({
          name,
          month,
          day,
          year: null,
          status: 'ACTIVE',
          createdAt: stamp,
          updatedAt: stamp,
        })
        .returning('id')
        .executeTakeFirstOrThrow());
      tally.add('special days');
    }
    days.push({ id, name, date: occurrence(month, day, today), category });
  }

  // Staff first: the content editor uploads most posters.
  const staff: DemoStaff[] = [];
  const admin = await db
    .selectFrom('accounts')
    .select('id')
    .where('role', '=', 'SUPER_ADMIN')
    .orderBy('id')
    .executeTakeFirst();
  const staffIds: number[] = [];
  for (const member of DEMO_STAFF) {
    const menus = Object.keys(member.grants);
    const found = await db
      .selectFrom('accounts')
      .select('id')
      .where('role', '!=', 'USER')
      .where('status', '!=', 'DELETED')
      .where(sql<string>`lower(email)`, '=', member.email)
      .executeTakeFirst();
    if (found) {
      staff.push({ email: member.email, name: member.name, menus });
      staffIds.push(found.id);
      continue;
    }
    const password = await generatedPassword();
    const id = await createBackOfficeAccount(
      db,
      { role: 'STAFF', ...member, password },
      member.grants,
    );
    const stamp = at(300);
    await db
      .updateTable('accounts')
      .set({ createdAt: stamp, updatedAt: stamp })
      .where('id', '=', id)
      .execute();
    // Their sign-ins over the last weeks, as the sign-in route records them.
    const history = Array.from({ length: 6 }, (_, k) => ({
      accountId: id,
      ip: `192.168.1.${20 + rng.int(200)}`,
      latitude: null,
      longitude: null,
      status: k % 2 ? ('OUT' as const) : ('IN' as const),
      createdAt: at(30 - k * 5),
    }));
    await db.insertInto('loginHistory').values(history).execute();
    staff.push({ email: member.email, name: member.name, password, menus });
    staffIds.push(id);
    tally.add('staff');
    tally.add('login history', history.length);
  }
  const editor = staffIds[0]!;
  const owner = admin?.id ?? editor;

  const scope: DemoScope = {
    size,
    apps,
    days,
    categories,
    newCategories,
    editor,
    owner,
    rng,
    at,
    tally,
    now,
    today,
  };
  await seedPostersVideosBanners(db, media, scope);
  await seedWriting(db, media, scope);
  await seedUsers(db, media, { count: size.users, notices: size.notices, apps, rng, at, tally });
  await seedTrash(db, media, scope);
  return { added: tally.added, staff };
}
