/**
 * What is wrong with the top lists' kept downloads (migration 0017), compared with the download
 * rows and their posters (nothing: an empty array). Every test server runs it when it closes, as
 * it does the trends' check; `npm run admin -- check-lists` too. Compared in SQL (the kept rows
 * are millions at the bench's size): the rows either side has and the other has not, zeros
 * left out (an emptied unit keeps a row with n = 0).
 */
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../../db/dialect.ts';
import { topDownloadsFromTables } from '../../db/migrations/0017-top-downloads.ts';

/** At most this many differences are named per table and side. */
const SHOWN = 10;

type Row = { k1: string; k2: number; k3: string; k4: number; n: number | string };

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- raw SQL, as the lists' check
export async function checkTopDownloads(db: Kysely<any>, d: Dialect): Promise<string[]> {
  const from = topDownloadsFromTables(d);
  const tables = [
    {
      table: 'top_category_downloads',
      expected: from.categories,
      columns: `grain as k1, master_app_id as k2, cast(start as text) as k3, category_id as k4`,
    },
    {
      table: 'top_poster_downloads',
      expected: from.posters,
      columns: `grain as k1, master_app_id as k2, cast(start as text) as k3, poster_id as k4`,
    },
    {
      table: 'top_poster_totals',
      expected: from.totals,
      columns: `'all' as k1, master_app_id as k2, '' as k3, poster_id as k4`,
    },
  ];
  const problems: string[] = [];
  for (const t of tables) {
    const expected = `select ${t.columns}, n from (${t.expected}) e where n <> 0`;
    const kept = `select ${t.columns}, n from ${t.table} where n <> 0`;
    const differing = async (a: string, b: string) =>
      (
        await sql
          .raw<Row>(`select * from (${a} except ${b}) x order by 1, 2, 3, 4 limit ${SHOWN}`)
          .execute(db)
      ).rows;
    const name = (r: Row) =>
      `${t.table} ${r.k1 === 'all' ? '' : `${r.k1} ${r.k3} `}app ${r.k2} ${t.table === 'top_category_downloads' ? 'category' : 'poster'} ${r.k4}`;
    for (const r of await differing(kept, expected))
      problems.push(`${name(r)}: ${r.n} kept, not so in the tables`);
    for (const r of await differing(expected, kept))
      problems.push(`${name(r)}: ${r.n} in the tables, not so kept`);
  }
  return problems;
}
