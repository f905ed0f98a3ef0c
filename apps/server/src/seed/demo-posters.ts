/**
 * The demo's posters, videos and banners: pictures drawn and stored through the media service,
 * then rows as their areas write them. A row is found by its app and its file's content key
 * (same drawing, same key), so a second run adds none again.
 */
import type { Db } from '../db/connect.ts';
import type { MediaService } from '../media/service.ts';
import { randomSource } from './bench.ts';
import { APP_DOMAINS, DEMO_APPS, DEMO_CATEGORIES, GREETINGS } from './demo-catalog.ts';
import {
  PALETTES,
  bannerSvg,
  inParallel,
  posterSvg,
  storePicture,
  storeVideo,
  videoFrame,
} from './demo-pictures.ts';
import type { DemoScope } from './demo.ts';
import { zonedDayRange } from '@master-admin/contract';
import { appTimeZones } from '../features/master-apps/time-zones.ts';
import { slideshowMp4 } from './video-files.ts';

const DAY_MS = 86_400_000;

export async function seedPostersVideosBanners(db: Db, media: MediaService, scope: DemoScope) {
  const { size, apps, days, categories, newCategories, editor, owner, rng, at, tally, now, today } =
    scope;
  // Poster designs: each for a special day (most) or a category alone, shared to one or more apps.
  // Their looks come from a source of their own, so a second run draws the same designs.
  const look = randomSource(7);
  // The plan (the special days' "Plan" view) should show both covered days and gaps in the next
  // weeks: of the special days in the next six, in date order, the first of each three has posters
  // in every app, the second lacks them in the last app, the third has none at all.
  const upcoming = days
    .filter(
      (d) =>
        d.date.getTime() >= today.getTime() && d.date.getTime() < today.getTime() + 42 * DAY_MS,
    )
    .sort((a, b) => a.date.getTime() - b.date.getTime());
  const planOf = (day: (typeof days)[number] | undefined) => {
    const i = day ? upcoming.indexOf(day) : -1;
    return i < 0 ? undefined : (['covered', 'gap', 'none'] as const)[i % 3];
  };
  const designs = Array.from({ length: size.designs }, (_, k) => {
    const drawn = look.int(10) < 8 ? days[k % days.length]! : undefined;
    const plan = planOf(drawn);
    const day = plan === 'none' ? undefined : drawn;
    const category = day?.category ?? look.pick(DEMO_CATEGORIES);
    // A design is made 3 to 40 days before its day, or any time for an everyday one; one for a
    // day further ahead than that within the last two weeks (not all today: the trend showed
    // them as one spike).
    const ahead = day ? (today.getTime() - day.date.getTime()) / DAY_MS + 3 + look.int(38) : 0;
    const madeDaysAgo = day ? Math.min(360, ahead < 0 ? k % 14 : ahead) : look.int(360);
    return {
      title: day?.name ?? category,
      greeting: look.pick(GREETINGS),
      palette: look.pick(PALETTES),
      variant: k,
      day,
      category,
      madeDaysAgo,
      apps: planned(
        plan,
        look.int(10) < 7 ? apps : apps.filter(() => look.int(2) === 0).slice(0, 2),
      ),
      position: look.int(2) ? ('LEFT' as const) : ('RIGHT' as const),
      status: activeWhenPlanned(
        plan,
        look.weighted([
          ['ACTIVE', 85],
          ['DEACTIVE', 7],
          ['PENDING', 6],
          ['SUSPENDED', 2],
        ] as const),
      ),
      downloads: apps.map(() => look.int(1000)),
    };
  });
  // Every upcoming day meant to be covered has at least one poster, whatever was drawn.
  function planned(plan: 'covered' | 'gap' | 'none' | undefined, drawnApps: number[]): number[] {
    if (plan === 'covered') return apps;
    if (plan === 'gap') return apps.length > 1 ? apps.slice(0, -1) : drawnApps;
    return drawnApps;
  }
  function activeWhenPlanned<S extends string>(plan: string | undefined, status: S): S | 'ACTIVE' {
    return plan === 'covered' || plan === 'gap' ? 'ACTIVE' : status;
  }
  // Schedules (issue #35), in each app's zone: a design for a special day in the next 60 days goes
  // live a week before the day and leaves after the day after; every 13th everyday design
  // expired a few days ago.
  const zones = await appTimeZones(db, 'UTC');
  const localDay = (date: Date, plus: number) =>
    new Date(date.getTime() + plus * DAY_MS).toISOString().slice(0, 10);
  const windowOf = (d: (typeof designs)[number], k: number, masterAppId: number) => {
    const zone = zones.get(masterAppId) ?? 'UTC';
    if (d.day && d.day.date.getTime() - today.getTime() <= 60 * DAY_MS) {
      return {
        liveFrom: zonedDayRange(localDay(d.day.date, -7), zone).start,
        liveUntil: zonedDayRange(localDay(d.day.date, 1), zone).end,
      };
    }
    if (!d.day && k % 13 === 0) {
      return {
        liveFrom: zonedDayRange(localDay(today, -30), zone).start,
        liveUntil: zonedDayRange(localDay(today, -3), zone).start,
      };
    }
    return { liveFrom: null, liveUntil: null };
  };
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
    const added = await db
      .insertInto('posters')
      .values(
        missing.map((masterAppId) => ({
          masterAppId,
          categoryId: categories.get(d.category)!,
          specialDayId: d.day?.id ?? null,
          accountId: k % 5 === 0 ? owner : editor,
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
          ...windowOf(d, k, masterAppId),
          createdAt: stamp,
          updatedAt: stamp,
        })),
      )
      .returning(['id', 'downloadCount', 'createdAt'])
      .execute();
    await insertDownloadDays(db, added, now);
    tally.add('posters', missing.length);
  }
  // A new category's downloads are its posters' (the content app counts both as they happen).
  if (newCategories.length > 0) {
    await db
      .updateTable('categories')
      .set((eb) => ({
        downloadCount: eb
          .selectFrom('posters')
          .select((p) => p.fn.coalesce(p.fn.sum<number>('posters.downloadCount'), p.lit(0)).as('n'))
          .whereRef('posters.categoryId', '=', 'categories.id'),
      }))
      .where('id', 'in', newCategories)
      .execute();
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
          accountId: editor,
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
}

/**
 * A poster's downloads by day (`poster_downloads`, which the content app writes), summing to its
 * `downloadCount`: most in its first weeks, tailing off, so the dashboard's trends have a shape.
 */
async function insertDownloadDays(
  db: Db,
  posters: ReadonlyArray<{ id: number; downloadCount: number; createdAt: string }>,
  now: number,
) {
  const rows: Array<{ posterId: number; day: string; n: number }> = [];
  for (const p of posters) {
    const days = Math.max(1, Math.min(120, Math.floor((now - Date.parse(p.createdAt)) / DAY_MS)));
    const weights = Array.from({ length: days }, (_, i) => 1 / (1 + i / 7));
    const sum = weights.reduce((a, b) => a + b, 0);
    const counts = weights.map((w) => Math.floor((p.downloadCount * w) / sum));
    counts[0]! += p.downloadCount - counts.reduce((a, b) => a + b, 0);
    const first = Date.parse(p.createdAt.slice(0, 10));
    counts.forEach((n, i) => {
      if (n > 0) {
        rows.push({
          posterId: p.id,
          day: new Date(first + i * DAY_MS).toISOString().slice(0, 10),
          n,
        });
      }
    });
  }
  for (let i = 0; i < rows.length; i += 500) {
    await db
      .insertInto('posterDownloads')
      .values(rows.slice(i, i + 500))
      .execute();
  }
}
