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
};

export interface BenchCase {
  name: string;
  /** The request path (with its query), drawn anew for every request. */
  path(rng: RandomSource, ctx: BenchContext): string;
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
    path: (rng, { rows }) => {
      const perArea = Math.floor(rows / BENCH_AUDIT_ROWS_PER_ROW / AUDIT_AREAS.length);
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
];
