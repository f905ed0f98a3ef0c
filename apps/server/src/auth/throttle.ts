/**
 * Sign-in throttling, decided before any password is checked, in atomic steps: every attempt
 * first takes its place in two counters (its client address and the account identifier it names)
 * with one atomic increment each, so concurrent attempts can never all slip under the limit; a
 * successful or uncounted attempt gives its place back afterwards.
 *
 * - An address with `maxFailures` attempts in the window is refused (429, Retry-After) for any
 *   account: guessing from one place is slowed down.
 * - An account with `maxFailures` failures in the window is locked, but only for addresses that
 *   failed recently: the owner, signing in from an address with no recent failure, still gets
 *   their password checked, so a stranger who knows the owner's email cannot lock them out. Each
 *   such exempt attempt on a locked account spends one of `maxFailures × 10` a window, so a
 *   guesser with many addresses gets at most that many more guesses.
 * - A successful sign-in clears the account's count.
 * - A sign-in that presents a valid device token for the account it names (auth/device-token.ts:
 *   the browser signed in to that account before) is counted against that device's own budget
 *   (`deviceMaxFailures` a window) instead of the account's: while strangers keep the account
 *   locked for unknown devices, its owner's known browser still gets its password checked, and a
 *   stolen device token buys only that budget of guesses. Its success leaves the account's count
 *   alone (those failures were not this device's). The address limit applies to it as to any
 *   attempt: an owner sharing one address with a guesser waits for the window like everyone there.
 * - A sign-in's second step (a TOTP or recovery code) is throttled the same way as a password,
 *   with counts of its own per account (`beginCode`), so a guesser who has the password cannot try
 *   codes faster than passwords.
 *
 * The counts live in the database (shared by every instance, no other service needed), or in
 * Redis when REDIS_URL is set. Windows are fixed: a count starts at its first attempt and lasts
 * `windowMinutes`.
 */
import type { Redis } from 'ioredis';
import { MESSAGES } from '@master-admin/contract';
import type { Db } from '../db/connect.ts';
import { tooManyRequests } from '../http/errors.ts';

/** Counts that go up one atomic step at a time, each within its own window. */
export interface AttemptCounters {
  /** Adds one to `key` (starting its window when it has none) and answers the new count. */
  hit(key: string): Promise<{ count: number; retryAfterSeconds: number }>;
  /** Takes one back from `key`, if it is still counting. */
  undo(key: string): Promise<void>;
  clear(key: string): Promise<void>;
}

export class DatabaseCounters implements AttemptCounters {
  readonly #db: Db;
  readonly #windowMs: number;
  constructor(db: Db, windowMs: number) {
    this.#db = db;
    this.#windowMs = windowMs;
  }

  async hit(key: string) {
    const now = Date.now();
    const cutoff = new Date(now - this.#windowMs).toISOString();
    // One statement: the count is read and raised together, whoever else is signing in.
    const row = await this.#db
      .insertInto('loginThrottle')
      .values({ key, windowStart: new Date(now).toISOString(), count: 1 })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet((eb) => ({
          count: eb
            .case()
            .when('loginThrottle.windowStart', '<=', cutoff)
            .then(1)
            .else(eb('loginThrottle.count', '+', 1))
            .end(),
          windowStart: eb
            .case()
            .when('loginThrottle.windowStart', '<=', cutoff)
            .then(eb.ref('excluded.windowStart'))
            .else(eb.ref('loginThrottle.windowStart'))
            .end(),
        })),
      )
      .returning(['count', 'windowStart'])
      .executeTakeFirstOrThrow();
    // Counts whose window has ended are no use to anyone.
    await this.#db.deleteFrom('loginThrottle').where('windowStart', '<=', cutoff).execute();
    const endsMs = Date.parse(row.windowStart) + this.#windowMs;
    return {
      count: Number(row.count),
      retryAfterSeconds: Math.max(1, Math.ceil((endsMs - now) / 1000)),
    };
  }

  async undo(key: string) {
    await this.#db
      .updateTable('loginThrottle')
      .set((eb) => ({ count: eb('count', '-', 1) }))
      .where('key', '=', key)
      .where('count', '>', 0)
      .execute();
  }

  async clear(key: string) {
    await this.#db.deleteFrom('loginThrottle').where('key', '=', key).execute();
  }
}

const UNDO = "if redis.call('get', KEYS[1]) then return redis.call('decr', KEYS[1]) end return 0";

export class RedisCounters implements AttemptCounters {
  readonly #redis: Redis;
  readonly #windowMs: number;
  constructor(redis: Redis, windowMs: number) {
    this.#redis = redis;
    this.#windowMs = windowMs;
  }

  #key(key: string) {
    return `master-admin:login:${key}`;
  }

  async hit(key: string) {
    const k = this.#key(key);
    const results = await this.#redis
      .multi()
      .incr(k)
      .pexpire(k, this.#windowMs, 'NX')
      .pttl(k)
      .exec();
    const [[incrError, count] = [], , [ttlError, ttl] = []] = results ?? [];
    const error = incrError ?? ttlError;
    if (error) throw error instanceof Error ? error : new Error(String(error));
    return {
      count: Number(count),
      retryAfterSeconds: Math.max(1, Math.ceil(Number(ttl) / 1000)),
    };
  }

  async undo(key: string) {
    await this.#redis.eval(UNDO, 1, this.#key(key));
  }

  async clear(key: string) {
    await this.#redis.del(this.#key(key));
  }
}

/** What became of an attempt once its password was checked. */
export interface Attempt {
  /** The password was right: the address's place is given back, the account's count cleared. */
  succeeded(): Promise<void>;
  /** The password was right but the sign-in refused for another reason: nothing counts. */
  uncounted(): Promise<void>;
}

export type ThrottleLimits = {
  /** Attempts per address, and failures per account (or per account's codes), in a window. */
  maxFailures: number;
  /** Failures per known device (a valid device token) in a window. */
  deviceMaxFailures: number;
};

export class LoginThrottle {
  readonly #counters: AttemptCounters;
  readonly #max: number;
  readonly #deviceMax: number;

  constructor(counters: AttemptCounters, limits: ThrottleLimits) {
    this.#counters = counters;
    this.#max = limits.maxFailures;
    this.#deviceMax = limits.deviceMaxFailures;
  }

  static addressKey(ip: string) {
    return `ip:${ip}`;
  }

  static accountKey(identifier: string) {
    return `login:${identifier.trim().toLowerCase()}`;
  }

  /** The second step's counts: apart from the password's, and out of reach of a typed identifier. */
  static codeKey(accountId: number) {
    return `code:${accountId}`;
  }

  static deviceKey(nonce: string) {
    return `device:${nonce}`;
  }

  /**
   * Decides whether an attempt may have its password checked, counting it; answers 429 when not.
   * The attempt counts as a failure unless `succeeded` or `uncounted` is called after the check.
   * `device`: the nonce of a valid device token for the account `identifier` names; the device's
   * own budget then stands in for the account's count.
   */
  begin(ip: string, identifier: string, options: { device?: string } = {}): Promise<Attempt> {
    if (options.device !== undefined) return this.#beginOnDevice(ip, options.device);
    return this.#beginOnAccount(ip, LoginThrottle.accountKey(identifier));
  }

  /** As `begin`, for a second-step code (TOTP or recovery) of the account `accountId`. */
  beginCode(ip: string, accountId: number): Promise<Attempt> {
    return this.#beginOnAccount(ip, LoginThrottle.codeKey(accountId));
  }

  /** The address's count and the account's (`account`, a key), locked for addresses that failed. */
  async #beginOnAccount(ip: string, account: string): Promise<Attempt> {
    const address = LoginThrottle.addressKey(ip);
    const exempt = `exempt:${account}`;
    const counters = this.#counters;

    const byAddress = await counters.hit(address);
    if (byAddress.count > this.#max) {
      await counters.undo(address);
      throw tooManyRequests(MESSAGES.tooManyAttempts, byAddress.retryAfterSeconds);
    }
    const byAccount = await counters.hit(account);
    let spent: string[] = [address, account];
    if (byAccount.count > this.#max) {
      // Locked. An address whose only attempt in the window is this one may still try, within
      // the account's budget of such attempts.
      const clean = byAddress.count === 1;
      const budget = clean ? await counters.hit(exempt) : undefined;
      if (!budget || budget.count > this.#max * 10) {
        if (budget) spent = [...spent, exempt];
        for (const key of spent) await counters.undo(key);
        throw tooManyRequests(MESSAGES.tooManyAttempts, byAccount.retryAfterSeconds);
      }
      spent = [...spent, exempt];
    }
    return {
      succeeded: async () => {
        await counters.undo(address);
        await counters.clear(account);
        await counters.clear(exempt);
      },
      uncounted: async () => {
        for (const key of spent) await counters.undo(key);
      },
    };
  }

  /** The address's count and the device's own budget, instead of the account's count. */
  async #beginOnDevice(ip: string, nonce: string): Promise<Attempt> {
    const address = LoginThrottle.addressKey(ip);
    const device = LoginThrottle.deviceKey(nonce);
    const counters = this.#counters;

    const byAddress = await counters.hit(address);
    if (byAddress.count > this.#max) {
      await counters.undo(address);
      throw tooManyRequests(MESSAGES.tooManyAttempts, byAddress.retryAfterSeconds);
    }
    const byDevice = await counters.hit(device);
    if (byDevice.count > this.#deviceMax) {
      await counters.undo(address);
      await counters.undo(device);
      throw tooManyRequests(MESSAGES.tooManyAttempts, byDevice.retryAfterSeconds);
    }
    return {
      succeeded: async () => {
        await counters.undo(address);
        await counters.clear(device);
      },
      uncounted: async () => {
        await counters.undo(address);
        await counters.undo(device);
      },
    };
  }

  /**
   * Lifts an account's locks (the operator's reset-password): its password failures, and, given
   * its id, its second-step code failures.
   */
  async clearAccount(identifier: string, accountId?: number): Promise<void> {
    const keys = [LoginThrottle.accountKey(identifier)];
    if (accountId !== undefined) keys.push(LoginThrottle.codeKey(accountId));
    for (const key of keys) {
      await this.#counters.clear(key);
      await this.#counters.clear(`exempt:${key}`);
    }
  }
}
