/**
 * The open event streams of this instance (`GET events`, API.md "Events"): what each account may
 * see, delivery of what the bus hears, the replay after `Last-Event-ID`, and the few shared
 * timers. Per stream there is only its socket and a small record: no timer, no buffer beyond the
 * socket's own (a stream whose socket stops taking data is dropped, and resumes on reconnecting).
 *
 * Every open stream also has a row in `event_streams`, shared by all instances, so an account
 * holds at most MAX_STREAMS_PER_ACCOUNT of them wherever they are open: opening one more deletes
 * the rows of its oldest, which end at once when they are on this instance and within `checkMs`
 * when they are on another (the periodic check ends local streams whose row is gone).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import {
  eventAreaOf,
  type AuditArea,
  type ChangeEventData,
  type EventAccount,
  type EventAction,
  type EventArea,
} from '@master-admin/contract';
import type { Kysely } from 'kysely';
import type { Db } from '../db/connect.ts';
import { AREA_VERSION_TABLES } from '../http/versions.ts';
import type { BusListener, BusMessage, ChangeNote, EventBus } from './bus.ts';
import { displayName, type Presence, type RowPresence } from './presence.ts';

export type StreamOptions = {
  /** A comment line goes to each stream that wrote nothing for this long (under 25 s). */
  heartbeatMs: number;
  /** Every stream's session and grants are read again this often. */
  checkMs: number;
};

/** Resumable for at least 60 s (API.md); kept longer, it costs only a bigger read. */
export const REPLAY_WINDOW_MS = 120_000;
/**
 * PostgreSQL takes ids from a sequence before commit, so an entry with a lower id can commit
 * just after one with a higher id: a replay also sends the entries of this long before the last
 * one seen (the client drops ids it has already had).
 */
export const REPLAY_SLACK_MS = 5_000;
/** More to replay than this and the client is told to refetch instead (`event: reset`). */
const REPLAY_MAX_ENTRIES = 5_000;
/** A stream whose socket holds this much unsent is dropped (a stalled or slow client). */
const MAX_BUFFERED_BYTES = 256 * 1024;
/** Session ids per statement when checking every stream's access. */
const CHECK_CHUNK = 500;
/**
 * Open streams one account may hold (API.md): a tab holds one, and each costs its socket and a
 * share of every delivery, so one token cannot open thousands.
 */
export const MAX_STREAMS_PER_ACCOUNT = 20;

/** Audit areas whose changes can take a stream's access away (sign-outs, grants, staff, menus). */
const ACCESS_AREAS: ReadonlySet<AuditArea> = new Set(['auth', 'staff', 'menus']);

/** What a stream's account may see, read from the database. */
export type StreamAccess = {
  accountId: number;
  superAdmin: boolean;
  /** The menus the account holds VIEW on (a STAFF account). */
  menus: ReadonlySet<string>;
};

/** Whether `access` may see the events of `area`: VIEW on its menu; `staff`, SUPER_ADMIN only. */
export function mayView(access: StreamAccess, area: EventArea): boolean {
  return access.superAdmin || (area !== 'staff' && access.menus.has(area));
}

/**
 * The live sessions among `sessionIds` (not revoked or expired, not limited to enrolling a second
 * factor, the account ACTIVE and allowed into the back-office) and what each may see; the others
 * are absent.
 */
export async function accessOf(
  db: Db,
  sessionIds: readonly string[],
): Promise<Map<string, StreamAccess>> {
  const found = new Map<string, StreamAccess>();
  const at = new Date().toISOString();
  for (let i = 0; i < sessionIds.length; i += CHECK_CHUNK) {
    const chunk = sessionIds.slice(i, i + CHECK_CHUNK);
    const sessions = await db
      .selectFrom('sessions as s')
      .innerJoin('accounts as a', 'a.id', 's.accountId')
      .select(['s.id as sessionId', 'a.id', 'a.role'])
      .where('s.id', 'in', chunk)
      .where('s.revokedAt', 'is', null)
      .where('s.expiresAt', '>', at)
      .where('s.enrolmentOnly', '=', false)
      .where('a.status', '=', 'ACTIVE')
      .where('a.role', '<>', 'USER')
      .execute();
    const staff = [...new Set(sessions.filter((s) => s.role === 'STAFF').map((s) => s.id))];
    const grants =
      staff.length === 0
        ? []
        : await db
            .selectFrom('userPermissions as up')
            .innerJoin('menus as m', 'm.id', 'up.menuId')
            .innerJoin('permissions as p', 'p.id', 'up.permissionId')
            .select(['up.accountId', 'm.name'])
            .where('up.accountId', 'in', staff)
            .where('p.name', '=', 'VIEW')
            .where('up.status', '=', true)
            .execute();
    const menus = new Map<number, Set<string>>();
    for (const g of grants) {
      let set = menus.get(g.accountId);
      if (!set) menus.set(g.accountId, (set = new Set()));
      set.add(g.name);
    }
    for (const s of sessions) {
      found.set(s.sessionId, {
        accountId: s.id,
        superAdmin: s.role === 'SUPER_ADMIN',
        menus: menus.get(s.id) ?? new Set(),
      });
    }
  }
  return found;
}

const changeText = (id: number, data: ChangeEventData) =>
  `id: ${id}\nevent: change\ndata: ${JSON.stringify(data)}\n\n`;
const presenceText = (row: RowPresence) => `event: presence\ndata: ${JSON.stringify(row)}\n\n`;
const RESET_TEXT = 'event: reset\ndata: {}\n\n';
/** "Read your grants again": they may have changed (issue #35; the web app's menu and screen follow). */
const accessText = (id: number) => `id: ${id}\nevent: access\ndata: {}\n\n`;

/**
 * Whether an audit entry may have changed what `access`'s account may do: a change of its own
 * staff row (grants, status, factors) or of any menu (a menu added or deleted adds or takes away
 * grants). A SUPER_ADMIN may do everything whatever changes.
 */
function touchesAccess(access: StreamAccess, entry: { area: string; rowId: number | null }) {
  if (access.superAdmin) return false;
  return entry.area === 'menus' || (entry.area === 'staff' && entry.rowId === access.accountId);
}
const PING_TEXT = ': ping\n\n';

/** One open stream: its socket, its session and what it may see (exported for its test). */
export class EventStream {
  readonly res: ServerResponse;
  readonly sessionId: string;
  access: StreamAccess;
  /** Its row in `event_streams`, once written. */
  row: number | undefined;
  lastWrite = Date.now();
  /** While the stream is being opened (replay, presence), what arrives waits here. */
  #held: string[] | undefined = [];

  constructor(res: ServerResponse, sessionId: string, access: StreamAccess) {
    this.res = res;
    this.sessionId = sessionId;
    this.access = access;
  }

  get open() {
    return !this.res.destroyed && !this.res.writableEnded;
  }

  send(text: string) {
    if (this.#held) this.#held.push(text);
    else this.write(text);
  }

  /** Writes now; a socket that has not taken what it was given before drops the stream. */
  write(text: string) {
    if (!this.open) return;
    if (this.res.writableLength > MAX_BUFFERED_BYTES) {
      // The client resumes with Last-Event-ID; holding more for it would be unbounded.
      this.res.destroy();
      return;
    }
    this.res.write(text);
    this.lastWrite = Date.now();
  }

  /** Opened: what waited is written, and from now on everything at once. */
  release() {
    const held = this.#held ?? [];
    this.#held = undefined;
    for (const text of held) this.write(text);
  }

  end() {
    if (this.open) this.res.end();
  }

  /** Ends the stream and its connection (a connection left open would hold the server's close). */
  endConnection() {
    const socket = this.res.socket;
    if (this.open) this.res.end(() => socket?.end());
    else socket?.end();
  }
}

type Deps = {
  db: Db;
  bus: EventBus;
  presence: Presence;
  log: FastifyBaseLogger;
  options: StreamOptions;
  /** Told the number of open streams whenever it changes (a metrics gauge). */
  onCount?: (open: number) => void;
};

export class EventStreams {
  readonly #deps: Deps;
  readonly #streams = new Set<EventStream>();
  #unsubscribe: (() => void) | undefined;
  #timers: NodeJS.Timeout[] = [];
  /** Messages are handled one at a time, in the order heard. */
  #queue: Promise<void> = Promise.resolve();
  /** The access check under way (a periodic one, or one a change of access asked for). */
  #checking: Promise<void> = Promise.resolve();
  #checkRunning = false;
  #closing = false;

  constructor(deps: Deps) {
    this.#deps = deps;
  }

  get size() {
    return this.#streams.size;
  }

  /** From `close` on, no stream is opened (the server is stopping). */
  get closing() {
    return this.#closing;
  }

  start() {
    const listener: BusListener = {
      message: (message) => {
        this.#queue = this.#queue
          .then(() => this.#handle(message))
          .catch((err: unknown) => this.#deps.log.error({ err }, 'event delivery failed'));
      },
      // Messages were lost to this instance: every stream ends and resumes from the audit log.
      gap: () => {
        for (const stream of this.#streams) stream.end();
      },
    };
    this.#unsubscribe = this.#deps.bus.subscribe(listener);
    const { checkMs } = this.#deps.options;
    const heartbeat = setInterval(() => this.#heartbeat(), this.#heartbeatTick);
    const check = setInterval(() => {
      if (!this.#checkRunning) void this.#checkAccess();
    }, checkMs);
    heartbeat.unref();
    check.unref();
    this.#timers = [heartbeat, check];
  }

  /**
   * Opens a stream on `res` (the route has written nothing yet): replays after `lastEventId`,
   * or marks where a reconnect would resume, then tells the presence of the rows it may see.
   */
  async open(
    req: IncomingMessage,
    res: ServerResponse,
    session: { sessionId: string; access: StreamAccess },
    lastEventId: number | undefined,
  ) {
    const stream = new EventStream(res, session.sessionId, session.access);
    if (this.#closing) {
      // Closed while the route read the session: not kept, or it would hold the close up.
      stream.endConnection();
      return;
    }
    this.#streams.add(stream);
    this.#deps.onCount?.(this.#streams.size);
    const forget = () => {
      if (!this.#streams.delete(stream)) return;
      this.#deps.onCount?.(this.#streams.size);
      // While closing, `close` removes the rows of all at once.
      if (stream.row !== undefined && !this.#closing) void this.#removeRows([stream.row]);
    };
    res.on('close', forget);
    req.on('close', forget);
    // Heartbeats keep the socket busy; its idle timeout (REQUEST_TIMEOUT_MS) may be shorter.
    req.socket.setTimeout(0);
    req.socket.setNoDelay(true);
    try {
      // Tells EventSource to come back soon after a drop (the web app's client has its own).
      stream.write('retry: 2000\n\n');
      await this.#register(stream);
      const { db, presence } = this.#deps;
      stream.write(await replay(db, stream.access, lastEventId));
      for (const row of await presence.current()) {
        if (mayView(stream.access, row.area)) stream.write(presenceText(row));
      }
      stream.release();
    } catch (err) {
      this.#deps.log.error({ err }, 'an event stream failed to open');
      res.destroy();
    }
  }

  /**
   * Writes the stream's row, then deletes the rows of the account's streams beyond the newest
   * MAX_STREAMS_PER_ACCOUNT (on any instance), ending those that are here. The newest row past
   * the cap is looked for first, so the usual open (under the cap) writes its row and no more.
   */
  async #register(stream: EventStream) {
    const { db } = this.#deps;
    const { accountId } = stream.access;
    const { id } = await db
      .insertInto('eventStreams')
      .values({ accountId, openedAt: new Date().toISOString() })
      .returning('id')
      .executeTakeFirstOrThrow();
    stream.row = id;
    // Closed while its row was being written: `forget` had no row to remove yet.
    if (!this.#streams.has(stream)) {
      await this.#removeRows([id]);
      return;
    }
    const newestOver = await db
      .selectFrom('eventStreams')
      .select('id')
      .where('accountId', '=', accountId)
      .orderBy('id', 'desc')
      .limit(1)
      .offset(MAX_STREAMS_PER_ACCOUNT)
      .executeTakeFirst();
    if (!newestOver) return;
    const removed = await db
      .deleteFrom('eventStreams')
      .where('accountId', '=', accountId)
      .where('id', '<=', newestOver.id)
      .returning('id')
      .execute();
    const gone = new Set(removed.map((r) => r.id));
    for (const other of this.#streams) {
      // With its connection: what the cap saves is the socket.
      if (other.row !== undefined && gone.has(other.row)) other.endConnection();
    }
  }

  /** Deletes the rows of streams that ended; a failure leaves rows that are pushed out later. */
  async #removeRows(rows: readonly number[]) {
    try {
      for (let i = 0; i < rows.length; i += CHECK_CHUNK) {
        await this.#deps.db
          .deleteFrom('eventStreams')
          .where('id', 'in', rows.slice(i, i + CHECK_CHUNK))
          .execute();
      }
    } catch (err) {
      this.#deps.log.warn({ err }, 'event streams: a stream’s row was not removed');
    }
  }

  /**
   * Ends every stream and stops listening: the server is stopping. Their rows are removed after
   * the connections ended, so no client waits on the database to be let go.
   */
  async close() {
    this.#closing = true;
    for (const timer of this.#timers) clearInterval(timer);
    this.#unsubscribe?.();
    const rows: number[] = [];
    for (const stream of this.#streams) {
      if (stream.row !== undefined) rows.push(stream.row);
      stream.endConnection();
    }
    await this.#removeRows(rows);
  }

  async #handle(message: BusMessage) {
    if (message.kind === 'presence') {
      const editors = await this.#deps.presence.editors(message.area, message.rowId);
      const row: RowPresence = { area: message.area, id: message.rowId, editors };
      const text = presenceText(row);
      for (const stream of this.#streams) {
        if (mayView(stream.access, row.area)) stream.send(text);
      }
      return;
    }
    // A change that may take access away is applied before anything after it is delivered.
    if (message.changes.some((c) => ACCESS_AREAS.has(c.area))) await this.#checkAccess();
    for (const change of message.changes) {
      for (const stream of this.#streams) {
        if (touchesAccess(stream.access, change)) stream.send(accessText(change.id));
      }
      const event = toEvent(change, message.by);
      if (!event) continue;
      const text = changeText(change.id, event);
      for (const stream of this.#streams) {
        if (mayView(stream.access, event.area)) stream.send(text);
      }
    }
  }

  /** How often the heartbeat timer looks for silent streams. */
  get #heartbeatTick() {
    return Math.min(this.#deps.options.heartbeatMs, 5_000);
  }

  /**
   * A comment line to each stream that would otherwise stay silent past the heartbeat before the
   * next tick.
   */
  #heartbeat() {
    const due = Date.now() - (this.#deps.options.heartbeatMs - this.#heartbeatTick);
    for (const stream of this.#streams) {
      if (stream.lastWrite <= due) stream.write(PING_TEXT);
    }
  }

  /**
   * Reads every stream's session and grants again: a stream whose session has ended (signed
   * out, revoked, expired, the account no longer active) ends; grants apply from now on. A
   * stream whose row is gone (pushed out by a newer stream of its account, maybe on another
   * instance) ends too. Runs after the check under way, if any, so it reads what committed
   * before it was asked for.
   */
  #checkAccess(): Promise<void> {
    const run = async () => {
      this.#checkRunning = true;
      try {
        const streams = [...this.#streams];
        if (streams.length === 0) return;
        // As they are now: a row written while the check reads is not looked for.
        const rows = streams.map((s) => s.row);
        const live = await accessOf(this.#deps.db, [...new Set(streams.map((s) => s.sessionId))]);
        const kept = await this.#rowsKept(rows);
        streams.forEach((stream, i) => {
          const access = live.get(stream.sessionId);
          const row = rows[i];
          if (row !== undefined && !kept.has(row)) stream.endConnection();
          else if (access) stream.access = access;
          else stream.end();
        });
      } finally {
        this.#checkRunning = false;
      }
    };
    this.#checking = this.#checking.then(run, run);
    return this.#checking.catch((err: unknown) =>
      this.#deps.log.warn({ err }, 'event streams: the access check failed'),
    );
  }

  /** Which of `rows` are still there. */
  async #rowsKept(all: ReadonlyArray<number | undefined>): Promise<Set<number>> {
    const rows = all.filter((row) => row !== undefined);
    const kept = new Set<number>();
    for (let i = 0; i < rows.length; i += CHECK_CHUNK) {
      const found = await this.#deps.db
        .selectFrom('eventStreams')
        .select('id')
        .where('id', 'in', rows.slice(i, i + CHECK_CHUNK))
        .execute();
      for (const { id } of found) kept.add(id);
    }
    return kept;
  }
}

const ACTIONS: Record<string, EventAction> = {
  CREATE: 'created',
  DELETE: 'deleted',
  // The trash: a restored row is back in its lists; a purged one leaves the trash's.
  RESTORE: 'created',
  PURGE: 'deleted',
};

/** What the audit `action` says of its row: created, deleted, or changed. */
export function eventAction(action: string): EventAction {
  return ACTIONS[action] ?? 'changed';
}

/** The event a change is announced as; none for sign-ins and entries without a row. */
function toEvent(change: ChangeNote, by: EventAccount): ChangeEventData | undefined {
  const area = eventAreaOf(change.area);
  if (!area || change.rowId === null) return undefined;
  return { area, action: change.action, id: change.rowId, version: change.version, by };
}

/**
 * What a stream starts with. Without `lastEventId`: nothing from the past, only `id: <newest
 * entry>` (no event), the point a reconnect resumes from. With it: every entry since (and those
 * of REPLAY_SLACK_MS before it: see there) that `access` may see, in id order; `event: reset`
 * when that entry is older than REPLAY_WINDOW_MS, unknown, or too much has happened since.
 */
async function replay(db: Db, access: StreamAccess, lastEventId: number | undefined) {
  if (lastEventId === undefined) {
    const newest = await db
      .selectFrom('auditLog')
      .select((eb) => eb.fn.max('id').as('id'))
      .executeTakeFirst();
    return `id: ${newest?.id ?? 0}\n\n`;
  }
  const windowStart = new Date(Date.now() - REPLAY_WINDOW_MS).toISOString();
  let from: string;
  if (lastEventId === 0) {
    // Resumed from an empty log: everything since, if the log's start is within the window.
    const first = await db
      .selectFrom('auditLog')
      .select('createdAt')
      .orderBy('id')
      .limit(1)
      .executeTakeFirst();
    if (first && first.createdAt < windowStart) return RESET_TEXT;
    from = windowStart;
  } else {
    const last = await db
      .selectFrom('auditLog')
      .select('createdAt')
      .where('id', '=', lastEventId)
      .executeTakeFirst();
    if (!last || last.createdAt < windowStart) return RESET_TEXT;
    from = new Date(Date.parse(last.createdAt) - REPLAY_SLACK_MS).toISOString();
  }
  const rows = await db
    .selectFrom('auditLog as l')
    .leftJoin('accounts as a', 'a.id', 'l.accountId')
    .select([
      'l.id',
      'l.area',
      'l.rowId',
      'l.action',
      'l.changes',
      'l.accountId',
      'a.name',
      'a.email',
      'a.phoneNumber',
    ])
    .where('l.createdAt', '>=', from)
    .where('l.id', '<>', lastEventId)
    .orderBy('l.id')
    .limit(REPLAY_MAX_ENTRIES + 1)
    .execute();
  if (rows.length > REPLAY_MAX_ENTRIES) return RESET_TEXT;
  const versions = await versionsNow(db, rows);
  let text = '';
  for (const row of rows) {
    const by = { id: row.accountId, name: displayName({ ...row, id: row.accountId }) };
    const area = row.area as AuditArea;
    const table = AREA_VERSION_TABLES[area as keyof typeof AREA_VERSION_TABLES];
    const change: ChangeNote = {
      id: row.id,
      area,
      action: eventAction(row.action),
      rowId: row.rowId,
      version: (table && versions.get(`${table}/${row.rowId}`)) ?? null,
    };
    if (touchesAccess(access, row)) text += accessText(row.id);
    const event = toEvent(change, by);
    if (event && mayView(access, event.area)) text += changeText(row.id, event);
  }
  return text;
}

/**
 * The versions the replayed rows have now, by "table/id" (the log does not keep versions): a
 * replayed event tells the row as it is now, which is what the client will fetch; a row that is
 * gone has none (null).
 */
async function versionsNow(db: Db, rows: ReadonlyArray<{ area: string; rowId: number | null }>) {
  const ids = new Map<VersionTable, Set<number>>();
  for (const { area, rowId } of rows) {
    const table = AREA_VERSION_TABLES[area as keyof typeof AREA_VERSION_TABLES];
    if (!table || rowId === null) continue;
    let set = ids.get(table);
    if (!set) ids.set(table, (set = new Set()));
    set.add(rowId);
  }
  const found = new Map<string, number>();
  // Any versioned table: each has an id and a version.
  const tables = db as unknown as Kysely<Record<VersionTable, { id: number; version: number }>>;
  for (const [table, set] of ids) {
    const all = [...set];
    for (let i = 0; i < all.length; i += CHECK_CHUNK) {
      const current = await tables
        .selectFrom(table)
        .select(['id', 'version'])
        .where('id', 'in', all.slice(i, i + CHECK_CHUNK))
        .execute();
      for (const row of current) found.set(`${table}/${row.id}`, Number(row.version));
    }
  }
  return found;
}

type VersionTable = (typeof AREA_VERSION_TABLES)[keyof typeof AREA_VERSION_TABLES];

declare module 'fastify' {
  interface FastifyInstance {
    eventStreams: EventStreams;
    presence: Presence;
  }
}
