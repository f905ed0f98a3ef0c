/**
 * The apps API's cases of `npm run bench` (issue #34): the content calls and the posters feed
 * (first page and the 50th cursor page, by category and by special day), If-None-Match answered
 * 304 from the kept answer, render cold and warm, and sign-in (otp/verify) and refresh under load.
 * `--cases app:` runs them alone.
 *
 * Every request carries its app's key and an address of its own (`X-Forwarded-For`: the bench's
 * server trusts loopback as its proxy, TRUST_PROXY=127.0.0.1), so the apps API's per-address
 * guards (600 content calls a minute per key and address, 60 verifies and 120 refreshes a minute,
 * 20 codes an hour) count the simulated phones one by one, as they count real phones behind a
 * proxy; its per-user guard (300 calls a minute per session) is met with 100 users.
 *
 * The content calls keep their answers a minute per app and URL (ContentAnswers). A case that
 * measures reading the rows spells each request's URL differently (a different subset of its
 * letters and digits percent-encoded: the same path and query once decoded, `spelled`), so each
 * one misses the kept answers; the floor (app-floor.ts) is sent the plain URL, as it keeps
 * nothing. The `kept answer` and `304` cases send plain URLs, answered from what is kept.
 */
import { randomInt } from 'node:crypto';
import autocannon from 'autocannon';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import sharp from 'sharp';
import { API_BASE, APP_API_BASE, APP_PATHS, PATHS, type TokenPair } from '@master-admin/contract';
import { randomSource, type RandomSource } from '../src/seed/bench.ts';
import type { BenchCase, BenchContext, BenchRequest, CaseEnv, Measured } from './cases.ts';
import { cpuSeconds } from './upload.ts';

export type BenchApp = { id: number; key: string };
/** The feed's two filters the cases draw by. */
export type FeedBy = 'categoryId' | 'specialDayId';
/** One feed: an app's ACTIVE posters of a category, or of a special day. */
export type FeedPair = { app: BenchApp; by: FeedBy; value: number };

/** What the apps API's cases share on one database (bench.ts makes it with `prepareApps`). */
export type AppContext = {
  apps: BenchApp[];
  /** The feeds the feed cases draw from, per filter (the same for the first page and page 50). */
  pairs: Record<FeedBy, FeedPair[]>;
  /** Each feed's cursor of page 50 (or its last page, when it has fewer), by walking. */
  deep: Record<FeedBy, Array<{ pair: FeedPair; cursor: string; page: number }>>;
  /** The first page's ETag of each category feed (the 304 case asks for them right before). */
  etags: Array<{ pair: FeedPair; etag: string }>;
  render?: RenderFixtures;
  /** Refresh tokens sign-ins answered, each usable once (the refresh case's chains). */
  refreshTokens: Array<{ app: BenchApp; token: string }>;
  /** Users signed in by this run: never asked for a code twice (5 an hour per number). */
  usedUsers: Set<number>;
};

/** Feeds drawn per filter. */
const FEEDS = 10;
/** The page the deep cases read (a cursor walked through the pages before it). */
const DEEP_PAGE = 50;
/** The feed's page size (the apps API's default, sent explicitly). */
const FEED_LIMIT = 10;
/** Render: posters made for it (one warm, the rest cold) and users signed in for it. */
const RENDER_POSTERS = 17;
const RENDER_USERS = 100;
/** Sign-ins the verify case's warm-up uses; the measurement's are sized from its rate. */
const VERIFY_WARM_UP = 300;

const feedUrl = (pair: FeedPair, cursor?: string) =>
  `${APP_API_BASE}${APP_PATHS.posters}?${pair.by}=${pair.value}&limit=${FEED_LIMIT}` +
  (cursor ? `&cursor=${cursor}` : '');

/** A phone's address (10.0.0.1 – 10.255.255.254), drawn anew for every request. */
const addressOf = (rng: RandomSource) => `10.${rng.int(256)}.${rng.int(256)}.${1 + rng.int(254)}`;

/**
 * `url` with the letters and digits whose position among them is a set bit of `n` written as
 * %XX: the same path and query once decoded, another URL to what is kept by URL.
 */
export function spelled(url: string, n: number): string {
  let out = '';
  let bit = 0;
  for (const c of url) {
    if (bit < 31 && /[A-Za-z0-9]/.test(c)) {
      out += (n >>> bit) & 1 ? `%${c.charCodeAt(0).toString(16).toUpperCase()}` : c;
      bit++;
    } else out += c;
  }
  return out;
}
/** How many times each URL was spelled (never the same spelling twice in a run). */
const spellings = new Map<string, number>();
const spellingOf = (url: string) => {
  const n = (spellings.get(url) ?? 0) + 1;
  spellings.set(url, n);
  return spelled(url, n);
};

/** An app call: its key, an address, and the URL spelled anew for the server when `miss`. */
function appGet(
  rng: RandomSource,
  app: BenchApp,
  url: string,
  to: 'server' | 'floor',
  miss: boolean,
  headers: Record<string, string> = {},
): BenchRequest {
  return {
    path: miss && to === 'server' ? spellingOf(url) : url,
    headers: { 'x-app-key': app.key, 'x-forwarded-for': addressOf(rng), ...headers },
  };
}

const appOf = (ctx: BenchContext) => {
  if (!ctx.app) throw new Error('the apps API context was not prepared');
  return ctx.app;
};

/** Reads a JSON answer, or throws with its status and body. */
async function json<T>(answer: Response, what: string): Promise<T> {
  const text = await answer.text();
  if (!answer.ok) throw new Error(`${what}: ${answer.status} ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}

/** Runs `work` over `items`, `concurrency` at a time; the results in order. */
async function pool<T, R>(items: readonly T[], concurrency: number, work: (item: T) => Promise<R>) {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        results[i] = await work(items[i]!);
      }
    }),
  );
  return results;
}

/** The apps' keys (the back-office shows them to a SUPER_ADMIN) and the feeds the cases draw. */
export async function prepareApps(env: CaseEnv): Promise<AppContext> {
  const { ctx } = env;
  const apps: BenchApp[] = [];
  for (const id of ctx.apps) {
    const answer = await fetch(`${env.serverUrl}${API_BASE}${PATHS.masterAppKey(id)}`, {
      headers: { authorization: `Bearer ${env.adminToken}` },
    });
    const { result } = await json<{ result: { key: string } }>(answer, `the key of app ${id}`);
    apps.push({ id, key: result.key });
  }
  const rng = randomSource(34);
  const draw = (by: FeedBy, values: number[]) => {
    const pairs: FeedPair[] = [];
    const seen = new Set<string>();
    for (let tries = 0; values.length > 0 && pairs.length < FEEDS && tries < 1000; tries++) {
      const pair = { app: rng.pick(apps), by, value: rng.pick(values) };
      const name = `${pair.app.id} ${pair.value}`;
      if (seen.has(name)) continue;
      seen.add(name);
      pairs.push(pair);
    }
    return pairs;
  };
  return {
    apps,
    pairs: {
      categoryId: draw('categoryId', ctx.categories),
      specialDayId: draw('specialDayId', ctx.days),
    },
    deep: { categoryId: [], specialDayId: [] },
    etags: [],
    refreshTokens: [],
    usedUsers: new Set(),
  };
}

/** GETs an app call from the bench itself (preparing a case): its status, headers and JSON. */
async function appFetch(
  env: CaseEnv,
  app: BenchApp,
  url: string,
  headers: Record<string, string> = {},
) {
  const rng = randomSource(randomInt(1, 2 ** 31));
  return fetch(`${env.serverUrl}${url}`, {
    headers: { 'x-app-key': app.key, 'x-forwarded-for': addressOf(rng), ...headers },
  });
}

/** Walks each feed of `by` to page 50 (49 pages by cursor), keeping page 50's cursor. */
async function walkFeeds(env: CaseEnv, by: FeedBy): Promise<string | void> {
  const app = appOf(env.ctx);
  if (app.pairs[by].length === 0) return `no ${by} to read the feed by`;
  app.deep[by] = (
    await Promise.all(
      app.pairs[by].map(async (pair) => {
        let cursor: string | undefined;
        let page = 1;
        while (page < DEEP_PAGE) {
          const answer = await appFetch(env, pair.app, feedUrl(pair, cursor));
          const { nextCursor } = await json<{ nextCursor: string | null }>(answer, 'a feed page');
          if (nextCursor === null) break;
          cursor = nextCursor;
          page++;
        }
        return cursor === undefined ? undefined : { pair, cursor, page };
      }),
    )
  ).filter((d) => d !== undefined);
  const pages = app.deep[by].map((d) => d.page);
  if (pages.length === 0) return `no ${by} feed has a second page`;
  if (pages.some((p) => p < DEEP_PAGE)) {
    env.log(
      `  (pages reached by cursor: ${pages.join(', ')}; fewer than ${DEEP_PAGE} where the feed ends)`,
    );
  }
}

/** Asks for each feed's first page and keeps its ETag (right before the 304 case). */
async function askEtags(env: CaseEnv): Promise<string | void> {
  const app = appOf(env.ctx);
  app.etags = await Promise.all(
    app.pairs.categoryId.map(async (pair) => {
      const answer = await appFetch(env, pair.app, feedUrl(pair));
      await answer.arrayBuffer();
      const etag = answer.headers.get('etag');
      if (answer.status !== 200 || !etag)
        throw new Error(`a feed page answered ${answer.status} without an ETag`);
      return { pair, etag };
    }),
  );
  if (app.etags.length === 0) return 'no category to read the feed by';
}

/** autocannon's numbers as a case reports them (answers of another status are errors). */
export function measuredOf(
  result: autocannon.Result,
  answers: readonly number[] | undefined,
): Measured {
  const stats =
    (result as unknown as { statusCodeStats?: Record<string, { count: number }> })
      .statusCodeStats ?? {};
  const unexpected = Object.entries(stats)
    .filter(([code]) =>
      answers ? !answers.includes(Number(code)) : Number(code) >= 300 || Number(code) < 200,
    )
    .reduce((sum, [, s]) => sum + s.count, 0);
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    errors: unexpected + result.errors + result.timeouts,
  };
}

/** Drives the server with `next`'s requests: for `seconds`, or `amount` requests in all. */
async function cannon(
  env: CaseEnv,
  options: {
    seconds?: number;
    amount?: number;
    next: () => BenchRequest;
    onAnswer?: (status: number, body: string, headers: Record<string, string>) => void;
    answers?: readonly number[];
  },
): Promise<Measured & { total: number; seconds: number }> {
  const { amount } = options;
  // The time from the first request to the last answer: with `amount`, autocannon notices the
  // end at its next one-second tick, and its duration is that tick's.
  let first = 0;
  let last = 0;
  const result = await autocannon({
    url: env.serverUrl,
    connections: amount === undefined ? env.connections : Math.min(env.connections, amount),
    ...(amount === undefined ? { duration: options.seconds ?? 10 } : { amount }),
    timeout: 120,
    requests: [
      {
        setupRequest: (req) => {
          first ||= performance.now();
          const r = options.next();
          return {
            ...req,
            method: r.method ?? 'GET',
            path: r.path,
            headers: r.headers ?? {},
            body: r.body ?? '',
          };
        },
        // autocannon gives the headers as one value each (its toHeaderKeyValue).
        onResponse: (status: number, body: string, _context: object, headers?: object) => {
          last = performance.now();
          options.onAnswer?.(status, body, (headers ?? {}) as Record<string, string>);
        },
      },
    ],
  });
  const measured = measuredOf(result, options.answers);
  const seconds = amount === undefined ? result.duration : (last - first) / 1000;
  return {
    ...measured,
    ...(amount === undefined ? {} : { rps: result.requests.total / Math.max(0.001, seconds) }),
    total: result.requests.total,
    seconds,
  };
}

/** An end user who signs in: a phone number in an app. */
type Phone = { app: BenchApp; phoneNumber: string };
type Code = Phone & { code: string };

/**
 * Asks for a code for each phone (`POST auth/otp/request`, each from an address of its own) and
 * reads them from the server's log (OTP_SENDER=log); the phones whose code came.
 */
async function askCodes(env: CaseEnv, phones: readonly Phone[]): Promise<Code[]> {
  const rng = randomSource(randomInt(1, 2 ** 31));
  const asked = await pool(phones, 16, async (phone) => {
    const answer = await fetch(`${env.serverUrl}${APP_API_BASE}${APP_PATHS.otpRequest}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-app-key': phone.app.key,
        'x-forwarded-for': addressOf(rng),
      },
      body: JSON.stringify({ phoneNumber: phone.phoneNumber }),
    });
    await answer.arrayBuffer();
    return answer.status === 202;
  });
  const refused = asked.filter((ok) => !ok).length;
  if (refused > 0) env.log(`  (${refused} of ${phones.length} code requests refused)`);
  const wanted = phones.filter((_, i) => asked[i]);
  const codeOf = (p: Phone) => env.codes.get(`${p.app.id} ${p.phoneNumber}`);
  const until = Date.now() + 20_000;
  while (wanted.some((p) => codeOf(p) === undefined) && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 50));
  }
  const codes = wanted.flatMap((p) => {
    const code = codeOf(p);
    env.codes.delete(`${p.app.id} ${p.phoneNumber}`);
    return code === undefined ? [] : [{ ...p, code }];
  });
  if (codes.length < wanted.length)
    env.log(`  (${wanted.length - codes.length} codes not seen in the log)`);
  return codes;
}

const DEVICE = { name: 'Bench phone', platform: 'android' } as const;

const verifyRequest = (rng: RandomSource, code: Code): BenchRequest => ({
  path: `${APP_API_BASE}${APP_PATHS.otpVerify}`,
  method: 'POST',
  headers: {
    'content-type': 'application/json',
    'x-app-key': code.app.key,
    'x-forwarded-for': addressOf(rng),
  },
  body: JSON.stringify({ phoneNumber: code.phoneNumber, code: code.code, device: DEVICE }),
});

/** Signs each phone in through the apps API (a code asked for, read from the log, verified). */
async function signIn(env: CaseEnv, phones: readonly Phone[]): Promise<Array<Phone & TokenPair>> {
  const rng = randomSource(randomInt(1, 2 ** 31));
  const codes = await askCodes(env, phones);
  return pool(codes, 8, async (code) => {
    const r = verifyRequest(rng, code);
    const pair = await json<TokenPair>(
      await fetch(`${env.serverUrl}${r.path}`, {
        method: 'POST',
        headers: r.headers,
        body: r.body,
      }),
      'a sign-in',
    );
    return { ...code, ...pair };
  });
}

/**
 * `count` ACTIVE end users of the bench's apps that this run has not signed in, read from the
 * database (the loaded users: `seed-bench --area users`), from places drawn over their ids.
 */
async function loadedUsers(env: CaseEnv, count: number): Promise<Phone[]> {
  const app = appOf(env.ctx);
  const byId = new Map(app.apps.map((a) => [a.id, a]));
  const bounds = "select min(id) as lo, max(id) as hi from accounts where role = 'USER'";
  const page = (p: string, q: string) =>
    `select id, phone_number as phone, master_app_id as app from accounts where id > ${p} and ` +
    `role = 'USER' and status = 'ACTIVE' and date_limit is null and phone_number is not null ` +
    `order by id limit ${q}`;
  type Found = { id: number; phone: string; app: number };
  let read: (from: number) => Promise<Found[]>;
  let lo: number;
  let hi: number;
  let close: () => Promise<void>;
  if (env.database.kind === 'postgres') {
    const client = new pg.Client({ connectionString: env.database.url });
    await client.connect();
    const { rows } = await client.query<{ lo: number; hi: number }>(bounds);
    ({ lo, hi } = rows[0]!);
    read = async (from) => (await client.query<Found>(page('$1', '500'), [from])).rows;
    close = () => client.end();
  } else {
    const db = new SQLite(env.database.file, { readonly: true, fileMustExist: true });
    ({ lo, hi } = db.prepare(bounds).get() as { lo: number; hi: number });
    const statement = db.prepare(page('?', '500'));
    read = async (from) => statement.all(from) as Found[];
    close = async () => void db.close();
  }
  try {
    const found: Phone[] = [];
    if (lo === null || hi === null) return found;
    for (let tries = 0; found.length < count && tries < 1000; tries++) {
      const from = Number(lo) - 1 + randomInt(0, Math.max(1, Number(hi) - Number(lo) + 1));
      for (const row of await read(from)) {
        const user = byId.get(Number(row.app));
        if (!user || app.usedUsers.has(Number(row.id))) continue;
        app.usedUsers.add(Number(row.id));
        found.push({ app: user, phoneNumber: row.phone });
        if (found.length === count) break;
      }
    }
    return found;
  } finally {
    await close();
  }
}

/** The render case's posters and users, made through the back-office and the apps API. */
type RenderFixtures = {
  app: BenchApp;
  /** The warm case's poster; the cold case composes the others. */
  warmPoster: number;
  users: Array<{ id: number; token: string }>;
  /** (cold poster, user) combinations not composed yet, in a drawn order. */
  cold: Array<{ poster: number; user: number }>;
};

/** A picture of `width` × `height` (a gradient under circles), drawn from `rng`, as JPEG. */
async function picture(rng: RandomSource, width: number, height: number): Promise<Buffer> {
  const colour = () => `#${rng.int(0xffffff).toString(16).padStart(6, '0')}`;
  const circles = Array.from(
    { length: 24 },
    () =>
      `<circle cx="${rng.int(width)}" cy="${rng.int(height)}" r="${10 + rng.int(Math.floor(Math.min(width, height) / 3))}" ` +
      `fill="${colour()}" fill-opacity="0.${1 + rng.int(8)}"/>`,
  ).join('');
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
    `<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${colour()}"/>` +
    `<stop offset="1" stop-color="${colour()}"/></linearGradient></defs>` +
    `<rect width="100%" height="100%" fill="url(#g)"/>${circles}</svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 90 }).toBuffer();
}

/** Sends `fields` and `file` as multipart (fields first) and reads the JSON answer. */
async function sendForm<T>(
  url: string,
  method: 'POST' | 'PUT',
  headers: Record<string, string>,
  fields: Record<string, string>,
  file: Buffer,
): Promise<T> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  form.set('file', new Blob([new Uint8Array(file)], { type: 'image/jpeg' }), 'picture.jpg');
  return json<T>(await fetch(url, { method, headers, body: form }), `${method} ${url}`);
}

/**
 * Makes the render cases' fixtures once a run: RENDER_POSTERS posters of the first app, each with
 * a picture of its own (1080 × 1350), made through the back-office; RENDER_USERS new end users
 * signed in through the apps API, each with its own top (1080 × 270), self (600 × 800) and bottom
 * (1080 × 200) image number 1, which every poster names. Every picture is drawn anew each run, so
 * no combination was composed by an earlier run on a kept database.
 */
async function renderFixtures(env: CaseEnv): Promise<RenderFixtures> {
  const app = appOf(env.ctx);
  if (app.render) return app.render;
  const [first] = app.apps;
  const category = env.ctx.categories[0];
  if (!first || category === undefined) throw new Error('render needs a bench app and a category');
  const rng = randomSource(randomInt(1, 2 ** 31));
  const started = performance.now();
  const admin = { authorization: `Bearer ${env.adminToken}` };
  const posters = await pool(
    Array.from({ length: RENDER_POSTERS }, (_, i) => i),
    2,
    async (i) => {
      const { result } = await sendForm<{ result: { id: number; status: string } }>(
        `${env.serverUrl}${API_BASE}${PATHS.posterCreateOne(category)}`,
        'POST',
        admin,
        {
          masterAppId: String(first.id),
          position: i % 2 ? 'RIGHT' : 'LEFT',
          topDefNum: '1',
          selfDefNum: '1',
          bottomDefNum: '1',
        },
        await picture(rng, 1080, 1350),
      );
      return result.id;
    },
  );
  const phones = Array.from({ length: RENDER_USERS }, () => ({
    app: first,
    phoneNumber: `9${randomInt(100_000_000, 1_000_000_000)}`,
  }));
  const signedIn = await signIn(env, phones);
  await pool(signedIn, 4, async (user) => {
    const headers = {
      authorization: `Bearer ${user.accessToken}`,
      'x-app-key': first.key,
      'x-forwarded-for': addressOf(rng),
    };
    const sizes = { top: [1080, 270], self: [600, 800], bottom: [1080, 200] } as const;
    for (const [kind, [width, height]] of Object.entries(sizes)) {
      await sendForm(
        `${env.serverUrl}${APP_API_BASE}${APP_PATHS.myImage(kind, 1)}`,
        'PUT',
        headers,
        kind === 'self' ? { position: 'LEFT' } : {},
        await picture(rng, width, height),
      );
    }
  });
  const users = signedIn.map((u) => ({ id: u.user.id, token: u.accessToken }));
  const [warmPoster, ...coldPosters] = posters;
  const cold = coldPosters.flatMap((poster) => users.map((_, user) => ({ poster, user })));
  for (let i = cold.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [cold[i], cold[j]] = [cold[j]!, cold[i]!];
  }
  env.log(
    `  (render: ${posters.length} posters, ${users.length} users with 3 images each, in ${((performance.now() - started) / 1000).toFixed(1)} s)`,
  );
  app.render = { app: first, warmPoster: warmPoster!, users, cold };
  return app.render;
}

const renderRequest = (
  rng: RandomSource,
  fixtures: RenderFixtures,
  poster: number,
  user: number,
): BenchRequest => ({
  path: `${APP_API_BASE}${APP_PATHS.render(poster)}`,
  headers: {
    'x-app-key': fixtures.app.key,
    'x-forwarded-for': addressOf(rng),
    authorization: `Bearer ${fixtures.users[user]!.token}`,
  },
});

/** Render, cold: each request a (poster, user images) combination never composed before. */
function renderCold(): BenchCase {
  let rate = 0;
  return {
    name: 'app: render cold',
    floor: false,
    async prepare(env) {
      await renderFixtures(env);
    },
    async drive(env, seconds, phase) {
      const fixtures = await renderFixtures(env);
      // The warm-up composes a hundred; the measurement about `seconds` of them at its rate.
      const amount = Math.min(
        fixtures.cold.length,
        phase === 'warm-up'
          ? 2 * env.connections
          : Math.max(2 * env.connections, Math.round(rate * seconds)),
      );
      if (amount < env.connections) throw new Error('render cold: too few combinations left');
      const rng = randomSource(randomInt(1, 2 ** 31));
      const combinations = fixtures.cold.splice(0, amount);
      let composed = 0;
      let hits = 0;
      const cpuBefore = cpuSeconds(env.serverPid);
      const measured = await cannon(env, {
        amount,
        next: () => {
          const c = combinations.shift() ?? { poster: fixtures.warmPoster, user: 0 };
          return renderRequest(rng, fixtures, c.poster, c.user);
        },
        onAnswer: (status, _body, headers) => {
          if (status === 200 && headers['x-preview-cache'] === 'miss') composed++;
          if (status === 200 && headers['x-preview-cache'] === 'hit') hits++;
        },
      });
      const cpu = cpuSeconds(env.serverPid) - cpuBefore;
      rate = measured.total / measured.seconds;
      return {
        ...measured,
        errors: measured.errors + hits,
        note: `${(cpu / Math.max(1, composed)).toFixed(3)} CPU s a picture (${composed} composed${hits ? `, ${hits} found kept` : ''})`,
      };
    },
  };
}

/** Render, warm: each user's one combination, composed before, asked again and again. */
function renderWarm(): BenchCase {
  return {
    name: 'app: render warm',
    floor: false,
    async prepare(env) {
      const fixtures = await renderFixtures(env);
      const rng = randomSource(randomInt(1, 2 ** 31));
      await pool(
        fixtures.users.map((_, user) => user),
        4,
        async (user) => {
          const r = renderRequest(rng, fixtures, fixtures.warmPoster, user);
          const answer = await fetch(`${env.serverUrl}${r.path}`, { headers: r.headers });
          await answer.arrayBuffer();
          if (answer.status !== 200) throw new Error(`render answered ${answer.status}`);
        },
      );
    },
    async drive(env, seconds) {
      const fixtures = await renderFixtures(env);
      const rng = randomSource(randomInt(1, 2 ** 31));
      let hits = 0;
      let answered = 0;
      const measured = await cannon(env, {
        seconds,
        next: () =>
          renderRequest(rng, fixtures, fixtures.warmPoster, rng.int(fixtures.users.length)),
        onAnswer: (status, _body, headers) => {
          if (status !== 200) return;
          answered++;
          if (headers['x-preview-cache'] === 'hit') hits++;
        },
      });
      return {
        ...measured,
        errors: measured.errors + (answered - hits),
        note: `${hits} of ${answered} from the kept picture`,
      };
    },
  };
}

/** otp/verify under load: each prepared code verified once, by existing (loaded) users. */
function otpVerify(): BenchCase {
  let codes: Code[] = [];
  let rate = 0;
  return {
    name: 'app: otp/verify',
    floor: false,
    async prepare(env) {
      const users = await loadedUsers(env, VERIFY_WARM_UP);
      if (users.length < env.connections)
        return 'too few ACTIVE loaded users to sign in (seed-bench --area users)';
      codes = await askCodes(env, users);
    },
    async ready(env) {
      // About the measurement's length at the warm-up's rate (codes work 5 minutes).
      const wanted = Math.min(
        30_000,
        Math.max(10 * env.connections, Math.round(rate * env.seconds * 1.2)),
      );
      const started = performance.now();
      codes = await askCodes(env, await loadedUsers(env, wanted));
      env.log(
        `  (${codes.length} codes asked for and read from the log in ${((performance.now() - started) / 1000).toFixed(1)} s)`,
      );
    },
    async drive(env) {
      const app = appOf(env.ctx);
      const rng = randomSource(randomInt(1, 2 ** 31));
      const byId = new Map(app.apps.map((a) => [a.id, a]));
      const these = codes;
      codes = [];
      let i = 0;
      const measured = await cannon(env, {
        amount: these.length,
        next: () => verifyRequest(rng, these[i++] ?? these[0]!),
        onAnswer: (status, body) => {
          if (status !== 200) return;
          const pair = JSON.parse(body) as TokenPair;
          const of = byId.get(pair.user.masterAppId);
          if (of) app.refreshTokens.push({ app: of, token: pair.refreshToken });
        },
      });
      rate = measured.total / measured.seconds;
      return { ...measured, note: `${measured.total} sign-ins of loaded users` };
    },
  };
}

/**
 * refresh under load: chains of refresh tokens, each used once (a refresh's answer holds the
 * token its chain uses next), started from the sign-ins' tokens.
 */
function refresh(): BenchCase {
  return {
    name: 'app: refresh',
    floor: false,
    async prepare(env) {
      const app = appOf(env.ctx);
      const wanted = 4 * env.connections - app.refreshTokens.length;
      if (wanted <= 0) return;
      const users = await loadedUsers(env, wanted);
      for (const user of await signIn(env, users)) {
        app.refreshTokens.push({ app: user.app, token: user.refreshToken });
      }
      if (app.refreshTokens.length < 2 * env.connections)
        return 'too few users to refresh (seed-bench --area users)';
    },
    async drive(env, seconds) {
      const app = appOf(env.ctx);
      const rng = randomSource(randomInt(1, 2 ** 31));
      const byId = new Map(app.apps.map((a) => [a.id, a]));
      const queue = app.refreshTokens;
      const measured = await cannon(env, {
        seconds,
        next: () => {
          // Never empty while fewer requests are under way than tokens wait (each answer adds one).
          const next = queue.shift() ?? {
            app: app.apps[0]!,
            token: '1.used-up-used-up-used-up-used-up-used-up-used',
          };
          return {
            path: `${APP_API_BASE}${APP_PATHS.refresh}`,
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              'x-app-key': next.app.key,
              'x-forwarded-for': addressOf(rng),
            },
            body: JSON.stringify({ refreshToken: next.token }),
          };
        },
        onAnswer: (status, body) => {
          if (status !== 200) return;
          const pair = JSON.parse(body) as TokenPair;
          const of = byId.get(pair.user.masterAppId);
          if (of) queue.push({ app: of, token: pair.refreshToken });
        },
      });
      return { ...measured, note: `${queue.length} chains` };
    },
  };
}

const home = `${APP_API_BASE}${APP_PATHS.home}`;
const categories = `${APP_API_BASE}${APP_PATHS.categories}`;

/** The apps API's cases, in the order they run (the 304 case before render adds posters). */
export const APP_CASES: BenchCase[] = [
  {
    name: 'app: home',
    request: (rng, ctx, to) => appGet(rng, rng.pick(appOf(ctx).apps), home, to, true),
  },
  {
    name: 'app: categories',
    request: (rng, ctx, to) => appGet(rng, rng.pick(appOf(ctx).apps), categories, to, true),
  },
  ...(['categoryId', 'specialDayId'] as const).flatMap((by): BenchCase[] => {
    const label = by === 'categoryId' ? 'by category' : 'by special day';
    return [
      {
        name: `app: feed first page, ${label}`,
        request: (rng, ctx, to) => {
          const pair = rng.pick(appOf(ctx).pairs[by]);
          return appGet(rng, pair.app, feedUrl(pair), to, true);
        },
        prepare: async (env) => (appOf(env.ctx).pairs[by].length === 0 ? `no ${by}` : undefined),
      },
      {
        name: `app: feed page ${DEEP_PAGE}, ${label}`,
        request: (rng, ctx, to) => {
          const { pair, cursor } = rng.pick(appOf(ctx).deep[by]);
          return appGet(rng, pair.app, feedUrl(pair, cursor), to, true);
        },
        prepare: (env) => walkFeeds(env, by),
      },
    ];
  }),
  {
    name: 'app: feed first page, kept answer',
    // The same feeds by category, each URL as an app sends it: answered from what is kept.
    request: (rng, ctx, to) => {
      const pair = rng.pick(appOf(ctx).pairs.categoryId);
      return appGet(rng, pair.app, feedUrl(pair), to, false);
    },
  },
  {
    name: 'app: 304 (If-None-Match)',
    request: (rng, ctx, to) => {
      const { pair, etag } = rng.pick(appOf(ctx).etags);
      return appGet(rng, pair.app, feedUrl(pair), to, false, { 'if-none-match': etag });
    },
    answers: [304],
    prepare: askEtags,
    beside: 'app: feed first page, by category',
  },
  renderCold(),
  renderWarm(),
  otpVerify(),
  refresh(),
];
