/**
 * What `npm run bench` measures: each case is a list request whose filter values and keywords vary
 * from one request to the next (so no cache keyed by the request can produce the numbers), and the
 * same statements the server runs for it, which the floor runs bare.
 */
import type { z } from 'zod';
import {
  AUDIT_AREAS,
  auditListQuery,
  API_BASE,
  STATUSES,
  bannerListQuery,
  imageListQuery,
  loginHistoryQuery,
  masterAppListQuery,
  posterListQuery,
  userListQuery,
  walletListQuery,
} from '@master-admin/contract';
import type { ListSpec } from '../src/db/lists.ts';
import { BANNERS_LIST } from '../src/features/banners/routes.ts';
import { MASTER_APPS_LIST } from '../src/features/master-apps/routes.ts';
import { POSTERS_LIST } from '../src/features/posters/routes.ts';
import { LOGIN_HISTORY_LIST, USERS_LIST, WALLETS_LIST } from '../src/features/users/routes.ts';
import { USER_IMAGES_LIST } from '../src/features/users/images.ts';
import { BENCH_WORDS, type RandomSource } from '../src/seed/bench.ts';
import { BENCH_AUDIT_ACCOUNTS, BENCH_AUDIT_ROWS_PER_ROW } from '../src/seed/bench-audit.ts';
import { AUDIT_LIST, auditPageQuery } from '../src/features/audit/routes.ts';
import type { AppContext } from './app-cases.ts';

export type Target = { p99Ms: { sqlite?: number; postgres?: number } };

/**
 * What a case draws its filter values from: the bench's apps, categories and special days, and
 * the newest users (those with images, wallet rows and login history).
 */
export type BenchContext = {
  apps: number[];
  categories: number[];
  days: number[];
  users: number[];
  rows: number;
  /** The audit entries loaded (seed-bench --area audit --rows). */
  auditRows: number;
  /** Cursors of banner pages half-way down the list (bench.ts reads them from the server). */
  bannerCursors: string[];
  /** The apps API's keys, feeds and fixtures (app-cases.ts), when an `app:` case is selected. */
  app?: AppContext | undefined;
};

/** A request that is more than a path: its method, headers and body (the apps API's cases). */
export type BenchRequest = {
  path: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
};

/** What a case measured: autocannon's rate and latencies, and what went wrong. */
export type Measured = {
  rps: number;
  p50: number;
  p99: number;
  max: number;
  errors: number;
  /** What else the case measured (render: CPU seconds per image composed). */
  note?: string | undefined;
};

/** What a case that prepares or measures itself is given (bench.ts, per database). */
export interface CaseEnv {
  serverUrl: string;
  /** The server's process (its CPU time is read from /proc). */
  serverPid: number;
  /** A back-office token of the bench's SUPER_ADMIN. */
  adminToken: string;
  ctx: BenchContext;
  database: { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string };
  /** The one-time codes the server's log sender wrote, by `<app id> <phone number>`. */
  codes: Map<string, string>;
  connections: number;
  /** Seconds a case is measured. */
  seconds: number;
  log(line: string): void;
}

export interface BenchCase {
  name: string;
  /** The request path (with its query), drawn anew for every request. */
  path?(rng: RandomSource, ctx: BenchContext): string;
  /**
   * Instead of `path`: the whole request, drawn anew for every request, for the server or for
   * the floor (the apps API's cases spell the server's URLs so that its kept answers miss).
   */
  request?(rng: RandomSource, ctx: BenchContext, to: 'server' | 'floor'): BenchRequest;
  /** The statuses the case's answers should have (default: any 2xx). */
  answers?: readonly number[];
  /**
   * Before the case, untimed (walking cursors, asking for ETags, signing users in); a string
   * says why the case cannot run here, and it is left out.
   */
  prepare?(env: CaseEnv): Promise<string | void>;
  /**
   * A case that drives the server itself (render, sign-in): called for the warm-up, then for the
   * measurement, on the same state.
   */
  drive?(env: CaseEnv, seconds: number, phase: 'warm-up' | 'measure'): Promise<Measured>;
  /** Between the warm-up and the measurement, untimed (the codes the measurement will use). */
  ready?(env: CaseEnv): Promise<void>;
  /** Another case whose floor the report sets this one beside too (the 304 and a first page). */
  beside?: string;
  /**
   * A call that is not a list (`floor: false`; the floor, floor.ts, answers lists only) has no
   * floor to be judged against: the p99 it must stay under at concurrency 50, per database. A
   * list is judged against its floor in the same run (bench.ts).
   */
  target?: Target;
  /** False for a call that is not a list. */
  floor?: false;
  /**
   * Also drives the floor with the server's access check before each answer (PostgreSQL, where
   * the server runs it on every call): what exact revocation costs a request (bench.ts).
   */
  accessCheckCost?: true;
}

/**
 * A list the floor can answer: its route (a pattern whose named groups are path parameters),
 * spec, query schema, and the values the server's route adds itself.
 */
export interface FloorList {
  route: string | RegExp;
  spec: ListSpec<string, unknown>;
  query: z.ZodType;
  fixed?: Record<string, unknown>;
  /** What the route does to the parsed query before the list sees it (the audit log's days). */
  prepare?: (query: Record<string, unknown>) => Record<string, unknown>;
}

export const FLOOR_LISTS: FloorList[] = [
  {
    route: `${API_BASE}/banner/list`,
    spec: BANNERS_LIST,
    query: bannerListQuery,
  },
  {
    route: `${API_BASE}/master-app/list`,
    spec: MASTER_APPS_LIST,
    query: masterAppListQuery,
  },
  {
    route: `${API_BASE}/poster/list`,
    spec: POSTERS_LIST,
    query: posterListQuery,
  },
  {
    route: `${API_BASE}/account/user/list`,
    spec: USERS_LIST,
    query: userListQuery,
    fixed: { role: 'USER' },
  },
  {
    route: new RegExp(`^${API_BASE}/top/(?<accountId>\\d+)$`),
    spec: USER_IMAGES_LIST,
    query: imageListQuery,
    fixed: { kind: 'top' },
  },
  {
    route: new RegExp(`^${API_BASE}/wallets/all/(?<accountId>\\d+)$`),
    spec: WALLETS_LIST,
    query: walletListQuery,
  },
  {
    route: new RegExp(`^${API_BASE}/login-history/all/(?<accountId>\\d+)$`),
    spec: LOGIN_HISTORY_LIST,
    query: loginHistoryQuery,
  },
  {
    route: `${API_BASE}/audit/list`,
    spec: AUDIT_LIST,
    query: auditListQuery,
    prepare: auditPageQuery,
  },
];

/**
 * Reads a request's path and query as the server's route would: its list among FLOOR_LISTS and
 * the query the list is asked (path parameters and the route's own values joined), each distinct
 * request parsed once. Undefined for a path no floor list answers.
 */
export function floorRequests() {
  const parsed = new Map<string, { list: FloorList; query: never }>();
  return (url: string) => {
    let found = parsed.get(url);
    if (found) return found;
    const [path = '', search = ''] = url.split('?');
    const list = FLOOR_LISTS.find((l) =>
      typeof l.route === 'string' ? l.route === path : l.route.test(path),
    );
    if (!list) return undefined;
    // Path parameters (`(?<accountId>\d+)`) and the values the route sets itself join the query.
    const params =
      typeof list.route === 'string'
        ? {}
        : Object.fromEntries(
            Object.entries(list.route.exec(path)?.groups ?? {}).map(([k, v]) => [k, Number(v)]),
          );
    const parsedQuery = list.query.parse(Object.fromEntries(new URLSearchParams(search))) as Record<
      string,
      unknown
    >;
    found = {
      list,
      query: {
        ...(list.prepare ? list.prepare(parsedQuery) : parsedQuery),
        ...params,
        ...list.fixed,
      } as never,
    };
    parsed.set(url, found);
    return found;
  };
}

const banners = `${API_BASE}/banner/list?limit=10`;
const audit = `${API_BASE}/audit/list?limit=20`;
const posters = `${API_BASE}/poster/list?limit=20`;
const users = `${API_BASE}/account/user/list?limit=20`;

export const CASES: BenchCase[] = [
  { name: 'banners: first page', path: () => banners, accessCheckCost: true },
  {
    name: 'banners: status',
    path: (rng) => `${banners}&status=${rng.pick(STATUSES)}`,
  },
  {
    name: 'banners: app + status',
    path: (rng, { apps }) =>
      `${banners}&masterAppId=${rng.pick(apps)}&status=${rng.pick(STATUSES)}`,
  },
  {
    name: 'banners: keyword (1 %)',
    // A word as a person would type it: each names about 1 % of the rows.
    path: (rng) => `${banners}&keyword=${rng.pick(BENCH_WORDS)}`,
  },
  {
    name: 'banners: keyword (rare: a row number)',
    // A row number as typed (`/4521`): it names about a hundred links at a million rows, and some
    // are values of the planner's statistics, which once made PostgreSQL walk the whole table.
    path: (rng) => `${banners}&keyword=/${1000 + rng.int(9000)}`,
  },
  {
    name: 'banners: offset rows/2',
    path: (rng, { rows }) => `${banners}&offset=${Math.floor(rows / 2) + rng.int(100)}`,
  },
  {
    // The same depth as the offset case, followed by cursor: what page 1 costs (issue #33).
    name: 'banners: cursor at rows/2',
    path: (rng, ctx) => `${banners}&cursor=${rng.pick(ctx.bannerCursors)}`,
  },
  {
    name: 'master apps (5 rows)',
    path: () => `${API_BASE}/master-app/list`,
    accessCheckCost: true,
  },
  { name: 'posters: first page', path: () => posters },
  {
    name: 'posters: status',
    path: (rng) => `${posters}&status=${rng.pick(STATUSES)}`,
  },
  {
    name: 'posters: app + status',
    path: (rng, { apps }) =>
      `${posters}&masterAppId=${rng.pick(apps)}&status=${rng.pick(STATUSES)}`,
  },
  {
    name: 'posters: category',
    path: (rng, { categories }) => `${posters}&categoryId=${rng.pick(categories)}`,
  },
  {
    name: 'posters: special day + app',
    path: (rng, { days, apps }) =>
      `${posters}&specialDayId=${rng.pick(days)}&masterAppId=${rng.pick(apps)}`,
  },
  {
    // Live now (issue #35): the kept total of ACTIVE posters less those outside their window,
    // counted on the window's partial indexes; the page walks the order index checking windows.
    name: 'posters: live now',
    path: () => `${posters}&live=now`,
  },
  {
    name: 'posters: live now + app',
    path: (rng, { apps }) => `${posters}&live=now&masterAppId=${rng.pick(apps)}`,
  },
  {
    name: 'posters: keyword (category or day, ~1.6 %)',
    path: (rng) => `${posters}&keyword=${rng.pick(BENCH_WORDS)}`,
  },
  {
    name: 'posters: sort by downloads',
    path: (rng) => `${posters}&sort=${rng.int(2) ? '-' : ''}downloadCount`,
  },
  {
    name: 'posters: sort by date',
    path: (rng) => `${posters}&sort=${rng.int(2) ? '-' : ''}date`,
  },
  { name: 'users: first page', path: () => users },
  {
    name: 'users: status',
    path: (rng) => `${users}&status=${rng.pick(STATUSES)}`,
  },
  {
    name: 'users: app + status',
    path: (rng, { apps }) => `${users}&masterAppId=${rng.pick(apps)}&status=${rng.pick(STATUSES)}`,
  },
  {
    name: 'users: keyword (name, 1 %)',
    path: (rng) => `${users}&keyword=${rng.pick(BENCH_WORDS)}`,
  },
  {
    name: 'users: sort by name',
    path: (rng) => `${users}&sort=${rng.int(2) ? '-' : ''}name`,
  },
  {
    name: 'users: status + sort by date limit',
    path: (rng) => `${users}&status=${rng.pick(STATUSES)}&sort=${rng.int(2) ? '-' : ''}dateLimit`,
  },
  {
    name: 'users: keyword (phone digits)',
    path: (rng) => `${users}&keyword=${100 + rng.int(900)}${rng.int(10)}`,
  },
  {
    name: 'user images: top, by number',
    path: (rng, { users: ids }) => `${API_BASE}/top/${rng.pick(ids)}?limit=20`,
  },
  {
    name: 'wallet: first page',
    path: (rng, { users: ids }) => `${API_BASE}/wallets/all/${rng.pick(ids)}?limit=20`,
    accessCheckCost: true,
  },
  {
    name: 'wallet: keyword',
    path: (rng, { users: ids }) =>
      `${API_BASE}/wallets/all/${rng.pick(ids)}?limit=20&keyword=${rng.pick(BENCH_WORDS)}`,
  },
  {
    name: 'login history: first page',
    path: (rng, { users: ids }) => `${API_BASE}/login-history/all/${rng.pick(ids)}?limit=20`,
    accessCheckCost: true,
  },
  { name: 'audit: first page', path: () => audit },
  {
    name: 'audit: account',
    path: (rng) => `${audit}&accountId=${1 + rng.int(BENCH_AUDIT_ACCOUNTS)}`,
  },
  {
    name: 'audit: area',
    path: (rng) => `${audit}&area=${rng.pick(AUDIT_AREAS)}`,
  },
  {
    name: 'audit: a row’s history',
    path: (rng, { auditRows }) => {
      const perArea = Math.floor(auditRows / BENCH_AUDIT_ROWS_PER_ROW / AUDIT_AREAS.length);
      return `${audit}&area=${rng.pick(AUDIT_AREAS)}&rowId=${1 + rng.int(Math.max(1, perArea))}`;
    },
  },
  {
    name: 'audit: account + a month',
    // A range is counted on the table through the (account, created_at) index: a month of one
    // account is a few thousand index entries at a million rows.
    path: (rng) => {
      const day = new Date(Date.now() - rng.int(700) * 86_400_000).toISOString().slice(0, 10);
      const next = new Date(Date.parse(day) + 30 * 86_400_000).toISOString().slice(0, 10);
      const account = 1 + rng.int(BENCH_AUDIT_ACCOUNTS);
      return `${audit}&accountId=${account}&fromDate=${day}&toDate=${next}`;
    },
  },
  {
    name: 'trend: downloads, posters, users per day (30 days)',
    path: (rng, { apps }) =>
      `${API_BASE}/dashboard/trends?inDays=30${rng.int(2) ? `&masterAppId=${rng.pick(apps)}` : ''}`,
    target: { p99Ms: { sqlite: 250, postgres: 500 } },
    floor: false,
  },
  {
    name: 'trend: per month, all time',
    path: (rng, { apps }) =>
      `${API_BASE}/dashboard/trends?bucket=month${rng.int(2) ? `&masterAppId=${rng.pick(apps)}` : ''}`,
    target: { p99Ms: { sqlite: 1000, postgres: 2000 } },
    floor: false,
  },
  {
    name: 'trend: top categories and posters (30 days)',
    path: (rng, { apps }) =>
      `${API_BASE}/dashboard/top?inDays=30${rng.int(2) ? `&masterAppId=${rng.pick(apps)}` : ''}`,
    target: { p99Ms: { sqlite: 250, postgres: 500 } },
    floor: false,
  },
  {
    name: 'trend: next special days and the calendar',
    path: (rng) =>
      rng.int(2)
        ? `${API_BASE}/dashboard/special-days?limit=10`
        : `${API_BASE}/special-day/calendar?month=${1 + rng.int(12)}`,
    target: { p99Ms: { sqlite: 20, postgres: 100 } },
    floor: false,
  },
  {
    // The planning view's call at its widest: 90 days from a day drawn anew, every app or one.
    name: 'planning: coverage of 90 days',
    path: (rng, { apps }) => {
      const from = new Date(Date.UTC(2026, 0, 1 + rng.int(365))).toISOString().slice(0, 10);
      return `${API_BASE}/planning/coverage?from=${from}&days=90${rng.int(2) ? `&masterAppId=${rng.pick(apps)}` : ''}`;
    },
    target: { p99Ms: { sqlite: 100, postgres: 200 } },
    floor: false,
  },
];
