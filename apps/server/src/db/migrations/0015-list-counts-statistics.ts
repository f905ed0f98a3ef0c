/**
 * PostgreSQL's planner learns which (list, grouping set) pairs hold how many `list_counts` rows
 * (issue #8). Estimating `list = 'posters' and grp = 0` as if the two were independent, it
 * expected 53,000 of the table's 740,000 rows where there are 25 (the posters' four-column set
 * holds 154,000 of its rows, their app-and-status set 25), and summed a page's total by scanning
 * the whole table in parallel: 200 ms for every first page of posters at a million of them. With
 * the pairs' most common values it reads the 25 rows through the key: 0.1 ms. SQLite's planner
 * takes the key as it is. The statistics are gathered by the next `analyze` (migrate.ts runs one
 * after migrating a database that was analyzed before). Frozen.
 */
import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../dialect.ts';

export function listCountsStatistics(d: Dialect): Migration {
  return {
    async up(db: Kysely<any>) {
      if (d.kind !== 'postgres') return;
      await sql`create statistics list_counts_list_grp (mcv) on list, grp from list_counts`.execute(
        db,
      );
    },
  };
}
