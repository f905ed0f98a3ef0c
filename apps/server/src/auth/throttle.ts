/**
 * Sign-in throttling, decided before any password or code is checked, in atomic steps: every
 * attempt first takes its place in two counters (its client address, and the account or the
 * device it is counted on) with one atomic increment each, so concurrent attempts can never all
 * slip under the limit; a successful or uncounted attempt gives its place back afterwards.
 *
 * - An address with `maxFailures` attempts in the window is refused (429, Retry-After) for any
 *   account: guessing from one place is slowed down.
 * - An account's failures are counted on the account, whichever identifier was typed (its email
 *   or its phone number): both name one count. With `maxFailures` failures in the window it is
 *   locked, but for passwords only for addresses that failed recently: the owner, signing in from
 *   an address with no recent failure, still gets their password checked, so a stranger who knows
 *   the owner's email cannot lock them out. Each such exempt attempt on a locked account spends
 *   one of `maxFailures × 10` a window, so a guesser with many addresses gets at most that many
 *   more guesses.
 * - A successful sign-in clears the account's count.
 * - A device token (auth/device-token.ts: this browser signed in to the account before, since its
 *   last password change) is counted on that device's own budget (`deviceMaxFailures` a window)
 *   instead of the account's: while strangers keep the account locked, its owner's known browser
 *   still gets its password and its codes checked. Its success leaves the account's count alone
 *   (those failures were not this device's). A device whose budget is spent (a stolen device
 *   token guessing, or its owner's typos) is counted as an unknown device from then on, never
 *   refused outright: the owner's browser is no worse off than any other. The address limit
 *   applies to it as to any attempt.
 * - Codes (a sign-in's second step, a proof of presence by code) are counted apart from
 *   passwords, per account (`beginCode`), and without the exemption for clean addresses: someone
 *   who has the password gets `maxFailures` code guesses a window across all their addresses, and
 *   the owner's known devices keep their own budgets.
 * - A session that has just proved who it is may be asked for a code again (turning the
 *   authenticator app off): those tries count on the session's own budget (`beginOnSession`).
 *
 * The counts live in the database (shared by every instance, no other service needed), or in
 * Redis when REDIS_URL is set. Windows are fixed: a count starts at its first attempt and lasts
 * `windowMinutes`.
 */
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { MESSAGES } from '@master-admin/contract';
import type { Db } from '../db/connect.ts';
import { tooManyRequests } from '../http/errors.ts';
import { calling } from '../http/parts.ts';

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
    const results = await calling('redis', () =>
      this.#redis.multi().incr(k).pexpire(k, this.#windowMs, 'NX').pttl(k).exec(),
    );
    const [[incrError, count] = [], , [ttlError, ttl] = []] = results ?? [];
    const error = incrError ?? ttlError;
    if (error) throw error instanceof Error ? error : new Error(String(error));
    return {
      count: Number(count),
      retryAfterSeconds: Math.max(1, Math.ceil(Number(ttl) / 1000)),
    };
  }

  async undo(key: string) {
    await calling('redis', () => this.#redis.eval(UNDO, 1, this.#key(key)));
  }

  async clear(key: string) {
    await calling('redis', () => this.#redis.del(this.#key(key)));
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
  /** Failures per known device (a valid device token), or per proved session, in a window. */
  deviceMaxFailures: number;
};

/**
 * Whose failures an attempt counts on: an existing account (by id, whatever was typed), or, for
 * an identifier that names none, that identifier.
 */
export type Counted = { accountId: number } | { identifier: string };

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

  static accountKey(counted: Counted) {
    return 'accountId' in counted
      ? `account:${counted.accountId}`
      : `login:${counted.identifier.trim().toLowerCase()}`;
  }

  /** The codes' counts: apart from the password's, and out of reach of a typed identifier. */
  static codeKey(accountId: number) {
    return `code:${accountId}`;
  }

  static deviceKey(nonce: string) {
    return `device:${nonce}`;
  }

  static deviceCodeKey(nonce: string) {
    return `device-code:${nonce}`;
  }

  /**
   * Decides whether a password attempt may be checked, counting it; answers 429 when not. The
   * attempt counts as a failure unless `succeeded` or `uncounted` is called after the check.
   * `device`: the nonce of a valid device token for that account; the device's own budget then
   * stands in for the account's count (and the account's, once the device's is spent).
   */
  begin(ip: string, counted: Counted, options: { device?: string } = {}): Promise<Attempt> {
    const onAccount = () =>
      this.#beginOnAccount(ip, LoginThrottle.accountKey(counted), { exempt: true });
    if (options.device === undefined) return onAccount();
    return this.#beginOnOwn(ip, LoginThrottle.deviceKey(options.device), onAccount);
  }

  /** As `begin`, for a code (TOTP or recovery) of the account `accountId`. */
  beginCode(ip: string, accountId: number, options: { device?: string } = {}): Promise<Attempt> {
    const onAccount = () =>
      this.#beginOnAccount(ip, LoginThrottle.codeKey(accountId), { exempt: false });
    if (options.device === undefined) return onAccount();
    return this.#beginOnOwn(ip, LoginThrottle.deviceCodeKey(options.device), onAccount);
  }

  /**
   * A code asked of a session that has just proved who it is: the session's own budget (keyed by
   * a hash: the session id is its token's secret, and the counts may live in Redis).
   */
  beginOnSession(ip: string, sessionId: string): Promise<Attempt> {
    const key = createHash('sha256').update(sessionId).digest('base64url').slice(0, 22);
    return this.#beginOnOwn(ip, `session:${key}`);
  }

  /**
   * The address's count and the account's (`account`, a key), locked for everyone (`exempt`
   * false) or for addresses that failed recently (`exempt`).
   */
  async #beginOnAccount(
    ip: string,
    account: string,
    options: { exempt: boolean },
  ): Promise<Attempt> {
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
      // Locked. An address whose only attempt in the window is this one may still try a
      // password, within the account's budget of such attempts.
      const clean = options.exempt && byAddress.count === 1;
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

  /**
   * The address's count and an own budget (`own`: a device's, a session's) of `deviceMaxFailures`.
   * A spent budget goes on to `fallback` (the account's count) when there is one, else 429.
   */
  async #beginOnOwn(ip: string, own: string, fallback?: () => Promise<Attempt>): Promise<Attempt> {
    const address = LoginThrottle.addressKey(ip);
    const counters = this.#counters;

    const byAddress = await counters.hit(address);
    if (byAddress.count > this.#max) {
      await counters.undo(address);
      throw tooManyRequests(MESSAGES.tooManyAttempts, byAddress.retryAfterSeconds);
    }
    const byOwn = await counters.hit(own);
    if (byOwn.count > this.#deviceMax) {
      await counters.undo(address);
      await counters.undo(own);
      if (fallback) return fallback();
      throw tooManyRequests(MESSAGES.tooManyAttempts, byOwn.retryAfterSeconds);
    }
    return {
      succeeded: async () => {
        await counters.undo(address);
        await counters.clear(own);
      },
      uncounted: async () => {
        await counters.undo(address);
        await counters.undo(own);
      },
    };
  }

  /**
   * Lifts an account's locks (the operator's reset-password, a reset of its factors): its
   * password failures and its code failures.
   */
  async clearAccount(accountId: number): Promise<void> {
    for (const key of [LoginThrottle.accountKey({ accountId }), LoginThrottle.codeKey(accountId)]) {
      await this.#counters.clear(key);
      await this.#counters.clear(`exempt:${key}`);
    }
  }
}
