/**
 * What is wrong with the trends' kept daily counts (`trend_counts`, migration 0014), compared with
 * the tables they count (nothing: an empty array). Every test server runs it when it closes, as it
 * does the lists' check; `npm run admin -- check-lists` too.
 */
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../../db/dialect.ts';
import { trendCountsFromTables } from '../../db/migrations/0014-trend-counts.ts';

type Counted = { metric: string; app: number; day: string; n: number | string };

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- raw SQL, as the lists' check
export async function checkTrendCounts(db: Kysely<any>, d: Dialect): Promise<string[]> {
  const expected = await sql
    .raw<Counted>(
      `select metric, master_app_id as app, cast(day as text) as day, n from (${trendCountsFromTables(d)}) t`,
    )
    .execute(db);
  const actual = await sql<Counted>`
    select metric, master_app_id as app, cast(day as text) as day, n from trend_counts
    where n <> 0`.execute(db);
  const key = (r: Counted) => `${r.metric} app ${r.app} ${r.day}`;
  const want = new Map(
    expected.rows.filter((r) => Number(r.n) !== 0).map((r) => [key(r), Number(r.n)]),
  );
  const have = new Map(actual.rows.map((r) => [key(r), Number(r.n)]));
  const problems: string[] = [];
  for (const [k, n] of want) {
    if (have.get(k) !== n)
      problems.push(`trend_counts ${k}: ${have.get(k) ?? 0} kept, ${n} in the tables`);
  }
  for (const [k, n] of have) {
    if (!want.has(k)) problems.push(`trend_counts ${k}: ${n} kept, 0 in the tables`);
  }
  return problems;
}
