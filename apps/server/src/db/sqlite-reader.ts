/**
 * A read-only SQLite connection on its own thread (see reads.ts). It runs the statements it is
 * sent, each prepared once and kept, and answers their rows.
 */
import { parentPort, workerData } from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import { readInPlace } from './sqlite-reading.ts';

export type ReadRequest = { id: number; queries: Array<{ sql: string; params: unknown[] }> };
export type ReadReply =
  | { id: number; results: unknown[][] }
  | { id: number; error: { message: string; code: string | undefined } };

const { file } = workerData as { file: string };
const db = new SQLite(file, { readonly: true, fileMustExist: true });
db.pragma('busy_timeout = 5000');
readInPlace(db);

const MAX_STATEMENTS = 500;
const statements = new Map<string, SQLite.Statement>();
function prepare(sql: string): SQLite.Statement {
  let statement = statements.get(sql);
  if (!statement) {
    statement = db.prepare(sql);
    if (statements.size >= MAX_STATEMENTS) statements.delete(statements.keys().next().value!);
    statements.set(sql, statement);
  }
  return statement;
}

parentPort!.on('message', (request: ReadRequest) => {
  let reply: ReadReply;
  try {
    reply = { id: request.id, results: request.queries.map((q) => prepare(q.sql).all(q.params)) };
  } catch (err) {
    const e = err as { message?: string; code?: string };
    reply = { id: request.id, error: { message: e.message ?? String(err), code: e.code } };
  }
  parentPort!.postMessage(reply);
});
