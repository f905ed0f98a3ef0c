/**
 * The floor `npm run bench` compares the server with: a bare `node:http` server that answers the
 * same list requests with the server's own list mechanism (byte-identical SQL, planned the same
 * way) run in place through cached prepared statements, with no framework, no auth, no
 * per-request validation, no logging and no threads. Started by bench.ts: `node floor.ts`, configured by environment
 * (DATABASE_URL or SQLITE_FILE), it prints `listening <port>`.
 *
 * The apps API's content calls are answered by app-floor.ts.
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
import { Cursors } from '../src/db/list-keyset.ts';
import { floorRequests } from './cases.ts';
import { appFloor } from './app-floor.ts';

const databaseUrl = process.env.DATABASE_URL;
const sqliteFile = process.env.SQLITE_FILE;
const handle = openDatabase(
  databaseUrl ? { kind: 'postgres', url: databaseUrl } : { kind: 'sqlite', file: sqliteFile! },
);
// The server's list mechanism plans and compiles; the floor runs the statements itself. It takes
// the server's cursors (the bench gives both the same secret).
const lists = new Lists(handle.db, handle.reads, handle.dialect, {
  cursors: new Cursors(process.env.JWT_SECRET),
});

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

const requestOf = floorRequests();

const access = accessStatement(handle.db);

/** The access check's statement for `sessionId` (a menu route's, with its grant): live or not. */
async function signedIn(sessionId: string): Promise<boolean> {
  const [rows = []] = await run([access.fill([sessionId, 'banner', 'VIEW'])]);
  const row = rows[0];
  return row !== undefined && row.revoked_at === null && row.status === 'ACTIVE';
}

// The apps API's content calls (app-floor.ts).
const appCalls = appFloor(handle.db, lists, run);

const server = http.createServer((req, res) => {
  if (appCalls(req, res)) return;
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
