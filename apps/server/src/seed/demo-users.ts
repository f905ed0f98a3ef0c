/**
 * The demo's end users (with their details, numbered top, self and bottom images, wallet rows and
 * login history, written together in one transaction per user, as a user is a unit) and the
 * notifications sent to their apps. A user is found by its app and phone number.
 */
import type { Db } from '../db/connect.ts';
import type { MediaService } from '../media/service.ts';
import { randomSource, type RandomSource } from './bench.ts';
import {
  BUSINESSES, CITIES, DESIGNATIONS, FIRST_NAMES, NOTIFICATION_TEXTS, SURNAMES,
} from './demo-catalog.ts'; // prettier-ignore
import { PALETTES, cardSvg, inParallel, portraitSvg, storePicture } from './demo-pictures.ts';
import type { Tally } from './demo.ts';

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
  // A few self photos shared by many users (stand-ins: head, shoulders, initials).
  const portraits = await inParallel(
    Array.from({ length: 6 }, (_, i) => i),
    3,
    (i) =>
      storePicture(
        media,
        portraitSvg(`${FIRST_NAMES[i]![0]}${SURNAMES[i]![0]}`, PALETTES[i % PALETTES.length]!),
        'user-images',
      ),
  );
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
      palette: look.pick(PALETTES),
    };
  });
  for (const [u, person] of people.entries()) {
    const found = await db
      .selectFrom('accounts')
      .select('id')
      .where('role', '=', 'USER')
      .where('masterAppId', '=', person.masterAppId)
      .where('phoneNumber', '=', person.phoneNumber)
      .executeTakeFirst();
    if (found) continue;
    // Numbered strips with the user's business on top and address below, as users upload them.
    const images: Array<{ kind: 'top' | 'self' | 'bottom'; defNum: number; image: string }> = [];
    for (let n = 1; n <= person.tops; n++) {
      const palette = PALETTES[(u + n) % PALETTES.length]!;
      images.push({ kind: 'top', defNum: n, image: await storePicture(media, cardSvg(720, 180, person.business, `Since ${2000 + ((u * 7 + n) % 24)}`, palette), 'user-images') }); // prettier-ignore
    }
    for (let n = 1; n <= person.selfs; n++) {
      images.push({ kind: 'self', defNum: n, image: portraits[(u + n) % portraits.length]! });
    }
    for (let n = 1; n <= person.bottoms; n++) {
      images.push({ kind: 'bottom', defNum: n, image: await storePicture(media, cardSvg(720, 120, `${person.city} · ${person.phoneNumber}`, '', person.palette), 'user-images') }); // prettier-ignore
    }
    const joined = at(person.joinedDaysAgo);
    const status = u % 17 === 5 ? 'DEACTIVE' : u % 23 === 7 ? 'PENDING' : 'ACTIVE';
    const walletRows = Array.from({ length: rng.int(12) }, () => ({
      reward: 5 + rng.int(20) * 5,
      depositFor: rng.weighted(ACTIVITIES),
      status: rng.weighted([['DEPOSIT', 12], ['WITHDRAW', 2], ['FINED', 1]] as const), // prettier-ignore
      feed: null,
      createdAt: at(rng.int(person.joinedDaysAgo + 1)),
    }));
    const visits = Array.from({ length: 1 + rng.int(5) }, () =>
      at(rng.int(person.joinedDaysAgo + 1)),
    );
    await db.transaction().execute(async (trx) => {
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
          dateLimit: u % 4 === 0 ? new Date(Date.parse(joined) + 400 * 86_400_000).toISOString().slice(0, 10) : null, // prettier-ignore
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
          top: null,
          bottom: null,
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
            position: img.kind === 'self' ? (img.defNum % 2 ? ('LEFT' as const) : ('RIGHT' as const)) : null, // prettier-ignore
            image: img.image,
            createdAt: joined,
            updatedAt: joined,
          })),
        )
        .execute();
      if (walletRows.length > 0) {
        await trx.insertInto('wallets').values(walletRows.map((w) => ({ ...w, accountId: id }))).execute(); // prettier-ignore
      }
      await trx
        .insertInto('loginHistory')
        .values(
          visits.flatMap((inAt) => [
            { accountId: id, ip: `10.${rng.int(256)}.${rng.int(256)}.${1 + rng.int(254)}`, latitude: null, longitude: null, status: 'IN' as const, createdAt: inAt }, // prettier-ignore
            { accountId: id, ip: null, latitude: null, longitude: null, status: 'OUT' as const, createdAt: new Date(Math.min(Date.now() - 1000, Date.parse(inAt) + 1_800_000)).toISOString() }, // prettier-ignore
          ]),
        )
        .execute();
    });
    tally.add('users');
    tally.add('user images', images.length);
    tally.add('wallet rows', walletRows.length);
    tally.add('login history', visits.length * 2);
  }

  // Notifications: to every user of an app, and a few to one user.
  for (const [a, masterAppId] of apps.entries()) {
    for (let n = 0; n < options.notices; n++) {
      const [title, desc, type] = NOTIFICATION_TEXTS[(a * 3 + n) % NOTIFICATION_TEXTS.length]!;
      const found = await db.selectFrom('notifications').select('id').where('masterAppId', '=', masterAppId).where('title', '=', title).executeTakeFirst(); // prettier-ignore
      if (found) continue;
      const user =
        type === 'WALLET' || type === 'ACCOUNT'
          ? await db.selectFrom('accounts').select('id').where('role', '=', 'USER').where('masterAppId', '=', masterAppId).where('status', '=', 'ACTIVE').orderBy('id').executeTakeFirst() // prettier-ignore
          : undefined;
      const logo = n % 3 === 0 ? await storePicture(media, cardSvg(256, 256, type, '', PALETTES[n % PALETTES.length]!), 'notifications') : null; // prettier-ignore
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
