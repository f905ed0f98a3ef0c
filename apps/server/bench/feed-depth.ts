/**
 * What a page of the apps API's posters feed costs by depth, without HTTP or concurrency:
 * `SQLITE_FILE=… node bench/feed-depth.ts` (or `DATABASE_URL=…`) in apps/server walks four feeds
 * by category and four by special day (apps 1 and 3, values 5 and 42) to page 50 by cursor, then
 * times the first page, the second and the 50th, each read 200 times in turn on one connection
 * with the statements the server and the floor run (`Lists.answer`, as app-floor.ts calls it),
 * and prints the mean per page and the plan of page 50's first statement (`PLAN=1`).
 */
import type { CompiledQuery } from 'kysely';
import pg from 'pg';
import SQLite from 'better-sqlite3';
import { openDatabase } from '../src/db/connect.ts';
import { Lists } from '../src/db/lists.ts';
import { Cursors } from '../src/db/list-keyset.ts';
import { readInPlace } from '../src/db/sqlite-reading.ts';
import { POSTERS_LIST } from '../src/features/posters/routes.ts';

type Row = Record<string, unknown>;
type Run = (statements: readonly CompiledQuery[]) => Promise<Row[][]>;

const url = process.env.DATABASE_URL;
const file = process.env.SQLITE_FILE;
if (!url && !file) throw new Error('SQLITE_FILE or DATABASE_URL names the loaded database');
const handle = openDatabase(url ? { kind: 'postgres', url } : { kind: 'sqlite', file: file! });
const lists = new Lists(handle.db, handle.reads, handle.dialect, {
  cursors: new Cursors('feed-depth-feed-depth-feed-depth-feed-depth'),
});

let run: Run;
let plan: (statement: CompiledQuery) => Promise<string>;
let close: () => Promise<void>;
if (url) {
  // One connection, named prepared statements (as the server's pool runs them).
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const names = new Map<string, string>();
  run = async (statements) => {
    const out: Row[][] = [];
    for (const s of statements) {
      let name = names.get(s.sql);
      if (!name) names.set(s.sql, (name = `depth${names.size}`));
      out.push((await client.query<Row>({ name, text: s.sql, values: [...s.parameters] })).rows);
    }
    return out;
  };
  plan = async (s) =>
    (await client.query<{ 'QUERY PLAN': string }>(`explain ${s.sql}`, [...s.parameters])).rows
      .map((r) => r['QUERY PLAN'])
      .join('\n');
  close = () => client.end();
} else {
  const db = new SQLite(file, { readonly: true, fileMustExist: true });
  readInPlace(db);
  const prepared = new Map<string, SQLite.Statement>();
  run = async (statements) =>
    statements.map((s) => {
      let statement = prepared.get(s.sql);
      if (!statement) prepared.set(s.sql, (statement = db.prepare(s.sql)));
      return statement.all(...s.parameters) as Row[];
    });
  plan = async (s) =>
    (db.prepare(`explain query plan ${s.sql}`).all(...s.parameters) as Array<{ detail: string }>)
      .map((r) => r.detail)
      .join('\n');
  close = async () => void db.close();
}

const ROUNDS = 200;
try {
  for (const by of ['categoryId', 'specialDayId'] as const) {
    for (const app of [1, 3]) {
      for (const value of [5, 42]) {
        const query = { limit: 10, offset: 0, masterAppId: app, status: 'ACTIVE', [by]: value };
        const page = (cursor: string | undefined, through: Run = run) =>
          lists.answer(POSTERS_LIST, { ...query, cursor }, through);
        const cursors: Array<string | undefined> = [undefined];
        while (cursors.length < 50) {
          const { nextCursor } = await page(cursors.at(-1));
          if (nextCursor === null) break;
          cursors.push(nextCursor);
        }
        const time = async (cursor: string | undefined) => {
          for (let i = 0; i < 20; i++) await page(cursor);
          const started = performance.now();
          for (let i = 0; i < ROUNDS; i++) await page(cursor);
          return ((performance.now() - started) / ROUNDS).toFixed(2);
        };
        const deepest = cursors.length;
        console.log(
          `${by}=${value}, app ${app}: page 1 ${await time(undefined)} ms, page 2 ` +
            `${await time(cursors[1])} ms, page ${deepest} ${await time(cursors.at(-1))} ms`,
        );
        if (process.env.PLAN === '1') {
          const seen: CompiledQuery[] = [];
          await page(cursors.at(-1), async (statements) => {
            seen.push(...statements);
            return run(statements);
          });
          console.log(await plan(seen[0]!));
        }
      }
    }
  }
} finally {
  await close();
  await handle.close();
}
