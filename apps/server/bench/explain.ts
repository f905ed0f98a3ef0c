/**
 * What PostgreSQL does for a list request of the bench: `DATABASE_URL=… node bench/explain.ts
 * '/api/v1/audit/list?limit=20&accountId=3'` runs the statements the server (and the floor) run
 * for it, each once to warm up and once under `EXPLAIN (ANALYZE, BUFFERS)`, and prints each
 * statement, its parameters, its plan and its time (`GENERIC=1`: the plan for any values). The statements are the server's own (the list
 * mechanism plans and compiles them, as in floor.ts), so a slow case of `npm run bench` can be
 * looked into on the database it ran on.
 */
import type { CompiledQuery } from 'kysely';
import pg from 'pg';
import { openDatabase } from '../src/db/connect.ts';
import { Lists } from '../src/db/lists.ts';
import { floorRequests } from './cases.ts';

const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) throw new Error('DATABASE_URL names the PostgreSQL database to explain on');
const handle = openDatabase({ kind: 'postgres', url: databaseUrl });
const lists = new Lists(handle.db, handle.reads, handle.dialect);
const client = new pg.Client({ connectionString: databaseUrl, options: '-c TimeZone=UTC' });
await client.connect();
// The server runs named prepared statements, which PostgreSQL may plan once for any values after
// five runs: GENERIC=1 shows that plan instead of one for these values.
if (process.env.GENERIC === '1') await client.query('set plan_cache_mode = force_generic_plan');
const requestOf = floorRequests();
try {
  for (const url of process.argv.slice(2)) {
    const request = requestOf(url);
    if (!request) throw new Error(`no list answers ${url}`);
    console.log(`\n=== ${url}`);
    const run = async (statements: readonly CompiledQuery[]) => {
      const results: Array<Record<string, unknown>[]> = [];
      for (const s of statements) {
        const values = [...s.parameters];
        await client.query(s.sql, values);
        const started = performance.now();
        const result = await client.query(s.sql, values);
        const ms = performance.now() - started;
        const plan = await client.query<{ 'QUERY PLAN': string }>(
          `explain (analyze, buffers) ${s.sql}`,
          values,
        );
        console.log(
          `\n-- ${ms.toFixed(1)} ms, ${result.rowCount} rows; parameters ${JSON.stringify(values)}`,
        );
        console.log(s.sql);
        console.log(plan.rows.map((r) => r['QUERY PLAN']).join('\n'));
        results.push(result.rows as Record<string, unknown>[]);
      }
      return results;
    };
    const { total } = await lists.answer(request.list.spec, request.query, run);
    console.log(`\ntotal ${total}`);
  }
} finally {
  await client.end();
  await handle.close();
}
