/**
 * Presence (API.md "Events"): "I am editing row N of area A", held for a while (30 s by default)
 * and renewed by the editor's next `PUT presence`. Kept in the `presence` table, so every instance
 * sees the same editors; each change of a row's editors is published on the event bus, and every
 * instance reads that row's editors again and tells its streams. One sweeper per instance removes
 * expired rows: the delete answers the rows it removed, so exactly one instance announces each.
 * Never a lock: nothing refuses a save because someone else is editing.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { EventAccount, EventArea } from '@master-admin/contract';
import type { Db } from '../db/connect.ts';
import { inTransaction } from '../db/transaction.ts';
import type { EventBus } from './bus.ts';

export type PresenceOptions = { ttlMs: number; sweepMs: number };

/** A row's editors now, and who they are. */
export type RowPresence = { area: EventArea; id: number; editors: EventAccount[] };

/** The name an account is shown by: its name, else its email, else its phone number. */
export function displayName(account: {
  id: number;
  name: string | null;
  email: string | null;
  phoneNumber?: string | null;
}): string {
  return account.name ?? account.email ?? account.phoneNumber ?? `#${account.id}`;
}

export class Presence {
  readonly #db: Db;
  readonly #bus: EventBus;
  readonly #log: FastifyBaseLogger;
  readonly #options: PresenceOptions;
  #timer: NodeJS.Timeout | undefined;
  #sweeping: Promise<void> | undefined;

  constructor(db: Db, bus: EventBus, log: FastifyBaseLogger, options: PresenceOptions) {
    this.#db = db;
    this.#bus = bus;
    this.#log = log;
    this.#options = options;
  }

  /** `account` is editing the row for the next TTL; answers the row's editors. */
  hold(accountId: number, area: EventArea, rowId: number): Promise<EventAccount[]> {
    return inTransaction(this.#db, this.#log, async (trx) => {
      const now = new Date();
      const expiresAt = new Date(now.getTime() + this.#options.ttlMs).toISOString();
      const held = await trx
        .selectFrom('presence')
        .select('expiresAt')
        .where('area', '=', area)
        .where('rowId', '=', rowId)
        .where('accountId', '=', accountId)
        .executeTakeFirst();
      await trx
        .insertInto('presence')
        .values({ area, rowId, accountId, expiresAt })
        .onConflict((oc) => oc.columns(['area', 'rowId', 'accountId']).doUpdateSet({ expiresAt }))
        .execute();
      // A renewal changes nobody's view of the row: only a new editor is announced.
      if (!held || held.expiresAt <= now.toISOString()) {
        await this.#bus.publish(trx, { kind: 'presence', area, rowId });
      }
      return editorsOf(trx, area, rowId);
    });
  }

  /** `account` no longer edits the row; answers the row's editors. */
  release(accountId: number, area: EventArea, rowId: number): Promise<EventAccount[]> {
    return inTransaction(this.#db, this.#log, async (trx) => {
      const removed = await trx
        .deleteFrom('presence')
        .where('area', '=', area)
        .where('rowId', '=', rowId)
        .where('accountId', '=', accountId)
        .executeTakeFirst();
      if (removed.numDeletedRows > 0n) {
        await this.#bus.publish(trx, { kind: 'presence', area, rowId });
      }
      return editorsOf(trx, area, rowId);
    });
  }

  /** The editors of one row now. */
  editors(area: EventArea, rowId: number): Promise<EventAccount[]> {
    return editorsOf(this.#db, area, rowId);
  }

  /** Every row that has editors now (what a new stream is told first). */
  async current(): Promise<RowPresence[]> {
    const rows = await this.#db
      .selectFrom('presence as p')
      .innerJoin('accounts as a', 'a.id', 'p.accountId')
      .select(['p.area', 'p.rowId', 'a.id', 'a.name', 'a.email', 'a.phoneNumber'])
      .where('p.expiresAt', '>', new Date().toISOString())
      .orderBy('p.area')
      .orderBy('p.rowId')
      .orderBy('a.id')
      .execute();
    const byRow = new Map<string, RowPresence>();
    for (const row of rows) {
      const key = `${row.area}/${row.rowId}`;
      let entry = byRow.get(key);
      if (!entry) {
        entry = { area: row.area as EventArea, id: row.rowId, editors: [] };
        byRow.set(key, entry);
      }
      entry.editors.push({ id: row.id, name: displayName(row) });
    }
    return [...byRow.values()];
  }

  /** Starts the one sweeper: expired rows are removed and announced within `sweepMs`. */
  startSweeping() {
    this.#timer = setInterval(() => {
      // One sweep at a time: a slow database must not pile them up.
      this.#sweeping ??= this.sweep()
        .catch((err: unknown) => this.#log.warn({ err }, 'presence sweep failed'))
        .finally(() => (this.#sweeping = undefined));
    }, this.#options.sweepMs);
    this.#timer.unref();
  }

  /** Removes the expired rows and announces each row whose editors that changed. */
  async sweep(): Promise<void> {
    const now = new Date().toISOString();
    // Mostly nothing has expired: one index probe, no transaction.
    const due = await this.#db
      .selectFrom('presence')
      .select('rowId')
      .where('expiresAt', '<=', now)
      .limit(1)
      .executeTakeFirst();
    if (!due) return;
    await inTransaction(this.#db, this.#log, async (trx) => {
      const removed = await trx
        .deleteFrom('presence')
        .where('expiresAt', '<=', now)
        .returning(['area', 'rowId'])
        .execute();
      const rows = new Map(removed.map((r) => [`${r.area}/${r.rowId}`, r]));
      for (const { area, rowId } of rows.values()) {
        await this.#bus.publish(trx, { kind: 'presence', area: area as EventArea, rowId });
      }
    });
  }

  async stop() {
    clearInterval(this.#timer);
    await this.#sweeping;
  }
}

function editorsOf(db: Db, area: EventArea, rowId: number): Promise<EventAccount[]> {
  return db
    .selectFrom('presence as p')
    .innerJoin('accounts as a', 'a.id', 'p.accountId')
    .select(['a.id', 'a.name', 'a.email', 'a.phoneNumber'])
    .where('p.area', '=', area)
    .where('p.rowId', '=', rowId)
    .where('p.expiresAt', '>', new Date().toISOString())
    .orderBy('a.id')
    .execute()
    .then((rows) => rows.map((row) => ({ id: row.id, name: displayName(row) })));
}
