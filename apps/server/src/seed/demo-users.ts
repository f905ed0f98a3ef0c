/**
 * The demo's end users (with their details, numbered top, self and bottom images, wallet rows and
 * login history, written together in one transaction per user, as a user is a unit) and the
 * notifications sent to their apps. A user is found by its app and phone number.
 */
import type { Db } from '../db/connect.ts';
import { inTransaction } from '../db/transaction.ts';
import type { MediaService } from '../media/service.ts';
import { randomSource, type RandomSource } from './bench.ts';
import {
  BUSINESSES,
  CITIES,
  DESIGNATIONS,
  FIRST_NAMES,
  NOTIFICATION_TEXTS,
  SURNAMES,
} from './demo-catalog.ts';
import { PALETTES, cardSvg, inParallel, portraitSvg, storePicture } from './demo-pictures.ts';
import type { Tally } from './demo.ts';

const GENERIC_TOPS = ['Best Wishes', 'Happy Festivals', 'Season’s Greetings', 'With Love'];

/** Wallet rows' feed: what the reward was for, then which content. */
const FEEDS: Record<(typeof ACTIVITIES)[number][0], string> = {
  REGISTER: 'Joined the app:',
  LOGIN: 'Daily sign-in:',
  SHARED: 'Shared a poster:',
  LIKE: 'Liked a poster:',
  POST: 'Posted a greeting:',
  FOLLOW: 'Followed a page:',
  FEEDBACK: 'Sent feedback:',
};
const GREETING_TOPICS = ['Diwali', 'Holi', 'Good Morning', 'Eid', 'Birthday', 'New Year'] as const;

const ACTIVITIES = [
  ['REGISTER', 1],
  ['LOGIN', 6],
  ['SHARED', 8],
  ['LIKE', 5],
  ['POST', 3],
  ['FOLLOW', 2],
  ['FEEDBACK', 1],
] as const;

export async function seedUsers(
  db: Db,
  media: MediaService,
  options: {
    count: number;
    notices: number;
    apps: number[];
    rng: RandomSource;
    at: (daysAgo: number) => string;
    tally: Tally;
  },
) {
  const { count, apps, rng, at, tally } = options;
  // Who they are comes from a source of its own, so a second run draws the same people.
  const look = randomSource(8);
  const people = Array.from({ length: count }, (_, u) => {
    const first = FIRST_NAMES[u % FIRST_NAMES.length]!;
    const last = SURNAMES[(u * 5) % SURNAMES.length]!;
    const business = `${last} ${BUSINESSES[u % BUSINESSES.length]!}`;
    // Growth: more users joined lately than a year ago.
    const joinedDaysAgo = Math.floor(360 * (1 - Math.sqrt((u + 1) / (count + 1))));
    return {
      name: `${first} ${last}`,
      business,
      city: CITIES[u % CITIES.length]!,
      phoneNumber: `9${String(812_000_000 + u * 7_919).padStart(9, '0')}`,
      masterAppId: apps[u % apps.length]!,
      joinedDaysAgo,
      tops: 1 + look.int(3),
      selfs: 1 + look.int(2),
      bottoms: 1 + look.int(2),
    };
  });
  const missing: number[] = [];
  for (const [u, person] of people.entries()) {
    const found = await db
      .selectFrom('accounts')
      .select('id')
      .where('role', '=', 'USER')
      .where('masterAppId', '=', person.masterAppId)
      .where('phoneNumber', '=', person.phoneNumber)
      .executeTakeFirst();
    if (!found) missing.push(u);
  }
  if (missing.length === 0) return seedNotifications(db, media, options);
  // A few self photos shared by many users (stand-ins: silhouettes).
  const portraits = await inParallel(
    Array.from({ length: 6 }, (_, i) => i),
    3,
    (i) => storePicture(media, portraitSvg(PALETTES[i % PALETTES.length]!), 'user-images'),
  );
  // Images: each user's own first top image (its business); further top images, bottom strips
  // (per city) and self photos (stand-ins) from small shared sets, as many users upload alike.
  const owned = await inParallel(missing, 4, (u) =>
    storePicture(
      media,
      cardSvg(
        720,
        180,
        people[u]!.business,
        `Since ${2000 + ((u * 7) % 24)}`,
        PALETTES[u % PALETTES.length]!,
      ),
      'user-images',
    ),
  );
  const tops = await inParallel(GENERIC_TOPS, 3, (line, i) =>
    storePicture(
      media,
      cardSvg(720, 180, line, 'Greetings from our family', PALETTES[(i + 2) % PALETTES.length]!),
      'user-images',
    ),
  );
  const bottoms = await inParallel(CITIES, 3, (city, i) =>
    storePicture(
      media,
      cardSvg(720, 120, city, 'Open every day, 9 to 9', PALETTES[(i + 5) % PALETTES.length]!),
      'user-images',
    ),
  );
  for (const [m, u] of missing.entries()) {
    const person = people[u]!;
    const images: Array<{ kind: 'top' | 'self' | 'bottom'; defNum: number; image: string }> = [];
    for (let n = 1; n <= person.tops; n++) {
      images.push({
        kind: 'top',
        defNum: n,
        image: n === 1 ? owned[m]! : tops[(u + n) % tops.length]!,
      });
    }
    for (let n = 1; n <= person.selfs; n++) {
      images.push({ kind: 'self', defNum: n, image: portraits[(u + n) % portraits.length]! });
    }
    for (let n = 1; n <= person.bottoms; n++) {
      // The first is the user's own city's.
      images.push({ kind: 'bottom', defNum: n, image: bottoms[(u + n - 1) % bottoms.length]! });
    }
    const joined = at(person.joinedDaysAgo);
    const status = u % 17 === 5 ? 'DEACTIVE' : u % 23 === 7 ? 'PENDING' : 'ACTIVE';
    const walletRows = Array.from({ length: rng.int(12) }, () => {
      const depositFor = rng.weighted(ACTIVITIES);
      return {
        reward: 5 + rng.int(20) * 5,
        depositFor,
        status: rng.weighted([
          ['DEPOSIT', 12],
          ['WITHDRAW', 2],
          ['FINED', 1],
        ] as const),
        feed: `${FEEDS[depositFor]} ${rng.pick(GREETING_TOPICS)}`,
        createdAt: at(rng.int(person.joinedDaysAgo + 1)),
      };
    });
    const visits = Array.from({ length: 1 + rng.int(5) }, () =>
      at(rng.int(person.joinedDaysAgo + 1)),
    );
    await inTransaction(db, async (trx) => {
      const { id } = await trx
        .insertInto('accounts')
        .values({
          role: 'USER',
          name: person.name,
          email:
            u % 3 === 0 ? null : `${person.name.replace(' ', '.').toLowerCase()}${u}@mail.example`,
          phoneNumber: person.phoneNumber,
          passwordHash: null,
          status,
          masterAppId: person.masterAppId,
          dateLimit:
            u % 4 === 0
              ? new Date(Date.parse(joined) + 400 * 86_400_000).toISOString().slice(0, 10)
              : null,
          createdAt: joined,
          updatedAt: joined,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('userDetails')
        .values({
          accountId: id,
          designation: DESIGNATIONS[u % DESIGNATIONS.length]!,
          adminAssignName: u % 2 ? person.business : null,
          profile: null,
          // Half the users also set a top and bottom banner of their own.
          top: u % 2 ? owned[m]! : null,
          bottom: u % 2 ? images.find((i) => i.kind === 'bottom')!.image : null,
          createdAt: joined,
          updatedAt: joined,
        })
        .execute();
      await trx
        .insertInto('userImages')
        .values(
          images.map((img) => ({
            accountId: id,
            kind: img.kind,
            defNum: img.defNum,
            position:
              img.kind === 'self'
                ? img.defNum % 2
                  ? ('LEFT' as const)
                  : ('RIGHT' as const)
                : null,
            image: img.image,
            createdAt: joined,
            updatedAt: joined,
          })),
        )
        .execute();
      if (walletRows.length > 0) {
        await trx
          .insertInto('wallets')
          .values(walletRows.map((w) => ({ ...w, accountId: id })))
          .execute();
      }
      await trx
        .insertInto('loginHistory')
        .values(
          visits.flatMap((inAt) => [
            {
              accountId: id,
              ip: `10.${rng.int(256)}.${rng.int(256)}.${1 + rng.int(254)}`,
              latitude: null,
              longitude: null,
              status: 'IN' as const,
              device: DEVICES[u % DEVICES.length]!,
              createdAt: inAt,
            },
            {
              accountId: id,
              ip: null,
              latitude: null,
              longitude: null,
              status: 'OUT' as const,
              device: DEVICES[u % DEVICES.length]!,
              createdAt: new Date(
                Math.min(Date.now() - 1000, Date.parse(inAt) + 1_800_000),
              ).toISOString(),
            },
          ]),
        )
        .execute();
      // What the apps API records of the same visits: the sign-up, then each sign-in.
      await trx
        .insertInto('userActivities')
        .values(
          [joined, ...visits].map((when, i) => ({
            accountId: id,
            activity: i === 0 ? ('REGISTER' as const) : ('LOGIN' as const),
            posterId: null,
            detail: null,
            ip: null,
            device: DEVICES[u % DEVICES.length]!,
            createdAt: when,
          })),
        )
        .execute();
    });
    tally.add('users');
    tally.add('user images', images.length);
    tally.add('wallet rows', walletRows.length);
    tally.add('login history', visits.length * 2);
  }

  await seedNotifications(db, media, options);
}

/** The phones the demo's users sign in from, as the apps API names a device. */
const DEVICES = [
  'Redmi Note 13 (android)',
  'Galaxy A15 (android)',
  'iPhone 13 (ios)',
  'Pixel 8 (android)',
  'vivo Y28 (android)',
];

/** Notifications: to every user of an app, and a few to one user. */
async function seedNotifications(
  db: Db,
  media: MediaService,
  options: {
    notices: number;
    apps: number[];
    rng: RandomSource;
    at: (daysAgo: number) => string;
    tally: Tally;
  },
) {
  const { apps, rng, at, tally } = options;
  for (const [a, masterAppId] of apps.entries()) {
    for (let n = 0; n < options.notices; n++) {
      const [title, desc, type] = NOTIFICATION_TEXTS[(a * 3 + n) % NOTIFICATION_TEXTS.length]!;
      const found = await db
        .selectFrom('notifications')
        .select('id')
        .where('masterAppId', '=', masterAppId)
        .where('title', '=', title)
        .executeTakeFirst();
      if (found) continue;
      const user =
        type === 'WALLET' || type === 'ACCOUNT'
          ? await db
              .selectFrom('accounts')
              .select('id')
              .where('role', '=', 'USER')
              .where('masterAppId', '=', masterAppId)
              .where('status', '=', 'ACTIVE')
              .orderBy('id')
              .executeTakeFirst()
          : undefined;
      const logo =
        n % 3 === 0
          ? await storePicture(
              media,
              cardSvg(256, 256, type, '', PALETTES[n % PALETTES.length]!),
              'notifications',
            )
          : null;
      await db
        .insertInto('notifications')
        .values({
          masterAppId,
          accountId: user?.id ?? null,
          title,
          desc,
          type,
          read: n % 2 === 1,
          logo,
          createdAt: at(5 + n * 30 + rng.int(20)),
        })
        .execute();
      tally.add('notifications');
    }
  }
}
