/**
 * The audit log's one way in. Every change a signed-in account makes through the API records
 * here, with the transaction that makes the change, so a change that fails (rolled back) records
 * nothing and one that commits cannot lose its entry. Routes either call `audited` (snapshot the
 * row, write, snapshot again, record the difference) or, when they already run a transaction,
 * `record` with the before and after rows. The guard below makes a forgotten call loud.
 *
 * The same transaction marks the request's Idempotency-Key 'committed' (http/idempotency.ts): the
 * key says the change was made exactly when it was.
 */
import { deviceLabel } from '../../auth/device.ts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql, type Kysely } from 'kysely';
import type { AuditAction, AuditArea, AuditChange } from '@master-admin/contract';
import type { Db } from '../../db/connect.ts';
import type { Database } from '../../db/schema.ts';
import { now } from '../../db/dialect.ts';
import { inTransaction, lockRows } from '../../db/transaction.ts';
import { errorBody } from '../../http/errors.ts';
import { AREA_VERSION_TABLES, checkVersions } from '../../http/versions.ts';
import { announceChanges } from '../../events/announce.ts';
import { markCommitted } from '../../http/idempotency.ts';

export type AuditRow = Record<string, unknown>;

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * Whether this request went through `record` (the guard's evidence), even with no entry:
     * a call whose statement matched no row changed nothing.
     */
    audited: boolean;
  }
  interface FastifyContextConfig {
    /** `false`: a mutating method that changes nothing (a preview); the guard lets it be. */
    audit?: false;
  }
}

/** Fields never written to the log with their values: only their name, as `redacted`. */
const SECRET = /password|token|secret|session/i;
/**
 * Fields that say nothing of their own: the row's id, version and times (the entry has its own
 * time).
 */
const UNTRACKED = new Set(['id', 'version', 'createdAt', 'updatedAt']);

function same(a: unknown, b: unknown): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}

/**
 * The fields that differ between two states of a row (either may be absent: a create, a delete),
 * old → new; a secret field is named without its values.
 */
export function diff(before: AuditRow | null | undefined, after: AuditRow | null | undefined) {
  const changes: AuditChange[] = [];
  const fields = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  for (const field of fields) {
    if (UNTRACKED.has(field)) continue;
    const old = before ? (before[field] ?? null) : null;
    const next = after ? (after[field] ?? null) : null;
    if (same(old, next)) continue;
    changes.push(
      SECRET.test(field)
        ? { field: field.replace(/Hash$/, ''), old: null, new: null, redacted: true }
        : { field, old, new: next },
    );
  }
  return changes;
}

export type AuditEntryInput = {
  area: AuditArea;
  rowId: number | null;
  action: AuditAction;
  /** The row before and after the change; `changes` is their `diff`. */
  before?: AuditRow | null | undefined;
  after?: AuditRow | null | undefined;
  /** Changes that are not one row's columns (a staff member's grants), added to the diff. */
  changes?: AuditChange[];
  /** Who acted, when not the request's signed-in account (a sign-in). */
  accountId?: number;
};

const isList = (e: AuditEntryInput | readonly AuditEntryInput[]): e is readonly AuditEntryInput[] =>
  Array.isArray(e);

/** Writes `entries` with `trx`, the transaction of the change they describe. */
export function record(
  trx: Db,
  request: FastifyRequest,
  entries: AuditEntryInput | readonly AuditEntryInput[],
): Promise<void> {
  return write(trx, request, entries, true);
}

/** `ofChange`: the entries describe the request's change (not a refusal kept on its own). */
async function write(
  trx: Db,
  request: FastifyRequest,
  entries: AuditEntryInput | readonly AuditEntryInput[],
  ofChange: boolean,
): Promise<void> {
  const list: readonly AuditEntryInput[] = isList(entries) ? entries : [entries];
  request.audited = true;
  if (list.length === 0) return;
  checkVersions(
    request,
    list.flatMap((e) =>
      e.before && e.rowId !== null && e.area in AREA_VERSION_TABLES
        ? [{ area: e.area, rowId: e.rowId, version: e.before.version }]
        : [],
    ),
  );
  if (ofChange) await markCommitted(trx, request);
  await moveUnmovedVersions(trx, list);
  const at = now();
  const device = deviceLabel(request.headers['user-agent']);
  const inserted = await trx
    .insertInto('auditLog')
    .values(
      list.map((e) => ({
        accountId: e.accountId ?? request.account.id,
        ip: request.ip,
        device,
        area: e.area,
        rowId: e.rowId,
        action: e.action,
        changes: JSON.stringify([...diff(e.before, e.after), ...(e.changes ?? [])]),
        createdAt: at,
      })),
    )
    .returning('id')
    .execute();
  // Both engines number the rows in the order of the values: sorted, the ids pair with `list`.
  const ids = inserted.map((row) => row.id).sort((a, b) => a - b);
  await announceChanges(
    trx,
    request,
    list.map((e, i) => ({
      id: ids[i]!,
      area: e.area,
      action: e.action,
      rowId: e.rowId,
      version: ((e.after ?? e.before)?.version as number | undefined) ?? null,
    })),
  );
}

/**
 * `record` in a transaction of its own, for an event that must be kept although the request
 * fails: a refused sign-in answers 401 or 429, and nothing else it did is kept. Not the change an
 * Idempotency-Key stands for: a retry of a refused proof is tried (and counted) again.
 */
export function recordAlone(
  db: Db,
  request: FastifyRequest,
  entries: AuditEntryInput | readonly AuditEntryInput[],
): Promise<void> {
  return inTransaction(db, request.log, (trx) => write(trx, request, entries, false));
}

/**
 * Moves the version of each changed row that its change did not move itself: a change of rows
 * of another table only (a user's details, a staff member's grants). Every UPDATE of the row's
 * own table moves it already (db/versions.ts). Keeps `after` telling the new version.
 */
async function moveUnmovedVersions(trx: Db, list: readonly AuditEntryInput[]) {
  const byTable = new Map<VersionTable, AuditEntryInput[]>();
  for (const e of list) {
    const table = AREA_VERSION_TABLES[e.area as keyof typeof AREA_VERSION_TABLES];
    if (!table || !e.before || !e.after || e.rowId === null) continue;
    if (e.before.version !== e.after.version) continue;
    if (diff(e.before, e.after).length === 0 && !e.changes?.length) continue;
    byTable.set(table, [...(byTable.get(table) ?? []), e]);
  }
  for (const [table, moved] of byTable) {
    const ids = moved.map((e) => e.rowId as number);
    await (trx as unknown as Kysely<Record<VersionTable, { id: number; version: number }>>)
      .updateTable(table)
      .set('version', sql<number>`version + 1`)
      .where('id', 'in', ids)
      .execute();
    for (const e of moved) e.after = { ...e.after, version: Number(e.after!.version) + 1 };
  }
}
type VersionTable = (typeof AREA_VERSION_TABLES)[keyof typeof AREA_VERSION_TABLES];

/** The rows `ids` of `table` as they are now, by id (what `diff` compares). */
export async function snapshots(
  trx: Db,
  table: keyof Database,
  ids: readonly number[],
): Promise<Map<number, AuditRow>> {
  if (ids.length === 0) return new Map();
  // Any table, each with an id: the columns are whatever the table holds.
  const anyTable = trx as unknown as Kysely<Record<string, AuditRow & { id: number }>>;
  const rows = await anyTable.selectFrom(table).selectAll().where('id', 'in', ids).execute();
  return new Map(rows.map((row): [number, AuditRow] => [row.id as number, row]));
}

/** Reads the rows `ids` as the log compares them (a row and what belongs to it). */
export type RowsReader = (trx: Db, ids: readonly number[]) => Promise<Map<number, AuditRow>>;

export type AuditTarget = {
  area: AuditArea;
  /** The table whose rows `ids` are snapshotted before and after, or how to read them. */
  table: keyof Database | RowsReader;
  action: AuditAction;
  /**
   * Locks the rows `ids` stand for (`lockRows`) before they are first read: by default the
   * rows of `table`, when it is a table; a reader's target says which rows it reads.
   */
  lock?: (trx: Db, ids: readonly number[]) => Promise<unknown>;
};

/** Locks the rows of `target` named by `ids`, in the one order (db/transaction.ts). */
function lockTarget(trx: Db, target: AuditTarget, ids: readonly number[]): Promise<unknown> {
  if (target.lock) return target.lock(trx, ids);
  if (typeof target.table === 'function') return Promise.resolve();
  return lockRows(trx, target.table, ids, {
    mode: target.action === 'DELETE' ? 'update' : 'noKeyUpdate',
  });
}

const reader = (table: AuditTarget['table']): RowsReader =>
  typeof table === 'function' ? table : (trx, ids) => snapshots(trx, table, ids);

/**
 * Runs `write` in a transaction (`db`'s, when it is one), recording one entry per row of `ids` that existed before or
 * after it (a bulk call: one entry per row, so each row's history holds it). `ids` may be a
 * function of `write`'s answer: a create learns its id from the insert. The rows are locked
 * first, in id order: so concurrent calls on the same rows wait for each other instead of
 * deadlocking, and the first snapshot is the state `write` changes (a call that changed the
 * rows meanwhile has committed, and its entry comes first).
 */
export async function audited<T>(
  db: Db,
  request: FastifyRequest,
  target: AuditTarget & { ids: readonly number[] | ((result: NoInfer<T>) => readonly number[]) },
  write: (trx: Db) => Promise<T>,
): Promise<T> {
  return inTransaction(db, request.log, async (trx) => {
    const known = typeof target.ids === 'function' ? [] : target.ids;
    await lockTarget(trx, target, known);
    const read = reader(target.table);
    const before = await read(trx, known);
    // A stale change stops before it writes (`record` checks again for changes it records alone).
    checkVersions(
      request,
      [...before].map(([rowId, row]) => ({ area: target.area, rowId, version: row.version })),
    );
    const result = await write(trx);
    const ids = typeof target.ids === 'function' ? target.ids(result) : target.ids;
    const after = await read(trx, ids);
    await record(
      trx,
      request,
      ids
        .filter((id) => before.has(id) || after.has(id))
        .map((id) => ({
          area: target.area,
          rowId: id,
          action: target.action,
          before: before.get(id),
          after: after.get(id),
        })),
    );
    return result;
  });
}

/**
 * Changes one row's columns (and its `updatedAt`) with the change recorded as `action`: the one
 * way for a route's "set these fields of row `id`". Answers whether the row was there.
 */
export async function updateAudited(
  db: Db,
  request: FastifyRequest,
  target: { area: AuditArea; table: AuditedTable; action: AuditAction; id: number },
  set: Record<string, unknown>,
): Promise<boolean> {
  const { id, ...rest } = target;
  const { numUpdatedRows } = await audited(db, request, { ...rest, ids: [id] }, (trx) =>
    (trx as unknown as Kysely<Record<AuditedTable, { id: number; updatedAt: string }>>)
      .updateTable(target.table)
      .set({ ...set, updatedAt: now() })
      .where('id', '=', id)
      .executeTakeFirst(),
  );
  return numUpdatedRows > 0n;
}

/** Tables whose rows routes change field by field (each has `id` and `updatedAt`). */
type AuditedTable = 'banners' | 'blogs' | 'posters' | 'videos';

/**
 * For a statement that may touch any row of a table (every special day's year): records one
 * entry per row of `before` that it changed, comparing with the rows as they are now.
 */
export async function recordChangedRows(
  trx: Db,
  request: FastifyRequest,
  target: AuditTarget,
  before: Map<number, AuditRow>,
): Promise<void> {
  const after = await reader(target.table)(trx, [...before.keys()]);
  const changed = [...before.keys()].filter((id) => diff(before.get(id), after.get(id)).length);
  await record(
    trx,
    request,
    changed.map((id) => ({
      area: target.area,
      rowId: id,
      action: target.action,
      before: before.get(id),
      after: after.get(id),
    })),
  );
}

/** `audited` for a create: the entry's row is the one `write` answers. */
export function auditedCreate<T extends { id: number }>(
  db: Db,
  request: FastifyRequest,
  target: AuditTarget,
  write: (trx: Db) => Promise<T>,
): Promise<T> {
  return audited<T>(db, request, { ...target, ids: (result) => [result.id] }, write);
}

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * The guard: a signed-in call with a mutating method that succeeded without recording an entry
 * is a route that forgot. Logged as an error; outside production (tests, development) the call
 * answers 500, so the test suite that exercises every route finds it.
 */
export function registerAuditGuard(app: FastifyInstance, strict: boolean) {
  app.decorateRequest('audited', false);
  app.addHook('onSend', async (request, reply, payload) => {
    const config = request.routeOptions.config;
    const rule = config.access;
    if (!rule || rule.kind === 'public' || config.audit === false) return payload;
    if (!MUTATING.has(request.method) || reply.statusCode >= 300 || request.audited) {
      return payload;
    }
    const message = `${request.method} ${request.routeOptions.url} changed without an audit entry`;
    request.log.error(message);
    if (!strict) return payload;
    reply.code(500).header('content-type', 'application/json; charset=utf-8');
    return JSON.stringify({ ...errorBody(500, message), requestId: request.id });
  });
}
