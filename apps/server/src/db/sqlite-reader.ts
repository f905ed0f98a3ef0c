/**
 * A read-only SQLite connection on its own thread (see reads.ts). It runs the statements it is
 * sent, each prepared once and kept, and answers their rows.
 */
import { parentPort, workerData } from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import { readInPlace } from './sqlite-reading.ts';

/**
 * A statement's text travels once to each thread: later requests name it by its number (its text
 * was cloned with every request, measured at a tenth of the server's time on a list of posters).
 */
export type ReadRequest = {
  id: number;
  queries: Array<{ key: number; sql?: string; params: unknown[] }>;
};
export type ReadReply =
  | { id: number; results: unknown[][] }
  | { id: number; error: { message: string; code: string | undefined } };

/** The message that asks the thread to close its connection and end (reads.ts). */
export type CloseRequest = 'close';

const { file } = workerData as { file: string };
const db = new SQLite(file, { readonly: true, fileMustExist: true });
db.pragma('busy_timeout = 5000');
readInPlace(db);

const MAX_STATEMENTS = 500;
// Every text this thread was sent, by number; the prepared statements of the most recent ones.
const texts = new Map<number, string>();
const statements = new Map<number, SQLite.Statement>();
function prepare(key: number, sql: string | undefined): SQLite.Statement {
  if (sql !== undefined) texts.set(key, sql);
  let statement = statements.get(key);
  if (!statement) {
    statement = db.prepare(texts.get(key)!);
    if (statements.size >= MAX_STATEMENTS) statements.delete(statements.keys().next().value!);
    statements.set(key, statement);
  }
  return statement;
}

function answer(request: ReadRequest): ReadReply {
  try {
    return {
      id: request.id,
      results: request.queries.map((q) => prepare(q.key, q.sql).all(q.params)),
    };
  } catch (err) {
    const e = err as { message?: string; code?: string };
    return { id: request.id, error: { message: e.message ?? String(err), code: e.code } };
  }
}

/** Answers already made wait at most this long for the rest of their batch. */
const HOLD_MS = 2;

// Requests come in batches (reads.ts); their answers go back together too, unless a slow one
// (a common keyword) would hold the quick ones before it.
parentPort!.on('message', (requests: ReadRequest[] | CloseRequest) => {
  if (requests === 'close') {
    db.close();
    process.exit(0);
  }
  let replies: ReadReply[] = [];
  let since = performance.now();
  for (const request of requests) {
    replies.push(answer(request));
    if (performance.now() - since > HOLD_MS && replies.length < requests.length) {
      parentPort!.postMessage(replies);
      replies = [];
      since = performance.now();
    }
  }
  if (replies.length > 0) parentPort!.postMessage(replies);
});
