/**
 * The floor `npm run bench` compares the server with: a bare `node:http` server that answers the
 * same list requests with the server's own list mechanism (byte-identical SQL, planned the same
 * way) run in place through cached prepared statements, with no framework, no auth, no
 * per-request validation, no logging and no threads. Started by bench.ts: `node floor.ts`, configured by environment
 * (DATABASE_URL or SQLITE_FILE), it prints `listening <port>`.
 *
 * A request with `X-Session-Id` first runs the server's access check statement for that session
 * (auth/sessions.ts), as the server does on every call on PostgreSQL: what exact revocation costs
 * is the difference (bench.ts, the access check's cost).
 */
import http from 'node:http';
import { createHash } from 'node:crypto';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import type { CompiledQuery } from 'kysely';
import { openDatabase } from '../src/db/connect.ts';
import { Lists } from '../src/db/lists.ts';
import { accessStatement } from '../src/auth/sessions.ts';
import { readInPlace } from '../src/db/sqlite-reading.ts';
import { FLOOR_LISTS } from './cases.ts';

const databaseUrl = process.env.DATABASE_URL;
const sqliteFile = process.env.SQLITE_FILE;
const handle = openDatabase(
  databaseUrl ? { kind: 'postgres', url: databaseUrl } : { kind: 'sqlite', file: sqliteFile! },
);
// The server's list mechanism plans and compiles; the floor runs the statements itself.
const lists = new Lists(handle.db, handle.reads, handle.dialect);

type Run = (statements: readonly CompiledQuery[]) => Promise<Array<Record<string, unknown>[]>>;
let run: Run;
if (databaseUrl) {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
  const names = new Map<string, string>();
  const name = (text: string) => {
    let found = names.get(text);
    if (!found) {
      found = `f${createHash('sha1').update(text).digest('base64url').slice(0, 22)}`;
      names.set(text, found);
    }
    return found;
  };
  run = async (statements) =>
    (
      await Promise.all(
        statements.map((s) =>
          pool.query<Record<string, unknown>>({
            name: name(s.sql),
            text: s.sql,
            values: [...s.parameters],
          }),
        ),
      )
    ).map((r) => r.rows);
} else {
  const db = new SQLite(sqliteFile, { readonly: true, fileMustExist: true });
  readInPlace(db);
  const prepared = new Map<string, SQLite.Statement>();
  run = async (statements) =>
    statements.map((s) => {
      let statement = prepared.get(s.sql);
      if (!statement) prepared.set(s.sql, (statement = db.prepare(s.sql)));
      return statement.all(...s.parameters) as Record<string, unknown>[];
    });
}

/** The list and parsed query of a request (parsed once per distinct request). */
const parsed = new Map<string, { list: (typeof FLOOR_LISTS)[number]; query: never }>();
function requestOf(url: string) {
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
}

const access = accessStatement(handle.db);

/** The access check's statement for `sessionId` (a menu route's, with its grant): live or not. */
async function signedIn(sessionId: string): Promise<boolean> {
  const [rows = []] = await run([access.fill([sessionId, 'banner', 'VIEW'])]);
  const row = rows[0];
  return row !== undefined && row.revoked_at === null && row.status === 'ACTIVE';
}

const server = http.createServer((req, res) => {
  const request = requestOf(req.url ?? '');
  if (!request) {
    res.writeHead(404).end();
    return;
  }
  const sessionId = req.headers['x-session-id'];
  const checked = typeof sessionId === 'string' ? signedIn(sessionId) : Promise.resolve(true);
  checked
    .then((ok) => {
      if (!ok) throw new Error('the session is not live');
      return lists.answer(request.list.spec, request.query, run);
    })
    .then(
      ({ rows, total }) => {
        const body = JSON.stringify({ result: rows, total });
        res.writeHead(200, { 'content-type': 'application/json' }).end(body);
      },
      (err: unknown) => {
        console.error(err);
        res.writeHead(500).end();
      },
    );
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  console.log(`listening ${typeof address === 'object' && address ? address.port : ''}`);
});
