import { setTimeout as sleep } from 'node:timers/promises';
import { PostgresAdapter, sql, type Kysely } from 'kysely';
import { checkDeadline, graceDeadline, remainingMs } from '../http/deadline.ts';
import { COMMIT_UNCONFIRMED_MESSAGE, PartUnavailable, databaseUnavailable } from '../http/parts.ts';
import type { Db } from './connect.ts';
import { isTransactionConflict } from './dialect.ts';
import type { Database } from './schema.ts';

/** How many times a transaction runs at most when the database cancels it for a conflict. */
export const TRANSACTION_ATTEMPTS = 4;

/** Where a retry is reported: a request's or the app's logger; the console by default (the CLI). */
export type RetryLog = { warn(details: object, message: string): void };

type Work<DB, T> = (trx: Kysely<DB>) => Promise<T>;

const consoleLog: RetryLog = { warn: (details, message) => console.warn(message, details) };

/**
 * Runs `work` in a transaction: `db`'s own when it already is one (a helper called by a route
 * that records its audit entry in the same transaction), else a new one. A new one that the
 * database cancels for a conflict (a deadlock or a serialization failure on PostgreSQL; on
 * SQLite a snapshot another process wrote past) is rolled back and run again from the start, up
 * to TRANSACTION_ATTEMPTS times, after a short random pause, each retry reported to `log` (the
 * console when not given: the CLI); then the conflict is thrown (the error handler answers 503).
 * So `work` does nothing outside the transaction that a second run would repeat. Nested calls
 * run once: their outer transaction is the one retried.
 */
export function inTransaction<DB, T>(db: Kysely<DB>, work: Work<DB, T>): Promise<T>;
export function inTransaction<DB, T>(db: Kysely<DB>, log: RetryLog, work: Work<DB, T>): Promise<T>;
export async function inTransaction<DB, T>(
  db: Kysely<DB>,
  ...args: [Work<DB, T>] | [RetryLog, Work<DB, T>]
): Promise<T> {
  const [log, work] = args.length === 1 ? [consoleLog, args[0]] : args;
  if (db.isTransaction) return work(db);
  for (let attempt = 1; ; attempt++) {
    // Each attempt's own list: a rolled-back attempt's callbacks are dropped with it.
    const callbacks: Array<() => void> = [];
    let result!: T;
    // Set once `work` is done and only the COMMIT is left: the transaction's id (PostgreSQL).
    let committingTxid: string | undefined;
    try {
      result = await db.transaction().execute(async (trx) => {
        committing.set(trx, callbacks);
        const txid = await begin(trx);
        result = await work(trx);
        // Past the request's deadline it answers 503: what it did must not commit.
        checkDeadline();
        committingTxid = txid;
        return result;
      });
    } catch (err) {
      if (committingTxid !== undefined && mayHaveCommitted(err)) {
        // The COMMIT was sent and its answer lost with the connection: it may have committed.
        // Asked on another connection, so a change that was made never answers as failed.
        const outcome = await commitOutcome(db, committingTxid);
        if (outcome === 'committed') {
          log.warn({ txid: committingTxid }, 'the commit’s answer was lost; it had committed');
          for (const callback of callbacks) runCallback(callback, log);
          return result;
        }
        throw outcome === 'aborted' ? err : new CommitUnconfirmed(err);
      }
      if (attempt >= TRANSACTION_ATTEMPTS || !isTransactionConflict(err)) throw err;
      const { code, message } = err as { code: string; message: string };
      log.warn({ code, attempt }, `transaction retried after a conflict: ${message}`);
      // Random, so the transactions that collided do not meet again at once; longer each time.
      await sleep(Math.random() * 20 * attempt);
      continue;
    }
    for (const callback of callbacks) runCallback(callback, log);
    return result;
  }
}

/**
 * The transaction's first statement on PostgreSQL: its id (to learn a lost COMMIT's outcome),
 * and, in a request, what is left of the deadline as its statement_timeout, so the database
 * cancels a statement once the deadline passes (one slow statement cannot carry a request past
 * it). Outside a request (the operator's tool) unbounded. Nothing on SQLite (no connection to
 * lose: a COMMIT there answers or throws).
 */
async function begin<DB>(trx: Kysely<DB>): Promise<string | undefined> {
  if (!(trx.getExecutor().adapter instanceof PostgresAdapter)) return undefined;
  const left = remainingMs();
  const timeout = left === undefined ? null : String(Math.max(1, Math.floor(left)));
  const { rows } = await sql<{ txid: string }>`select txid_current()::text as txid, case
    when ${timeout}::text is not null then set_config('statement_timeout', ${timeout}::text, true)
    end as bound`.execute(trx);
  return rows[0]!.txid;
}

/**
 * Whether a failed COMMIT may have committed all the same: any error that says the database did
 * not answer (a dropped connection, whatever its code: EPIPE and ECONNRESET as much as 08006).
 * Asking is always right; `txid_status` is the one that knows.
 */
const mayHaveCommitted = (err: unknown) => databaseUnavailable(err) !== undefined;

/** How long to wait between two questions about a lost COMMIT. */
const OUTCOME_POLL_MS = 200;

/**
 * What became of transaction `txid` (PostgreSQL's `txid_status`), asked until it is known or
 * the request's grace ends (`graceDeadline`: half its deadline again, for the rest of the request,
 * so a change found committed is answered as done; 10 s outside a request). A transaction whose connection
 * went before its COMMIT arrived is 'in progress' until the database notices, then aborted.
 */
async function commitOutcome<DB>(
  db: Kysely<DB>,
  txid: string,
): Promise<'committed' | 'aborted' | undefined> {
  const until = graceDeadline(10_000);
  for (;;) {
    try {
      const { rows } = await sql<{
        status: string | null;
      }>`select txid_status(${txid}::bigint) as status`.execute(db);
      const status = rows[0]?.status;
      if (status === 'committed' || status === 'aborted') return status;
      if (status === null || status === undefined) return undefined;
    } catch {
      // The database is still not answering: ask again.
    }
    if (Date.now() + OUTCOME_POLL_MS >= until) return undefined;
    await sleep(OUTCOME_POLL_MS);
  }
}

/**
 * A change whose COMMIT's answer was lost, the database not answering long enough to tell
 * whether it committed: 503, its Idempotency-Key kept as it is (a retry with it learns which).
 */
export class CommitUnconfirmed extends PartUnavailable {
  constructor(cause: unknown) {
    super('database', cause, COMMIT_UNCONFIRMED_MESSAGE);
    this.name = 'CommitUnconfirmed';
  }
}

/** The callbacks to run once each open transaction commits, by the transaction `work` got. */
const committing = new WeakMap<object, Array<() => void>>();

function runCallback(callback: () => void, log: RetryLog) {
  try {
    callback();
  } catch (err) {
    // The change has committed: its answer must not turn into a failure now.
    log.warn({ err }, 'a callback after commit failed');
  }
}

/**
 * Runs `callback` once the transaction `trx` commits (the outermost one, when `trx` is a nested
 * `inTransaction`'s, which is the same object); never when it rolls back. Outside a transaction
 * (`trx` is the database itself, each statement committing on its own) it runs at once. For what
 * others may only learn of a committed change (the event stream): said before the commit, a
 * rolled-back change would have been announced.
 */
export function afterCommit<DB>(trx: Kysely<DB>, callback: () => void): void {
  if (!trx.isTransaction) {
    callback();
    return;
  }
  const callbacks = committing.get(trx);
  if (!callbacks) throw new Error('afterCommit: a transaction not opened by inTransaction');
  callbacks.push(callback);
}

/**
 * Locks rows of `table`, in ascending id order, until the transaction `trx` ends: those whose
 * `column` holds one of `values` (their ids by default), or every row when `values` is 'all'.
 * Answers the ids locked, in that order.
 *
 * Every write that changes several rows of a table locks them here first (`audited` does for
 * the rows it records): a statement such as `update … where id in (…)` locks in the order it
 * finds them, which differs from one statement to the next, and two such writes each holding a
 * row the other wants wait for each other for ever (PostgreSQL ends one: a deadlock). In one
 * order, the second waits for the first. `mode` 'update' for a delete (the lock a delete
 * takes); else the weaker lock an update of non-key columns takes, which leaves inserts of rows
 * referring to these free. SQLite's writers take turns: it only reads the ids.
 */
export async function lockRows(
  trx: Db,
  table: keyof Database,
  values: readonly number[] | 'all',
  options: { column?: 'id' | 'accountId' | 'menuId'; mode?: 'update' | 'noKeyUpdate' } = {},
): Promise<number[]> {
  if (values !== 'all' && values.length === 0) return [];
  // Any table with an id (as the audit log's snapshots): the columns are the caller's word.
  const rows = trx as unknown as Kysely<Record<string, Record<string, number>>>;
  let query = rows.selectFrom(table).select('id').orderBy('id');
  if (values !== 'all') query = query.where(options.column ?? 'id', 'in', values);
  if (trx.getExecutor().adapter instanceof PostgresAdapter) {
    query = options.mode === 'update' ? query.forUpdate() : query.forNoKeyUpdate();
  }
  return (await query.execute()).map((r) => r.id);
}
