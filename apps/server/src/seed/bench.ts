/**
 * Bulk rows for benchmarks: `npm run admin -- seed-bench --area banners --rows 1000000`. Each area
 * that grows to millions of rows registers a generator here; `npm run bench` loads it, then
 * measures its list. Rows go in through the same triggers as any write, in large batches (one
 * prepared statement in big transactions on SQLite, `unnest` arrays on PostgreSQL), so the counts
 * and search indexes they feed are right when the load ends.
 */
import { randomBytes } from 'node:crypto';
import { CompiledQuery, sql } from 'kysely';
import type { DatabaseHandle } from '../db/connect.ts';
import { createMasterApp } from '../features/master-apps/lookup.ts';
import { AUDIT_BENCH_AREA } from './bench-audit.ts';

/** Words the generated text is made of: each one names about 1 % of the rows of an area. */
export const BENCH_WORDS = [
  'diwali',
  'holi',
  'eid',
  'christmas',
  'pongal',
  'onam',
  'navratri',
  'dussehra',
  'lohri',
  'baisakhi',
  'ganesh',
  'janmashtami',
  'rakhi',
  'karva',
  'chhath',
  'ugadi',
  'vishu',
  'bihu',
  'gudi',
  'makar',
  'easter',
  'newyear',
  'valentine',
  'mothersday',
  'fathersday',
  'teachersday',
  'childrensday',
  'republic',
  'independence',
  'gandhi',
  'ambedkar',
  'buddha',
  'mahavir',
  'guru',
  'nanak',
  'muharram',
  'ramzan',
  'bakrid',
  'goodfriday',
  'thanksgiving',
  'halloween',
  'yoga',
  'earthday',
  'womensday',
  'labourday',
  'friendship',
  'birthday',
  'anniversary',
  'wedding',
  'engagement',
  'housewarming',
  'farewell',
  'welcome',
  'congrats',
  'graduation',
  'exam',
  'monsoon',
  'summer',
  'winter',
  'spring',
  'autumn',
  'cricket',
  'football',
  'hockey',
  'kabaddi',
  'chess',
  'olympics',
  'marathon',
  'election',
  'budget',
  'startup',
  'offer',
  'discount',
  'clearance',
  'launch',
  'opening',
  'festive',
  'shopping',
  'jewellery',
  'fashion',
  'grocery',
  'pharmacy',
  'bakery',
  'restaurant',
  'cafe',
  'salon',
  'gym',
  'clinic',
  'school',
  'college',
  'coaching',
  'travel',
  'hotel',
  'realestate',
  'insurance',
  'banking',
  'mobile',
  'electronics',
  'furniture',
  'motorcycle',
] as const;

/** Where generated links point; no word above is part of it, nor of another word. */
export const BENCH_LINK_BASE = 'https://cdn.acme.test/p';
for (const word of BENCH_WORDS) {
  const elsewhere = [BENCH_LINK_BASE, ...BENCH_WORDS.filter((w) => w !== word)];
  if (elsewhere.some((text) => text.includes(word)))
    throw new Error(`bench word ${word} is not unique`);
}

/** How many master apps the generated rows are spread over. */
export const BENCH_APPS = 5;

/** A small, seeded random source: the same rows on every run and database. */
export function randomSource(seed = 42) {
  let s = seed >>> 0 || 1;
  const next = () => {
    // xorshift32
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s;
  };
  return {
    int: (n: number) => next() % n,
    pick: <T>(values: readonly T[]): T => values[next() % values.length]!,
    /** A value by weight: `weighted([['A', 7], ['B', 3]])` gives A 70 % of the time. */
    weighted: <T>(choices: ReadonlyArray<readonly [T, number]>): T => {
      const total = choices.reduce((sum, [, w]) => sum + w, 0);
      let r = next() % total;
      for (const [value, w] of choices) {
        if (r < w) return value;
        r -= w;
      }
      return choices[0]![0];
    },
  };
}
export type RandomSource = ReturnType<typeof randomSource>;

type Column = { name: string; pgType: string };

/**
 * Inserts `count` generated rows into `table` (snake_case), `row(i)` giving each one's values in
 * the order of `columns`, in batches; `progress` hears how many are in.
 */
export async function bulkInsert(
  handle: DatabaseHandle,
  table: string,
  columns: readonly Column[],
  count: number,
  row: (i: number) => unknown[],
  progress: (done: number) => void = () => {},
): Promise<void> {
  const names = columns.map((c) => c.name).join(', ');
  if (handle.sqlite) {
    const insert = handle.sqlite.prepare(
      `insert into ${table} (${names}) values (${columns.map(() => '?').join(', ')})`,
    );
    const batch = handle.sqlite.transaction((from: number, to: number) => {
      for (let i = from; i < to; i++) insert.run(row(i));
    });
    for (let from = 0; from < count; from += 20_000) {
      batch(from, Math.min(count, from + 20_000));
      progress(Math.min(count, from + 20_000));
    }
    return;
  }
  const statement =
    `insert into ${table} (${names}) select * from unnest(` +
    columns.map((c, i) => `$${i + 1}::${c.pgType}[]`).join(', ') +
    ')';
  for (let from = 0; from < count; from += 10_000) {
    const to = Math.min(count, from + 10_000);
    const arrays: unknown[][] = columns.map(() => []);
    for (let i = from; i < to; i++) row(i).forEach((v, c) => arrays[c]!.push(v));
    await handle.db.executeQuery(CompiledQuery.raw(statement, arrays));
    progress(to);
  }
}

/** Brings the planner's statistics (and PostgreSQL's visibility map) up to date after a load. */
export async function analyze(handle: DatabaseHandle, tables: readonly string[]): Promise<void> {
  for (const table of tables) {
    await sql
      .raw(handle.sqlite ? `analyze ${table}` : `vacuum analyze ${table}`)
      .execute(handle.db);
  }
}

/** The bench's master apps ("Bench App 1" …), created when missing; their ids. */
async function benchApps(handle: DatabaseHandle): Promise<number[]> {
  const ids: number[] = [];
  for (let k = 1; k <= BENCH_APPS; k++) {
    const name = `Bench App ${k}`;
    const found = await handle.db
      .selectFrom('masterApps')
      .select('id')
      .where('name', '=', name)
      .executeTakeFirst();
    ids.push(found ? found.id : (await createMasterApp(handle.db, name)).id);
  }
  return ids;
}

/** A content key of a media file that need not exist (lists never read the files). */
function fakeKey(folder: string): string {
  const hash = randomBytes(32).toString('hex');
  return `${folder}/${hash.slice(0, 2)}/${hash}.webp`;
}

/** Timestamps one `stepMs` apart, ending now: rows come oldest first, as they were written. */
function timeline(count: number, spanDays = 730) {
  const end = Date.now();
  const step = Math.max(1, Math.floor((spanDays * 86_400_000) / Math.max(1, count)));
  return (i: number) => new Date(end - (count - i) * step).toISOString();
}

export interface BenchArea {
  description: string;
  /** Adds `rows` rows; `progress` hears how many are in. */
  seed(handle: DatabaseHandle, rows: number, progress: (done: number) => void): Promise<void>;
}

/** Rows `table` holds whose `name` is one of `names`, created when missing; their ids by name. */
async function namedRows(
  handle: DatabaseHandle,
  table: 'categories' | 'specialDays',
  names: readonly string[],
  values: (name: string, i: number) => Record<string, unknown>,
): Promise<number[]> {
  const ids: number[] = [];
  for (const [i, name] of names.entries()) {
    const found = await handle.db
      .selectFrom(table)
      .select('id')
      .where('name', '=', name)
      .executeTakeFirst();
    if (found) {
      ids.push(found.id);
      continue;
    }
    const at = new Date().toISOString();
    const row = await handle.db
      .insertInto(table)
      .values({ name, status: 'ACTIVE', createdAt: at, updatedAt: at, ...values(name, i) } as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    ids.push(row.id);
  }
  return ids;
}

/** The account bench rows are uploaded by: the first back-office account, or a new one. */
async function benchUploader(handle: DatabaseHandle): Promise<number> {
  const found = await handle.db
    .selectFrom('accounts')
    .select('id')
    .where('role', '!=', 'USER')
    .orderBy('id')
    .executeTakeFirst();
  if (found) return found.id;
  const at = new Date().toISOString();
  const row = await handle.db
    .insertInto('accounts')
    .values({
      role: 'STAFF',
      name: 'Bench Uploader',
      email: 'bench-uploader@example.com',
      status: 'ACTIVE',
      createdAt: at,
      updatedAt: at,
    } as never)
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

const SURNAMES = ['Sharma', 'Patel', 'Iyer', 'Khan', 'Das', 'Reddy', 'Singh', 'Nair'] as const;
const IMAGE_KINDS = ['top', 'self', 'bottom'] as const;
const ACTIVITY_CHOICES = ['REGISTER', 'LOGIN', 'LIKE', 'SHARED', 'POST', 'FOLLOW'] as const;

/**
 * End users over the bench apps (names of a bench word and a surname, so each word names about
 * 1 % of them), with their details, and as many numbered images, wallet rows and login-history
 * rows again: the oldest users have none, the newest the most (as active accounts do).
 */
async function seedUsers(
  handle: DatabaseHandle,
  rows: number,
  progress: (done: number) => void,
): Promise<void> {
  const apps = await benchApps(handle);
  const rng = randomSource();
  const at = timeline(rows);
  const before = await handle.db
    .selectFrom('accounts')
    .select((eb) => eb.fn.max('id').as('max'))
    .executeTakeFirstOrThrow();
  const after = Number(before.max ?? 0);
  // Numbers above every earlier one (ids only grow), so a second load never repeats one.
  const phone = (i: number) => `7${String(after + i + 1).padStart(9, '0')}`;
  await bulkInsert(
    handle,
    'accounts',
    [
      { name: 'role', pgType: 'text' },
      { name: 'name', pgType: 'text' },
      { name: 'email', pgType: 'text' },
      { name: 'phone_number', pgType: 'text' },
      { name: 'status', pgType: 'text' },
      { name: 'master_app_id', pgType: 'int' },
      { name: 'created_at', pgType: 'timestamptz' },
      { name: 'updated_at', pgType: 'timestamptz' },
    ],
    rows,
    (i) => [
      'USER',
      `${rng.pick(BENCH_WORDS)} ${rng.pick(SURNAMES)}`,
      rng.int(10) < 6 ? `user${phone(i)}@mail.test` : null,
      phone(i),
      rng.weighted([
        ['ACTIVE', 80],
        ['DEACTIVE', 8],
        ['PENDING', 6],
        ['SUSPENDED', 4],
        ['DELETED', 2],
      ]),
      rng.pick(apps),
      at(i),
      at(i),
    ],
    (done) => progress(Math.floor(done / 4)),
  );
  const ids = (
    await handle.db
      .selectFrom('accounts')
      .select('id')
      .where('role', '=', 'USER')
      .where('id', '>', after)
      .orderBy('id')
      .execute()
  ).map((r) => r.id);
  const n = ids.length;
  const newest = (k: number) => ids[n - 1 - (k % n)]!;
  const now = new Date().toISOString();
  await bulkInsert(
    handle,
    'user_details',
    [
      { name: 'account_id', pgType: 'int' },
      { name: 'designation', pgType: 'text' },
      { name: 'created_at', pgType: 'timestamptz' },
      { name: 'updated_at', pgType: 'timestamptz' },
    ],
    n,
    (i) => [ids[i], rng.int(4) === 0 ? 'Shop owner' : null, now, now],
  );
  progress(Math.floor(rows / 2));
  // Image j: the (j / 3)-th newest user's kind j % 3, numbers 1.. as the user gets more.
  const perKind = Math.max(1, Math.floor(n / 10));
  await bulkInsert(
    handle,
    'user_images',
    [
      { name: 'account_id', pgType: 'int' },
      { name: 'kind', pgType: 'text' },
      { name: 'def_num', pgType: 'int' },
      { name: 'position', pgType: 'text' },
      { name: 'image', pgType: 'text' },
      { name: 'created_at', pgType: 'timestamptz' },
      { name: 'updated_at', pgType: 'timestamptz' },
    ],
    rows,
    (j) => {
      const kind = IMAGE_KINDS[j % 3]!;
      const user = Math.floor(j / 3);
      return [
        newest(user % perKind),
        kind,
        1 + Math.floor(user / perKind),
        kind === 'self' ? (rng.int(2) ? 'LEFT' : 'RIGHT') : null,
        fakeKey('user-images'),
        now,
        now,
      ];
    },
  );
  const tenth = Math.max(1, Math.floor(n / 10));
  await bulkInsert(
    handle,
    'wallets',
    [
      { name: 'account_id', pgType: 'int' },
      { name: 'reward', pgType: 'int' },
      { name: 'deposit_for', pgType: 'text' },
      { name: 'status', pgType: 'text' },
      { name: 'feed', pgType: 'text' },
      { name: 'created_at', pgType: 'timestamptz' },
    ],
    rows,
    (j) => [
      newest(j % tenth),
      1 + rng.int(100),
      rng.pick(ACTIVITY_CHOICES),
      rng.weighted([
        ['DEPOSIT', 8],
        ['WITHDRAW', 1],
        ['FINED', 1],
      ]),
      `${rng.pick(BENCH_WORDS)} reward ${j}`,
      at(j),
    ],
  );
  progress(Math.floor((rows * 3) / 4));
  await bulkInsert(
    handle,
    'login_history',
    [
      { name: 'account_id', pgType: 'int' },
      { name: 'ip', pgType: 'text' },
      { name: 'status', pgType: 'text' },
      { name: 'created_at', pgType: 'timestamptz' },
    ],
    rows,
    (j) => [
      newest(j % tenth),
      `10.${rng.int(256)}.${rng.int(256)}.${1 + rng.int(254)}`,
      j % 2 ? 'OUT' : 'IN',
      at(j),
    ],
  );
  progress(rows);
  await analyze(handle, [
    'accounts',
    'user_details',
    'user_images',
    'wallets',
    'login_history',
    'list_counts',
    ...(handle.sqlite
      ? []
      : ['users_search', 'users_rest_search', 'wallets_search', 'login_history_search']),
  ]);
}

export const BENCH_AREAS: Record<string, BenchArea> = {
  users: {
    description:
      `end users over ${BENCH_APPS} master apps (each named with one of ${BENCH_WORDS.length} ` +
      'words), with as many numbered images, wallet rows and login-history rows',
    seed: seedUsers,
  },
  banners: {
    description: `banners over ${BENCH_APPS} master apps; each link names one of ${BENCH_WORDS.length} words`,
    async seed(handle, rows, progress) {
      const apps = await benchApps(handle);
      const rng = randomSource();
      const at = timeline(rows);
      await bulkInsert(
        handle,
        'banners',
        [
          { name: 'master_app_id', pgType: 'int' },
          { name: 'image', pgType: 'text' },
          { name: 'link', pgType: 'text' },
          { name: 'link_type', pgType: 'text' },
          { name: 'status', pgType: 'text' },
          { name: 'created_at', pgType: 'timestamptz' },
          { name: 'updated_at', pgType: 'timestamptz' },
        ],
        rows,
        (i) => [
          rng.pick(apps),
          fakeKey('banners'),
          `${BENCH_LINK_BASE}/${rng.pick(BENCH_WORDS)}/${i}`,
          rng.weighted([
            ['DEFAULT', 5],
            ['EXTERNAL', 3],
            ['INTERNAL', 2],
          ]),
          rng.weighted([
            ['ACTIVE', 70],
            ['DEACTIVE', 15],
            ['PENDING', 10],
            ['SUSPENDED', 4],
            ['DELETED', 1],
          ]),
          at(i),
          at(i),
        ],
        progress,
      );
      await analyze(handle, [
        'banners',
        'list_counts',
        ...(handle.sqlite ? [] : ['banners_search']),
      ]);
    },
  },
  posters: {
    description:
      `posters over ${BENCH_APPS} master apps, ${BENCH_WORDS.length} categories and ` +
      `${BENCH_WORDS.length} special days named after the bench words (60 % have one)`,
    async seed(handle, rows, progress) {
      const apps = await benchApps(handle);
      const categories = await namedRows(
        handle,
        'categories',
        BENCH_WORDS.map((w) => `${w} posters`),
        () => ({ downloadCount: 0 }),
      );
      const days = await namedRows(
        handle,
        'specialDays',
        BENCH_WORDS.map((w) => `${w} day`),
        (_, i) => ({
          month: (i % 12) + 1,
          day: (i % 28) + 1,
        }),
      );
      const uploader = await benchUploader(handle);
      const rng = randomSource();
      const at = timeline(rows);
      const before = await handle.db
        .selectFrom('posters')
        .select((eb) => eb.fn.max('id').as('max'))
        .executeTakeFirstOrThrow();
      const firstId = Number(before.max ?? 0) + 1;
      await bulkInsert(
        handle,
        'posters',
        [
          { name: 'master_app_id', pgType: 'int' },
          { name: 'category_id', pgType: 'int' },
          { name: 'special_day_id', pgType: 'int' },
          { name: 'account_id', pgType: 'int' },
          { name: 'top_def_num', pgType: 'int' },
          { name: 'self_def_num', pgType: 'int' },
          { name: 'bottom_def_num', pgType: 'int' },
          { name: 'poster', pgType: 'text' },
          { name: 'date', pgType: 'date' },
          { name: 'download_count', pgType: 'int' },
          { name: 'status', pgType: 'text' },
          { name: 'position', pgType: 'text' },
          { name: 'created_at', pgType: 'timestamptz' },
          { name: 'updated_at', pgType: 'timestamptz' },
        ],
        rows,
        (i) => [
          rng.pick(apps),
          rng.pick(categories),
          rng.int(10) < 6 ? rng.pick(days) : null,
          uploader,
          1 + rng.int(20),
          1 + rng.int(20),
          1 + rng.int(20),
          fakeKey('posters'),
          rng.int(10) < 8 ? at(i).slice(0, 10) : null,
          rng.int(5000),
          rng.weighted([
            ['ACTIVE', 70],
            ['DEACTIVE', 15],
            ['PENDING', 10],
            ['SUSPENDED', 4],
            ['DELETED', 1],
          ]),
          rng.int(2) === 0 ? 'LEFT' : 'RIGHT',
          at(i),
          at(i),
        ],
        progress,
      );
      // Downloads per day, as the content app records them: each poster on the day it was made
      // and three days later (the newest few days' second rows fall after today, which no trend
      // shows). The dashboard's trends read them.
      const dayOf = (i: number, later: number) =>
        new Date(Date.parse(at(i)) + later * 86_400_000).toISOString().slice(0, 10);
      await bulkInsert(
        handle,
        'poster_downloads',
        [
          { name: 'poster_id', pgType: 'int' },
          { name: 'day', pgType: 'date' },
          { name: 'n', pgType: 'int' },
        ],
        rows * 2,
        (i) => [firstId + (i >> 1), dayOf(i >> 1, i % 2 === 0 ? 0 : 3), 1 + rng.int(50)],
      );
      // The kept downloads the top lists read (migration 0017), filled by the triggers: their
      // statistics, and on PostgreSQL the visibility map their index-only scans need.
      await analyze(handle, [
        'posters',
        'list_counts',
        'poster_downloads',
        'top_category_downloads',
        'top_poster_downloads',
        'top_poster_totals',
      ]);
    },
  },
  audit: AUDIT_BENCH_AREA,
};
