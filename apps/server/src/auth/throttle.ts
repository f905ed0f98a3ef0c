/**
 * Sign-in throttling: after `maxFailures` failures within the window, for one client IP or for one
 * account identifier, sign-in answers 429 until the window has room again. Failures are counted in
 * the database, so every instance sees the same count without any other service.
 */
import type { Db } from '../db/connect.ts';
import { now } from '../db/dialect.ts';

export class LoginThrottle {
  readonly #db: Db;
  readonly #max: number;
  readonly #windowMs: number;

  constructor(db: Db, options: { maxFailures: number; windowMinutes: number }) {
    this.#db = db;
    this.#max = options.maxFailures;
    this.#windowMs = options.windowMinutes * 60_000;
  }

  static keys(ip: string, identifier: string): string[] {
    return [`ip:${ip}`, `login:${identifier.trim().toLowerCase()}`];
  }

  /** Seconds to wait when any key has used up its failures, else undefined. */
  async retryAfter(keys: string[]): Promise<number | undefined> {
    const since = new Date(Date.now() - this.#windowMs).toISOString();
    let wait: number | undefined;
    for (const key of keys) {
      const recent = await this.#db
        .selectFrom('loginFailures')
        .select('createdAt')
        .where('key', '=', key)
        .where('createdAt', '>', since)
        .orderBy('createdAt', 'desc')
        .limit(this.#max)
        .execute();
      const oldest = recent[this.#max - 1];
      if (oldest) {
        // When the max-th newest failure leaves the window, one more attempt is allowed.
        const ms = Date.parse(oldest.createdAt) + this.#windowMs - Date.now();
        wait = Math.max(wait ?? 0, Math.max(1, Math.ceil(ms / 1000)));
      }
    }
    return wait;
  }

  async recordFailure(keys: string[]): Promise<void> {
    const at = now();
    const since = new Date(Date.now() - this.#windowMs).toISOString();
    await this.#db.deleteFrom('loginFailures').where('createdAt', '<=', since).execute();
    await this.#db
      .insertInto('loginFailures')
      .values(keys.map((key) => ({ key, createdAt: at })))
      .execute();
  }

  async clear(key: string): Promise<void> {
    await this.#db.deleteFrom('loginFailures').where('key', '=', key).execute();
  }
}
