/**
 * How a committed change reaches every instance's event streams (API.md "Events"). A writer
 * `publish`es with the transaction of its change; every instance, the writer's own included,
 * hears the message through `subscribe` once that transaction has committed, in commit order.
 * So an instance delivers to its streams only what it heard: one path, one order.
 *
 * - PostgreSQL (`PgBus`): `pg_notify` inside the transaction (the database delivers it at commit,
 *   in commit order, and never for a rollback) and one LISTEN connection per instance.
 * - SQLite (`LocalBus`): one process, so the message goes to this process's subscribers after
 *   commit (`afterCommit`).
 */
import { sql } from 'kysely';
import pg from 'pg';
import type { FastifyBaseLogger } from 'fastify';
import type { AuditArea, EventAccount, EventAction, EventArea } from '@master-admin/contract';
import type { Db } from '../db/connect.ts';
import { afterCommit } from '../db/transaction.ts';

/** One audit entry as the streams need it: `area` is the audit area (`auth` included). */
export type ChangeNote = {
  /** The audit entry's id: the event id. */
  id: number;
  area: AuditArea;
  action: EventAction;
  rowId: number | null;
  version: number | null;
};

export type BusMessage =
  /** Entries one call recorded, all by `by`. */
  | { kind: 'changes'; by: EventAccount; changes: ChangeNote[] }
  /** The editors of row `rowId` of `area` changed: read them again. */
  | { kind: 'presence'; area: EventArea; rowId: number };

export interface BusListener {
  message(message: BusMessage): void;
  /** Messages may have been missed (the connection carrying them dropped, and is back). */
  gap(): void;
}

/** Where the bus reports a dropped connection: the app's logger once it has one. */
export type BusLog = Pick<FastifyBaseLogger, 'warn' | 'error'>;

const consoleLog: BusLog = {
  warn: (details: unknown, message?: string) => console.warn(message, details),
  error: (details: unknown, message?: string) => console.error(message, details),
};

export interface EventBus {
  log: BusLog;
  /** Sends `message` to every instance once `trx` commits (at once outside a transaction). */
  publish(trx: Db, message: BusMessage): Promise<void>;
  subscribe(listener: BusListener): () => void;
  close(): Promise<void>;
}

/** SQLite: one process, so its own subscribers are every subscriber. */
export class LocalBus implements EventBus {
  log = consoleLog;
  readonly #listeners = new Set<BusListener>();

  publish(trx: Db, message: BusMessage): Promise<void> {
    afterCommit(trx, () => {
      for (const listener of this.#listeners) listener.message(message);
    });
    return Promise.resolve();
  }

  subscribe(listener: BusListener) {
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  }

  async close() {
    this.#listeners.clear();
  }
}

const CHANNEL = 'master_admin_events';
/** PostgreSQL refuses a payload of 8,000 bytes or more; a bulk call's entries are split. */
const MAX_PAYLOAD_BYTES = 7_900;
const RECONNECT_MS = [250, 1000, 2000, 5000];

/**
 * The wire form, short (a 500-row bulk call takes a few notifications, not dozens):
 * `{"b":[id,name],"c":[[entryId,area,action,rowId,version],…]}` or `{"p":[area,rowId]}`.
 */
type Wire =
  | {
      b: [number, string];
      c: Array<[number, AuditArea, EventAction, number | null, number | null]>;
    }
  | { p: [EventArea, number] };

/** `message` as one or more payloads, each under PostgreSQL's limit. */
export function encode(message: BusMessage): string[] {
  if (message.kind === 'presence') return [JSON.stringify({ p: [message.area, message.rowId] })];
  const head = JSON.stringify({ b: [message.by.id, message.by.name], c: [] }).slice(0, -2);
  const payloads: string[] = [];
  let items: string[] = [];
  let bytes = Buffer.byteLength(head) + 2;
  for (const c of message.changes) {
    const item = JSON.stringify([c.id, c.area, c.action, c.rowId, c.version]);
    const size = Buffer.byteLength(item) + 1;
    if (items.length > 0 && bytes + size > MAX_PAYLOAD_BYTES) {
      payloads.push(`${head}${items.join(',')}]}`);
      items = [];
      bytes = Buffer.byteLength(head) + 2;
    }
    items.push(item);
    bytes += size;
  }
  if (items.length > 0) payloads.push(`${head}${items.join(',')}]}`);
  return payloads;
}

export function decode(payload: string): BusMessage {
  const wire = JSON.parse(payload) as Wire;
  if ('p' in wire) return { kind: 'presence', area: wire.p[0], rowId: wire.p[1] };
  return {
    kind: 'changes',
    by: { id: wire.b[0], name: wire.b[1] },
    changes: wire.c.map(([id, area, action, rowId, version]) => ({
      id,
      area,
      action,
      rowId,
      version,
    })),
  };
}

/**
 * PostgreSQL: NOTIFY in the writer's transaction, one dedicated LISTEN connection per instance
 * (opened when the first subscriber comes), reconnected when it drops; after a drop the
 * subscribers hear `gap` (what was sent meanwhile is lost to this instance: the streams end and
 * resume with Last-Event-ID, which reads the audit log).
 */
export class PgBus implements EventBus {
  log = consoleLog;
  readonly #url: string;
  readonly #listeners = new Set<BusListener>();
  #client: pg.Client | undefined;
  #connecting: Promise<void> | undefined;
  #retry: NodeJS.Timeout | undefined;
  #failures = 0;
  #closed = false;

  constructor(url: string) {
    this.#url = url;
  }

  async publish(trx: Db, message: BusMessage): Promise<void> {
    for (const payload of encode(message)) {
      await sql`select pg_notify(${CHANNEL}, ${payload})`.execute(trx);
    }
  }

  subscribe(listener: BusListener) {
    this.#listeners.add(listener);
    if (!this.#client && !this.#connecting && !this.#retry) this.#connecting = this.#connect(false);
    return () => void this.#listeners.delete(listener);
  }

  /** Resolves once listening (or once the first attempt failed: a retry is then scheduled). */
  listening(): Promise<void> {
    return this.#connecting ?? Promise.resolve();
  }

  async #connect(afterDrop: boolean): Promise<void> {
    const client = new pg.Client({ connectionString: this.#url });
    let dropped = false;
    const onDrop = (err?: Error) => {
      if (dropped) return;
      dropped = true;
      if (this.#client === client) this.#client = undefined;
      void client.end().catch(() => undefined);
      if (this.#closed) return;
      this.log.warn({ err }, 'event bus: the LISTEN connection dropped; reconnecting');
      this.#scheduleRetry();
    };
    client.on('error', onDrop);
    client.on('end', () => onDrop());
    client.on('notification', (n) => {
      if (n.channel !== CHANNEL || n.payload === undefined) return;
      let message: BusMessage;
      try {
        message = decode(n.payload);
      } catch (err) {
        this.log.error({ err }, 'event bus: a notification that is not ours');
        return;
      }
      for (const listener of this.#listeners) listener.message(message);
    });
    try {
      await client.connect();
      await client.query(`listen ${CHANNEL}`);
    } catch (err) {
      onDrop(err as Error);
      return;
    } finally {
      this.#connecting = undefined;
    }
    if (this.#closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.#client = client;
    this.#failures = 0;
    if (afterDrop) for (const listener of this.#listeners) listener.gap();
  }

  #scheduleRetry() {
    if (this.#retry || this.#closed) return;
    const delay = RECONNECT_MS[Math.min(this.#failures, RECONNECT_MS.length - 1)]!;
    this.#failures += 1;
    this.#retry = setTimeout(() => {
      this.#retry = undefined;
      this.#connecting = this.#connect(true);
    }, delay);
    this.#retry.unref();
  }

  async close() {
    this.#closed = true;
    clearTimeout(this.#retry);
    this.#listeners.clear();
    await this.#connecting;
    await this.#client?.end().catch(() => undefined);
    this.#client = undefined;
  }
}
