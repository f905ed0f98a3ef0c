/**
 * Knowing, without a query, that what the access check reads (sessions, accounts, grants) has not
 * changed since it was last read: `version()` answers a number that changes whenever it may have,
 * on this instance or any other. The access check keeps what it read while the number stays the
 * same (auth/sessions.ts), so a revocation still works on the very next call.
 *
 * Only SQLite can know this exactly and for free: the database's own change counters, read in
 * place (a few microseconds), move with any commit by another connection or process
 * (`PRAGMA data_version`) or by this one (`total_changes()`). Coarse (any write counts), and exact.
 * PostgreSQL has no such counter that another server's commit moves before its call answers (a
 * LISTEN/NOTIFY message can land after the next request, and does not pass a transaction-mode
 * pooler), so there nothing is kept and every call reads (db/connect.ts: no watch).
 */
import type SQLite from 'better-sqlite3';

export interface ChangeWatch {
  version(): number;
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
}

/**
 * Values read from the tables a `ChangeWatch` covers, kept while its version stays the same (at
 * most `max`, the oldest dropped first). `lookup` answers a kept value and the version to pass to
 * `keep` after reading one: a value read while anything changed is not kept.
 */
export class KeptWhileUnchanged<K, V> {
  readonly #changes: ChangeWatch | undefined;
  readonly #max: number;
  readonly #kept = new Map<K, V>();
  #keptAt: number | undefined;

  /** Without a watch nothing is kept: every `lookup` misses. */
  constructor(changes: ChangeWatch | undefined, max = 10_000) {
    this.#changes = changes;
    this.#max = max;
  }

  lookup(key: K): { value: V | undefined; version: number | undefined } {
    const version = this.#changes?.version();
    if (version === undefined || version !== this.#keptAt) {
      this.#kept.clear();
      this.#keptAt = version;
    }
    return { value: this.#kept.get(key), version };
  }

  keep(key: K, value: V, version: number | undefined) {
    if (version === undefined || this.#changes?.version() !== version) return;
    if (this.#kept.size >= this.#max) this.#kept.delete(this.#kept.keys().next().value!);
    this.#kept.set(key, value);
  }
}
