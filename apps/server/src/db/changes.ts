/**
 * Knowing, without a query, that what the access check reads (sessions, accounts, grants) has not
 * changed since it was last read: `version()` answers a number that changes whenever it may have,
 * on this instance or any other. The access check keeps what it read while the number stays the
 * same (auth/sessions.ts), so a revocation still works on the very next call.
 *
 * - SQLite: the database's own change counters, read in place (a few microseconds): any commit
 *   by another connection or process (`PRAGMA data_version`) or by this one (`total_changes()`).
 *   Coarse (any write counts), and exact.
 * - PostgreSQL: triggers on those tables notify a channel on commit (migration 0005); every
 *   instance listens and counts the notifications, and counts its own writes as they are sent
 *   and again when done (so its own changes count before any notification arrives). While the
 *   listening connection is down, `version()` answers undefined and nothing is kept.
 */
import type SQLite from 'better-sqlite3';
import pg from 'pg';

export interface ChangeWatch {
  version(): number | undefined;
  close(): Promise<void>;
}

export class SqliteChangeWatch implements ChangeWatch {
  readonly #dataVersion: SQLite.Statement;
  readonly #totalChanges: SQLite.Statement;
  constructor(sqlite: SQLite.Database) {
    this.#dataVersion = sqlite.prepare('pragma data_version').pluck();
    this.#totalChanges = sqlite.prepare('select total_changes()').pluck();
  }

  version() {
    // Both grow: their sum changes whenever either does.
    return Number(this.#dataVersion.get()) + Number(this.#totalChanges.get());
  }

  async close() {}
}

/**
 * Values read from the tables a `ChangeWatch` covers, kept while its version stays the same (at
 * most `max`, the oldest dropped first). `lookup` answers a kept value and the version to pass to
 * `keep` after reading one: a value read while anything changed is not kept.
 */
export class KeptWhileUnchanged<K, V> {
  readonly #changes: ChangeWatch;
  readonly #max: number;
  readonly #kept = new Map<K, V>();
  #keptAt: number | undefined;

  constructor(changes: ChangeWatch, max = 10_000) {
    this.#changes = changes;
    this.#max = max;
  }

  lookup(key: K): { value: V | undefined; version: number | undefined } {
    const version = this.#changes.version();
    if (version === undefined || version !== this.#keptAt) {
      this.#kept.clear();
      this.#keptAt = version;
    }
    return { value: this.#kept.get(key), version };
  }

  keep(key: K, value: V, version: number | undefined) {
    if (version === undefined || this.#changes.version() !== version) return;
    if (this.#kept.size >= this.#max) this.#kept.delete(this.#kept.keys().next().value!);
    this.#kept.set(key, value);
  }
}

let localWrites = 0;
/** Counts a write of this process (connect.ts): its own changes are seen without a notification. */
export function noteLocalWrite() {
  localWrites += 1;
}

/** The channel migration 0005's triggers notify. */
export const AUTH_CHANNEL = 'master_admin_auth';

export class PgChangeWatch implements ChangeWatch {
  readonly #url: string;
  #client: pg.Client | undefined;
  #listening = false;
  #count = 0;
  #closed = false;
  #retry: NodeJS.Timeout | undefined;

  /** Listens from the first `version()` on (a process that never asks, the CLI, never does). */
  constructor(url: string) {
    this.#url = url;
  }

  async #connect() {
    if (this.#closed) return;
    const client = new pg.Client({ connectionString: this.#url });
    this.#client = client;
    const lost = () => {
      if (this.#client !== client) return;
      this.#listening = false;
      this.#client = undefined;
      client.removeAllListeners();
      void client.end().catch(() => undefined);
      if (!this.#closed) {
        this.#retry = setTimeout(() => {
          this.#retry = undefined;
          void this.#connect();
        }, 1000).unref();
      }
    };
    client.on('error', lost);
    client.on('end', lost);
    client.on('notification', () => (this.#count += 1));
    try {
      await client.connect();
      await client.query(`listen ${AUTH_CHANNEL}`);
      // Anything kept before this point may be stale: start a new count.
      this.#count += 1;
      this.#listening = true;
    } catch {
      lost();
    }
  }

  version() {
    if (!this.#client && !this.#retry && !this.#closed) void this.#connect();
    return this.#listening ? this.#count + localWrites : undefined;
  }

  async close() {
    this.#closed = true;
    clearTimeout(this.#retry);
    this.#listening = false;
    const client = this.#client;
    this.#client = undefined;
    if (client) {
      client.removeAllListeners();
      await client.end().catch(() => undefined);
    }
  }
}
