/**
 * Where list reads run. A list page may walk half a million index entries or count thousands of
 * search matches; run on the request path, better-sqlite3 (synchronous) would hold every other
 * request, sign-in and health checks included, until it finished. So list reads go to a pool of
 * their own: read-only SQLite connections on worker threads, or a PostgreSQL pool apart from the
 * one that serves sign-in, sessions and writes.
 */
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import type pg from 'pg';
import type { CompiledQuery } from 'kysely';
import type { CloseRequest, ReadReply, ReadRequest } from './sqlite-reader.ts';
import { checkDeadline } from '../http/deadline.ts';

export interface ReadPool {
  /** Runs read-only statements (together, when it can) and resolves with each one's rows. */
  run(queries: readonly CompiledQuery[]): Promise<Array<Record<string, unknown>[]>>;
  close(): Promise<void>;
}

/** A failed read, with the database's own error code (as a query on the main connection has). */
class ReadError extends Error {
  readonly code: string | undefined;
  constructor(message: string, code: string | undefined) {
    super(message);
    this.code = code;
  }
}

type Pending = {
  resolve: (rows: Array<Record<string, unknown>[]>) => void;
  reject: (err: Error) => void;
};

/** Numbers for statement texts, shared by every thread of every pool. */
const statementKeys = new Map<string, number>();
function keyOf(sql: string): number {
  let key = statementKeys.get(sql);
  if (key === undefined) statementKeys.set(sql, (key = statementKeys.size + 1));
  return key;
}

class ReaderThread {
  readonly worker: Worker;
  readonly pending = new Map<number, Pending>();
  /** The statement texts this thread has been sent. */
  readonly known = new Set<number>();
  /**
   * Requests made during this turn of the event loop, sent together once its I/O callbacks have
   * run: under load one message carries several requests (a message costs a wake-up of the
   * thread, which was an eighth of the server's time on a page of posters).
   */
  #outbox: ReadRequest[] = [];
  constructor(file: string, onExit: (thread: ReaderThread) => void) {
    this.worker = new Worker(new URL('./sqlite-reader.ts', import.meta.url), {
      workerData: { file },
    });
    this.worker.on('message', (replies: ReadReply[]) => {
      for (const reply of replies) {
        const waiting = this.pending.get(reply.id);
        if (!waiting) continue;
        this.pending.delete(reply.id);
        if ('error' in reply) waiting.reject(new ReadError(reply.error.message, reply.error.code));
        else waiting.resolve(reply.results as Array<Record<string, unknown>[]>);
      }
    });
    const fail = (err: Error) => {
      for (const waiting of this.pending.values()) waiting.reject(err);
      this.pending.clear();
    };
    this.worker.on('error', fail);
    this.worker.on('exit', (code) => {
      fail(new Error(`SQLite reader thread exited (code ${code})`));
      onExit(this);
    });
  }

  /**
   * Asks the thread to close its connection and end, and resolves once it has. Not
   * `worker.terminate()`: a thread ended while it loads better-sqlite3 aborts the whole process
   * (the addon's registration fails as its environment goes: "FATAL ERROR: Error::New
   * napi_get_last_error_info", seen once in a CI run). The request waits behind the thread's
   * loading and its reads under way; a thread that has not ended after `graceMs` is terminated.
   */
  close(graceMs = 5000): Promise<void> {
    if (this.worker.threadId === -1) return Promise.resolve();
    const exited = new Promise<void>((resolve) => this.worker.once('exit', () => resolve()));
    // Reads asked for in this turn go first: the thread answers them, then ends.
    this.#flush();
    this.worker.postMessage('close' satisfies CloseRequest);
    const timer = setTimeout(() => void this.worker.terminate(), graceMs);
    return exited.finally(() => clearTimeout(timer));
  }

  send(request: ReadRequest, waiting: Pending) {
    this.pending.set(request.id, waiting);
    if (this.#outbox.push(request) === 1) setImmediate(() => this.#flush());
  }

  #flush() {
    if (this.#outbox.length === 0) return;
    this.worker.postMessage(this.#outbox);
    this.#outbox = [];
  }
}

/** Reads on `size` worker threads, each with its own read-only connection to `file`. */
export class SqliteReadPool implements ReadPool {
  readonly #file: string;
  readonly #size: number;
  #threads: ReaderThread[] = [];
  #nextId = 1;
  #closed = false;

  /** Threads start on the first read, so a process that never lists (the CLI) starts none. */
  constructor(file: string, size: number) {
    this.#file = file;
    this.#size = size;
  }

  #spawn(): ReaderThread {
    return new ReaderThread(this.#file, (dead) => {
      // A reader that died (it should not) is replaced, so the pool keeps its size.
      const i = this.#threads.indexOf(dead);
      if (i >= 0 && !this.#closed) this.#threads[i] = this.#spawn();
    });
  }

  run(queries: readonly CompiledQuery[]): Promise<Array<Record<string, unknown>[]>> {
    if (this.#closed) return Promise.reject(new Error('the read pool is closed'));
    try {
      checkDeadline();
    } catch (err) {
      return Promise.reject(err instanceof Error ? err : new Error(String(err)));
    }
    while (this.#threads.length < this.#size) this.#threads.push(this.#spawn());
    // The least busy thread takes the whole batch: one message there and one back.
    let thread = this.#threads[0]!;
    for (const t of this.#threads) if (t.pending.size < thread.pending.size) thread = t;
    const request: ReadRequest = {
      id: this.#nextId++,
      queries: queries.map((q) => {
        const key = keyOf(q.sql);
        if (thread.known.has(key)) return { key, params: [...q.parameters] };
        thread.known.add(key);
        return { key, sql: q.sql, params: [...q.parameters] };
      }),
    };
    return new Promise((resolve, reject) => thread.send(request, { resolve, reject }));
  }

  /** Reads sent to the threads and not answered yet (waiting or running): the read queue. */
  get pending(): number {
    let n = 0;
    for (const t of this.#threads) n += t.pending.size;
    return n;
  }

  async close(): Promise<void> {
    this.#closed = true;
    await Promise.all(this.#threads.map((t) => t.close()));
  }
}

/** Reads on a PostgreSQL pool of their own; the statements of one call run side by side. */
export class PgReadPool implements ReadPool {
  readonly #pool: pg.Pool;
  readonly #owned: boolean;
  /** `owned: false`: the pool is someone else's to end. */
  constructor(pool: pg.Pool, options: { owned: boolean } = { owned: true }) {
    this.#pool = pool;
    this.#owned = options.owned;
  }

  async run(queries: readonly CompiledQuery[]): Promise<Array<Record<string, unknown>[]>> {
    checkDeadline();
    const results = await Promise.all(
      queries.map((q) => this.#pool.query<Record<string, unknown>>(q.sql, [...q.parameters])),
    );
    return results.map((r) => r.rows);
  }

  /** The pool's connections in use and idle, and the calls waiting for one. */
  get load(): { inUse: number; idle: number; waiting: number } {
    const pool = this.#pool;
    return {
      inUse: pool.totalCount - pool.idleCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
    };
  }

  async close(): Promise<void> {
    if (this.#owned) await this.#pool.end();
  }
}

/** How many SQLite reader threads to start: one a core, two to four. */
export function defaultReaders(): number {
  return Math.min(4, Math.max(2, os.availableParallelism()));
}
