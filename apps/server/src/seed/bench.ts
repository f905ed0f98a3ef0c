/**
 * Bulk rows for benchmarks: `npm run admin -- seed-bench --area banners --rows 1000000`. Each area
 * that grows to millions of rows registers a generator here; `npm run bench` loads it, then
 * measures its list. Rows go in through the same triggers as any write, in large batches (one
 * prepared statement in big transactions on SQLite, COPY on PostgreSQL), so the counts and search
 * indexes they feed are right when the load ends.
 */
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { sql } from 'kysely';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
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
 * Where a seed writes: the database, and on PostgreSQL its connection string, on which
 * `bulkInsert` opens a client of its own for COPY (the handle's pools are Kysely's and the list
 * readers', which hand out no raw client).
 */
export interface BenchDatabase {
  handle: DatabaseHandle;
  pgUrl?: string;
  /** Rows per COPY statement on PostgreSQL (COPY_ROWS by default). */
  copyRows?: number;
}

/** Hears a table's progress: `done` of `total` rows are in. */
export type BenchProgress = (table: string, done: number, total: number) => void;

/**
 * Rows per COPY statement: each statement's triggers then update `list_counts` and the search
 * tables once from its transition table. Measured on 400,000 audit entries (2026-11-30, a busy
 * 2-core machine): 10,000 a statement 26,500–30,500 rows/s, 200,000 44,500, a million 32,500.
 */
export const COPY_ROWS = 200_000;

/**
 * One value in COPY's text format: NULL as `\N`; a backslash, tab, newline and carriage return
 * escaped (so no value can end a row or the data); dates as ISO strings; booleans as t / f.
 */
export function copyText(value: unknown): string {
  if (value === null || value === undefined) return '\\N';
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (typeof value === 'boolean') return value ? 't' : 'f';
  if (value instanceof Date) return value.toISOString();
  if (typeof value !== 'string') throw new Error(`no COPY text for ${typeof value}`);
  const text = value;
  return /[\\\t\n\r]/.test(text) ? text.replace(/[\\\t\n\r]/g, escapeCopy) : text;
}
const COPY_ESCAPES: Record<string, string> = {
  '\\': '\\\\',
  '\t': '\\t',
  '\n': '\\n',
  '\r': '\\r',
};
const escapeCopy = (c: string) => COPY_ESCAPES[c]!;

/**
 * Inserts `count` generated rows into `table` (snake_case), `row(i)` giving each one's values in
 * the order of `columns`: on SQLite through one prepared statement in transactions of 20,000 rows,
 * on PostgreSQL streamed by `COPY … FROM STDIN` (text format), COPY_ROWS a statement, each in its
 * own transaction. Both go through the same triggers as any write (COPY fires the statement
 * triggers with their transition tables), so kept counts and search indexes are right when it
 * returns; a second load adds rows. `progress` hears how many are in.
 */
export async function bulkInsert(
  target: BenchDatabase,
  table: string,
  columns: readonly Column[],
  count: number,
  row: (i: number) => unknown[],
  progress: (done: number) => void = () => {},
): Promise<void> {
  const { handle } = target;
  const names = columns.map((c) => c.name).join(', ');
  progress(0);
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
  if (!target.pgUrl) throw new Error('bulkInsert on PostgreSQL needs the connection string');
  const client = new pg.Client({ connectionString: target.pgUrl, options: '-c TimeZone=UTC' });
  await client.connect();
  try {
    const perStatement = target.copyRows ?? COPY_ROWS;
    for (let from = 0; from < count; from += perStatement) {
      const to = Math.min(count, from + perStatement);
      const stream = client.query(copyFrom(`copy ${table} (${names}) from stdin`));
      await pipeline(Readable.from(copyLines(row, from, to)), stream);
      progress(to);
    }
  } finally {
    await client.end();
  }
}

/** Rows `from` … `to` as lines of COPY's text format, about 64 kB at a time. */
function* copyLines(row: (i: number) => unknown[], from: number, to: number): Generator<string> {
  let chunk = '';
  for (let i = from; i < to; i++) {
    const values = row(i);
    let line = copyText(values[0]);
    for (let c = 1; c < values.length; c++) line += `\t${copyText(values[c])}`;
    chunk += `${line}\n`;
    if (chunk.length >= 65_536) {
      yield chunk;
      chunk = '';
    }
  }
  if (chunk) yield chunk;
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

let keysMade = 0;
/**
 * A content key of a media file that need not exist (lists never read the files). It starts with
 * the time and a count, so keys reach their index in order: random keys wrote all over an index
 * far larger than PostgreSQL's buffers (ten million user images loaded at 13,301 rows/s, where a
 * million loaded at 37,422).
 */
function fakeKey(folder: string): string {
  const hash =
    Date.now().toString(16).padStart(12, '0') +
    (keysMade++).toString(16).padStart(10, '0') +
    randomBytes(21).toString('hex');
  return `${folder}/${hash.slice(0, 2)}/${hash}.webp`;
}

/** Timestamps one `stepMs` apart, ending now: rows come oldest first, as they were written. */
function timeline(count: number, spanDays = 730) {
  const end = Date.now();
  const step = Math.max(1, Math.floor((spanDays * 86_400_000) / Math.max(1, count)));
  return (i: number) => new Date(end - (count - i) * step).toISOString();
}

/**
 * A poster's or banner's schedule window from two draws (`kind` 0..29, `window` 0..59): 0 starts
 * later (scheduled), 1 ended (expired), 2 is live inside a window; the rest have none. Windows are
 * whole days from the seed's start, sixty a kind: rows scheduled together (a batch for a
 * festival) share one, as the posters screen's batch gives them.
 */
const SEEDED_AT = Math.floor(Date.now() / 86_400_000) * 86_400_000;
function scheduleOf(kind: number, window: number): [string | null, string | null] {
  const at = (days: number) => new Date(SEEDED_AT + days * 86_400_000).toISOString();
  if (kind === 0) return [at(1 + window), null];
  if (kind === 1) return [at(-90 - window), at(-1 - window)];
  if (kind === 2) return [at(-1 - window), at(1 + window)];
  return [null, null];
}

/** How many rows a seed adds. */
export interface BenchSizes {
  /** The area's own rows: users, banners, posters, audit entries. */
  rows: number;
  /** Users: login-history rows (default `rows`). */
  historyRows?: number;
  /** Users: wallet rows (default `rows`). */
  walletRows?: number;
}

export interface BenchArea {
  description: string;
  /** Adds the rows `sizes` asks for; `progress` hears each table's. */
  seed(target: BenchDatabase, sizes: BenchSizes, progress: BenchProgress): Promise<void>;
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
 * 1 % of them), with their details, numbered images, wallet rows and login-history rows
 * (`addUserRows`): the older nine tenths have none (as inactive accounts).
 */
async function seedUsers(
  target: BenchDatabase,
  sizes: BenchSizes,
  progress: BenchProgress,
): Promise<void> {
  const { handle } = target;
  const { rows } = sizes;
  const historyRows = sizes.historyRows ?? rows;
  const walletRows = sizes.walletRows ?? rows;
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
    target,
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
    (done) => progress('accounts', done, rows),
  );
  const ids = await newUserIds(handle, after, rows);
  await addUserRows(target, ids, { rows, historyRows, walletRows }, progress, rng);
}

/**
 * Deals `count` rows to `owners` owners, one owner's rows after another: row j is the `nth` of
 * the `of` rows of owner `owner` (0 … owners - 1). Each holds count / owners, the last ones one
 * more when it does not divide.
 */
function dealt(count: number, owners: number) {
  const base = Math.floor(count / owners);
  const plain = (owners - (count % owners)) * base;
  return (j: number) =>
    j < plain
      ? { owner: Math.floor(j / base), nth: j % base, of: base }
      : {
          owner: owners - (count % owners) + Math.floor((j - plain) / (base + 1)),
          nth: (j - plain) % (base + 1),
          of: base + 1,
        };
}

/**
 * What users own, for `ids` (users loaded already, oldest first): their details; `rows` numbered
 * images, `walletRows` wallet rows and `historyRows` login-history rows over the newest tenth of
 * them. Each user's rows come one after another (its images numbered 1.. of each kind, its wallet
 * and login-history rows spread over two years, oldest first), so the tables' (account, …) indexes
 * are written in order: dealt to the users in turn, each round of rows wrote to every page of
 * those indexes, and at tens of millions of rows (indexes of gigabytes against PostgreSQL's 128 MB
 * of buffers) the load ran at a fraction of its rate.
 */
export async function addUserRows(
  target: BenchDatabase,
  ids: Int32Array,
  sizes: Required<BenchSizes>,
  progress: BenchProgress,
  rng: RandomSource = randomSource(),
): Promise<void> {
  const { handle } = target;
  const { rows, historyRows, walletRows } = sizes;
  const n = ids.length;
  const now = new Date().toISOString();
  await bulkInsert(
    target,
    'user_details',
    [
      { name: 'account_id', pgType: 'int' },
      { name: 'designation', pgType: 'text' },
      { name: 'created_at', pgType: 'timestamptz' },
      { name: 'updated_at', pgType: 'timestamptz' },
    ],
    n,
    (i) => [ids[i], rng.int(4) === 0 ? 'Shop owner' : null, now, now],
    (done) => progress('user_details', done, n),
  );
  // The newest tenth own the images, wallet and login-history rows, oldest owner first.
  const owners = Math.max(1, Math.floor(n / 10));
  const owner = (k: number) => ids[n - owners + k]!;
  const end = Date.now();
  const span = 730 * 86_400_000;
  /** The `nth` of an owner's `of` rows over the last two years (owners a little apart). */
  const when = ({ owner: k, nth, of }: { owner: number; nth: number; of: number }) =>
    new Date(end - span + ((nth + ((k * 0.6180339887498949) % 1)) / of) * span).toISOString();
  const image = dealt(rows, owners);
  if (Math.ceil(rows / owners) > 3 * 999) throw new Error('more images than a user can number');
  await bulkInsert(
    target,
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
      const { owner: k, nth } = image(j);
      const kind = IMAGE_KINDS[nth % 3]!;
      return [
        owner(k),
        kind,
        1 + Math.floor(nth / 3),
        kind === 'self' ? (rng.int(2) ? 'LEFT' : 'RIGHT') : null,
        fakeKey('user-images'),
        now,
        now,
      ];
    },
    (done) => progress('user_images', done, rows),
  );
  const wallet = dealt(walletRows, owners);
  await bulkInsert(
    target,
    'wallets',
    [
      { name: 'account_id', pgType: 'int' },
      { name: 'reward', pgType: 'int' },
      { name: 'deposit_for', pgType: 'text' },
      { name: 'status', pgType: 'text' },
      { name: 'feed', pgType: 'text' },
      { name: 'created_at', pgType: 'timestamptz' },
    ],
    walletRows,
    (j) => {
      const dealtTo = wallet(j);
      return [
        owner(dealtTo.owner),
        1 + rng.int(100),
        rng.pick(ACTIVITY_CHOICES),
        rng.weighted([
          ['DEPOSIT', 8],
          ['WITHDRAW', 1],
          ['FINED', 1],
        ]),
        `${rng.pick(BENCH_WORDS)} reward ${j}`,
        when(dealtTo),
      ];
    },
    (done) => progress('wallets', done, walletRows),
  );
  const history = dealt(historyRows, owners);
  await bulkInsert(
    target,
    'login_history',
    [
      { name: 'account_id', pgType: 'int' },
      { name: 'ip', pgType: 'text' },
      { name: 'status', pgType: 'text' },
      { name: 'created_at', pgType: 'timestamptz' },
    ],
    historyRows,
    (j) => {
      const dealtTo = history(j);
      return [
        owner(dealtTo.owner),
        `10.${rng.int(256)}.${rng.int(256)}.${1 + rng.int(254)}`,
        j % 2 ? 'OUT' : 'IN',
        when(dealtTo),
      ];
    },
    (done) => progress('login_history', done, historyRows),
  );
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

/**
 * The ids of the users a load added (those above `after`), in order, read a million at a time
 * into one typed array (ten million rows as objects would take gigabytes).
 */
async function newUserIds(handle: DatabaseHandle, after: number, expected: number) {
  let ids = new Int32Array(expected);
  let n = 0;
  let last = after;
  for (;;) {
    const page = await handle.db
      .selectFrom('accounts')
      .select('id')
      .where('role', '=', 'USER')
      .where('id', '>', last)
      .orderBy('id')
      .limit(1_000_000)
      .execute();
    if (page.length === 0) break;
    if (n + page.length > ids.length) {
      const bigger = new Int32Array(n + page.length);
      bigger.set(ids.subarray(0, n));
      ids = bigger;
    }
    for (const r of page) ids[n++] = r.id;
    last = page[page.length - 1]!.id;
  }
  return ids.subarray(0, n);
}

export const BENCH_AREAS: Record<string, BenchArea> = {
  users: {
    description:
      `end users over ${BENCH_APPS} master apps (each named with one of ${BENCH_WORDS.length} ` +
      'words), with as many numbered images, wallet rows and login-history rows',
    seed: seedUsers,
  },
  banners: {
    // One banner in ten has a schedule, as posters.
    description: `banners over ${BENCH_APPS} master apps; each link names one of ${BENCH_WORDS.length} words`,
    async seed(target, { rows }, progress) {
      const { handle } = target;
      const apps = await benchApps(handle);
      const rng = randomSource();
      const at = timeline(rows);
      await bulkInsert(
        target,
        'banners',
        [
          { name: 'master_app_id', pgType: 'int' },
          { name: 'image', pgType: 'text' },
          { name: 'link', pgType: 'text' },
          { name: 'link_type', pgType: 'text' },
          { name: 'status', pgType: 'text' },
          { name: 'created_at', pgType: 'timestamptz' },
          { name: 'updated_at', pgType: 'timestamptz' },
          { name: 'live_from', pgType: 'timestamptz' },
          { name: 'live_until', pgType: 'timestamptz' },
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
          ...scheduleOf(rng.int(30), rng.int(60)),
        ],
        (done) => progress('banners', done, rows),
      );
      await analyze(handle, [
        'banners',
        'list_counts',
        ...(handle.sqlite ? [] : ['banners_search']),
      ]);
    },
  },
  posters: {
    // One poster in ten has a schedule: a third not yet live, a third ended, a third live now.
    description:
      `posters over ${BENCH_APPS} master apps, ${BENCH_WORDS.length} categories and ` +
      `${BENCH_WORDS.length} special days named after the bench words (60 % have one)`,
    async seed(target, { rows }, progress) {
      const { handle } = target;
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
        target,
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
          { name: 'live_from', pgType: 'timestamptz' },
          { name: 'live_until', pgType: 'timestamptz' },
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
          ...scheduleOf(rng.int(30), rng.int(60)),
        ],
        (done) => progress('posters', done, rows),
      );
      // Downloads per day, as the content app records them: each poster on the day it was made
      // and three days later (the newest few days' second rows fall after today, which no trend
      // shows). The dashboard's trends read them.
      const dayOf = (i: number, later: number) =>
        new Date(Date.parse(at(i)) + later * 86_400_000).toISOString().slice(0, 10);
      await bulkInsert(
        target,
        'poster_downloads',
        [
          { name: 'poster_id', pgType: 'int' },
          { name: 'day', pgType: 'date' },
          { name: 'n', pgType: 'int' },
        ],
        rows * 2,
        (i) => [firstId + (i >> 1), dayOf(i >> 1, i % 2 === 0 ? 0 : 3), 1 + rng.int(50)],
        (done) => progress('poster_downloads', done, rows * 2),
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
