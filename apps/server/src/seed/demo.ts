/**
 * `npm run admin -- demo`: a believable festival-poster business in an empty database. Rows are
 * written as the areas write them (a master app with its standard pages, staff with their
 * permission rows, a user with its details, images stored through the media service); counts and
 * search structures follow through their triggers. Choices come from a seeded random source, so
 * every run makes the same rows; dates spread over the last year. Each demo row is found by its
 * name before it is added, and a row's dependants (a user's images, wallet and history) are written
 * with it in one transaction, so `--force` adds only what is missing and never changes a row.
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../db/connect.ts';
import { createBackOfficeAccount } from '../features/accounts/service.ts';
import { createMasterApp } from '../features/master-apps/lookup.ts';
import { mediaPrefixes, sanitizeRichText } from '../http/rich-text.ts';
import type { MediaService } from '../media/service.ts';
import { randomSource, type RandomSource } from './bench.ts';
import {
  APP_DOMAINS,
  BUSINESSES,
  CITIES,
  DEMO_APPS,
  DEMO_BLOGS,
  DEMO_CATEGORIES,
  DEMO_FAQS,
  DEMO_SPECIAL_DAYS,
  DEMO_STAFF,
  ENQUIRIES,
  FIRST_NAMES,
  GREETINGS,
  PAGE_TEXTS,
  SURNAMES,
} from './demo-catalog.ts';
import {
  PALETTES,
  bannerSvg,
  cardSvg,
  inParallel,
  posterSvg,
  storePicture,
  storeVideo,
  videoFrame,
} from './demo-pictures.ts';
import { seedUsers } from './demo-users.ts';
import { slideshowMp4 } from './video-files.ts';

const DAY_MS = 86_400_000;

/** How much the demo makes: `full` for people, `small` for tests (the same kinds, fewer rows). */
export type DemoSize = 'full' | 'small';
const SIZES = {
  full: { designs: 96, users: 90, videos: 4, bannersPerApp: 4, blogs: 8, faqs: 10, notices: 8, enquiries: 30 },
  small: { designs: 8, users: 6, videos: 1, bannersPerApp: 1, blogs: 2, faqs: 3, notices: 2, enquiries: 4 },
} as const; // prettier-ignore

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
      id = (await createMasterApp(db, name)).id;
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
  for (const name of DEMO_CATEGORIES) {
    let id = await idByName(db, 'categories', name);
    if (id === undefined) {
      const stamp = at(330 + rng.int(30));
      ({ id } = await db
        .insertInto('categories')
        .values({ name, downloadCount: 0, status: 'ACTIVE', createdAt: stamp, updatedAt: stamp })
        .returning('id')
        .executeTakeFirstOrThrow());
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
  const uploaders: number[] = admin ? [admin.id] : [];
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
      uploaders.push(found.id);
      continue;
    }
    const password = randomBytes(12).toString('base64url');
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
    uploaders.push(id);
    tally.add('staff');
    tally.add('login history', history.length);
  }
  const uploader = uploaders[1] ?? uploaders[0];
  if (uploader === undefined) throw new Error('no back-office account to upload the posters');

  // Poster designs: each for a special day (most) or a category alone, shared to one or more apps.
  // Their looks come from a source of their own, so a second run draws the same designs.
  const look = randomSource(7);
  const designs = Array.from({ length: size.designs }, (_, k) => {
    const day = look.int(10) < 8 ? days[k % days.length]! : undefined;
    const category = day?.category ?? look.pick(DEMO_CATEGORIES);
    // A design is made 3 to 40 days before its day, or any time for an everyday one.
    const madeDaysAgo = day
      ? Math.min(
          360,
          Math.max(0, (today.getTime() - day.date.getTime()) / DAY_MS + 3 + look.int(38)),
        )
      : look.int(360);
    return {
      title: day?.name ?? category,
      greeting: look.pick(GREETINGS),
      palette: look.pick(PALETTES),
      variant: k,
      day,
      category,
      madeDaysAgo,
      apps: look.int(10) < 7 ? apps : apps.filter(() => look.int(2) === 0).slice(0, 2),
      position: look.int(2) ? ('LEFT' as const) : ('RIGHT' as const),
      status: look.weighted([
        ['ACTIVE', 85],
        ['DEACTIVE', 7],
        ['PENDING', 6],
        ['SUSPENDED', 2],
      ] as const),
      downloads: apps.map(() => look.int(1000)),
    };
  });
  const keys = await inParallel(designs, 4, (d) =>
    storePicture(media, posterSvg(d.title, d.greeting, d.palette, d.variant), 'posters'),
  );
  for (const [k, d] of designs.entries()) {
    const targets = d.apps.length > 0 ? d.apps : [apps[k % apps.length]!];
    const present = await db
      .selectFrom('posters')
      .select('masterAppId')
      .where('poster', '=', keys[k]!)
      .where('masterAppId', 'in', targets)
      .execute();
    const missing = targets.filter((a) => !present.some((p) => p.masterAppId === a));
    if (missing.length === 0) continue;
    const stamp = at(d.madeDaysAgo);
    // Downloads grow with age and fall off steeply: a few posters take most of them.
    const age = (now - Date.parse(stamp)) / DAY_MS;
    await db
      .insertInto('posters')
      .values(
        missing.map((masterAppId) => ({
          masterAppId,
          categoryId: categories.get(d.category)!,
          specialDayId: d.day?.id ?? null,
          accountId: k % 5 === 0 ? uploaders[0]! : uploader,
          topDefNum: 1,
          selfDefNum: 1,
          bottomDefNum: 1,
          poster: keys[k]!,
          videoThumb: null,
          date: d.day ? d.day.date.toISOString().slice(0, 10) : null,
          downloadCount: Math.floor(
            ((d.downloads[apps.indexOf(masterAppId)] ?? 0) ** 2 / 1000) * Math.min(1, age / 30),
          ),
          status: d.status,
          position: d.position,
          createdAt: stamp,
          updatedAt: stamp,
        })),
      )
      .execute();
    tally.add('posters', missing.length);
  }
  // A category's downloads are its posters' (the content app counts both as they happen).
  if (tally.added.categories) {
    await sql`update categories set download_count = (select coalesce(sum(p.download_count), 0) from posters p where p.category_id = categories.id) where download_count = 0`.execute(
      db,
    );
  }

  // Videos: short slideshows, each shared to every app.
  for (let v = 0; v < size.videos; v++) {
    const day = days[(v * 7 + 9) % days.length]!;
    const palette = PALETTES[(v * 3) % PALETTES.length]!;
    const frames = await Promise.all([
      videoFrame(day.name.split(' ')[0]!, 'Greetings', palette),
      videoFrame('Wishing', 'you joy', PALETTES[(v * 3 + 1) % PALETTES.length]!),
      videoFrame(day.name.split(' ')[0]!, 'to all', palette),
    ]);
    const key = await storeVideo(media, slideshowMp4(frames, { secondsEach: 1.5 }));
    for (const masterAppId of apps) {
      const found = await db
        .selectFrom('videos')
        .select('id')
        .where('video', '=', key)
        .where('masterAppId', '=', masterAppId)
        .executeTakeFirst();
      if (found) continue;
      const stamp = at(20 + rng.int(300));
      await db
        .insertInto('videos')
        .values({
          masterAppId,
          accountId: uploader,
          video: key,
          topDefNum: 1,
          selfDefNum: 1,
          bottomDefNum: 1,
          position: rng.int(2) ? 'LEFT' : 'RIGHT',
          date: day.date.toISOString().slice(0, 10),
          downloadCount: rng.int(400),
          status: 'ACTIVE',
          createdAt: stamp,
          updatedAt: stamp,
        })
        .execute();
      tally.add('videos');
    }
  }

  // Banners on each app's home screen.
  const slots = apps.flatMap((_, a) =>
    Array.from({ length: size.bannersPerApp }, (_, b) => [a, b]),
  );
  const bannerKeys = await inParallel(slots, 4, ([a, b]) =>
    storePicture(
      media,
      bannerSvg(
        days[(a! * 5 + b! * 11) % days.length]!.name,
        'New posters every day',
        PALETTES[(a! + b!) % PALETTES.length]!,
      ),
      'banners',
    ),
  );
  for (const [a, masterAppId] of apps.entries()) {
    for (let b = 0; b < size.bannersPerApp; b++) {
      const image = bannerKeys[a * size.bannersPerApp + b]!;
      const found = await db
        .selectFrom('banners')
        .select('id')
        .where('image', '=', image)
        .where('masterAppId', '=', masterAppId)
        .executeTakeFirst();
      if (found) continue;
      const stamp = at(10 + rng.int(200));
      const linkType = (['DEFAULT', 'EXTERNAL', 'INTERNAL'] as const)[b % 3]!;
      await db
        .insertInto('banners')
        .values({
          masterAppId,
          image,
          link:
            linkType === 'EXTERNAL'
              ? `https://${APP_DOMAINS[DEMO_APPS[a]!]}/festivals`
              : linkType === 'INTERNAL'
                ? '/posters'
                : null,
          linkType,
          status: b === 3 ? 'DEACTIVE' : 'ACTIVE',
          createdAt: stamp,
          updatedAt: stamp,
        })
        .execute();
      tally.add('banners');
    }
  }

  await seedWriting(db, media, size, rng, at, tally);
  await seedUsers(db, media, { count: size.users, notices: size.notices, apps, rng, at, tally });
  return { added: tally.added, staff };
}

/** Blogs, FAQs and enquiries: rows with a title or question of their own. */
async function seedWriting(
  db: Db,
  media: MediaService,
  size: (typeof SIZES)[DemoSize],
  rng: RandomSource,
  at: (daysAgo: number) => string,
  tally: Tally,
) {
  const prefixes = mediaPrefixes(media.store);
  for (const [b, [title, author, shortDesc]] of DEMO_BLOGS.slice(0, size.blogs).entries()) {
    const found = await db
      .selectFrom('blogs')
      .select('id')
      .where('title', '=', title)
      .executeTakeFirst();
    if (found) continue;
    const image = await storePicture(
      media,
      cardSvg(
        800,
        450,
        title.split(' ').slice(0, 3).join(' '),
        author,
        PALETTES[b % PALETTES.length]!,
      ),
      'blogs',
    );
    const stamp = at(15 + b * 40 + rng.int(20));
    const desc = sanitizeRichText(
      `<p>${shortDesc}</p><h3>In short</h3><ul><li>Plan a month ahead.</li><li>Keep the text short.</li><li>Put your name on it.</li></ul><p>Written by <strong>${author}</strong>.</p>`,
      prefixes,
    );
    await db
      .insertInto('blogs')
      .values({
        title,
        author,
        shortDesc,
        desc,
        image,
        date: stamp.slice(0, 10),
        popular: b < 3,
        status: b === 7 ? 'PENDING' : 'ACTIVE',
        createdAt: stamp,
        updatedAt: stamp,
      })
      .execute();
    tally.add('blogs');
  }
  for (const [question, answer] of DEMO_FAQS.slice(0, size.faqs)) {
    const found = await db
      .selectFrom('faqs')
      .select('id')
      .where('question', '=', question)
      .executeTakeFirst();
    if (found) continue;
    const stamp = at(200 + rng.int(100));
    await db
      .insertInto('faqs')
      .values({ question, answer, createdAt: stamp, updatedAt: stamp })
      .execute();
    tally.add('FAQs');
  }
  for (let e = 0; e < size.enquiries; e++) {
    const fName = FIRST_NAMES[(e * 7) % FIRST_NAMES.length]!;
    const lName = SURNAMES[(e * 3) % SURNAMES.length]!;
    const email = `${fName}.${lName}${e}@mail.example`.toLowerCase();
    const found = await db
      .selectFrom('contactUs')
      .select('id')
      .where('email', '=', email)
      .executeTakeFirst();
    if (found) continue;
    const business = BUSINESSES[e % BUSINESSES.length]!;
    await db
      .insertInto('contactUs')
      .values({
        fName,
        lName,
        email,
        phoneNumber: `+9197${String(10_000_000 + e * 7919).slice(0, 8)}`,
        query: `${ENQUIRIES[e % ENQUIRIES.length]!} (${lName} ${business}, ${CITIES[e % CITIES.length]!})`,
        createdAt: at(rng.int(360)),
      })
      .execute();
    tally.add('enquiries');
  }
}
