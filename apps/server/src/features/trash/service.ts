/**
 * The one trash mechanism (API.md "Planning festivals"), used by every area's delete routes and
 * by the trash's own calls: a delete moves the rows (with the rows that go with them by cascade
 * and their media keys) into `trash` and deletes the originals in the same transaction, so every
 * list, kept count, the dashboard and the apps API leave them out with no change of their own;
 * a restore inserts them again with their ids (and a new version); a purge, at once or by the
 * sweep after TRASH_DAYS, deletes the trash rows and then lets their files go.
 */
import { PostgresAdapter, sql, type Kysely } from 'kysely';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import {
  TRASH_AREAS,
  type AuditArea,
  type TrashArea,
  type TrashItem,
} from '@master-admin/contract';
import type { Db } from '../../db/connect.ts';
import type { Database } from '../../db/schema.ts';
import { isForeignKeyViolation, now } from '../../db/dialect.ts';
import { inTransaction } from '../../db/transaction.ts';
import { HttpError, conflict } from '../../http/errors.ts';
import { mediaPrefixes } from '../../http/rich-text.ts';
import type { MediaService } from '../../media/service.ts';
import { KEY, type MediaStore } from '../../media/store.ts';
import { audited, record, type AuditEntryInput } from '../audit/record.ts';
import { RESTORE_ORDER, TRASH_SPECS, type KeptRow, type Names } from './areas.ts';

/** Any table, by its Kysely name: the trash moves rows of several. */
type AnyDb = Kysely<Record<string, Record<string, unknown>>>;
const anyDb = (trx: Db) => trx as unknown as AnyDb;

/** Rows per statement: far below both engines' limits on bound values at ~25 columns a row. */
const CHUNK = 400;
function chunks<T>(items: readonly T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

async function namesOf(trx: Db, rows: readonly KeptRow[]): Promise<Names> {
  const ids = (column: string) => [
    ...new Set(rows.map((r) => r[column]).filter((v): v is number => typeof v === 'number')),
  ];
  const read = async (table: 'masterApps' | 'categories' | 'specialDays', column: string) => {
    const wanted = ids(column);
    if (wanted.length === 0) return new Map<number, string>();
    const found = await trx
      .selectFrom(table)
      .select(['id', 'name'])
      .where('id', 'in', wanted)
      .execute();
    return new Map(found.map((r) => [r.id, r.name]));
  };
  return {
    masterApps: await read('masterApps', 'masterAppId'),
    categories: await read('categories', 'categoryId'),
    specialDays: await read('specialDays', 'specialDayId'),
  };
}

/** The media keys a row holds: its media columns, and this store's images in its rich text. */
function keysOf(area: TrashArea, row: KeptRow, prefixes: readonly string[]): string[] {
  const spec = TRASH_SPECS[area];
  const keys = new Set<string>();
  for (const column of spec.media) {
    const value = row[column];
    if (typeof value === 'string') keys.add(value);
  }
  for (const column of spec.richText) {
    const body = row[column];
    if (typeof body !== 'string') continue;
    for (const prefix of prefixes) {
      for (const after of body.split(prefix).slice(1)) {
        const key = /^[a-z0-9./-]+/.exec(after)?.[0];
        if (key !== undefined && KEY.test(key)) keys.add(key);
      }
    }
  }
  return [...keys];
}

/** Who deletes, when not a request's signed-in account (the demo data), and the media store. */
export type TrashActor = { accountId: number; store: Pick<MediaStore, 'url'> };

/**
 * The delete of a row posters point at (a category, a special day): audited, to the trash, or 409
 * `inUse` while any poster points at it through `column`. Undefined when the row is not there.
 */
export async function trashUnlessPostersUse(
  db: Db,
  request: FastifyRequest,
  area: 'categories' | 'specialDays',
  id: number,
  column: 'categoryId' | 'specialDayId',
  inUse: string,
): Promise<KeptRow | undefined> {
  const target = { area, table: area, action: 'DELETE', ids: [id] } as const;
  try {
    return await audited(db, request, target, async (trx) => {
      const used = await trx
        .selectFrom('posters')
        .select('id')
        .where(column, '=', id)
        .limit(1)
        .executeTakeFirst();
      if (used) throw conflict(inUse);
      return (await moveToTrash(trx, request, area, [id]))[0];
    });
  } catch (err) {
    // A poster added between the check and the delete: the foreign key has the last word.
    if (isForeignKeyViolation(err)) throw conflict(inUse);
    throw err;
  }
}

/**
 * Moves the rows `ids` of `area` to the trash and deletes them, in `trx`: answers the rows that
 * were there (a bulk call compares them with `ids`: requireAll). Their files stay (trash_media
 * names them) until the rows are purged.
 */
export async function moveToTrash(
  trx: Db,
  by: FastifyRequest | TrashActor,
  area: TrashArea,
  ids: readonly number[],
): Promise<KeptRow[]> {
  const actor =
    'accountId' in by ? by : { accountId: by.account.id, store: by.server.ctx.media.store };
  if (ids.length === 0) return [];
  const spec = TRASH_SPECS[area];
  const db = anyDb(trx);
  const rows: KeptRow[] = [];
  for (const part of chunks(ids)) {
    const found = await db.selectFrom(spec.table).selectAll().where('id', 'in', part).execute();
    rows.push(...(found as KeptRow[]));
  }
  if (rows.length === 0) return rows;
  const found = rows.map((r) => r.id);
  const related = new Map<number, Record<string, unknown[]>>();
  for (const { table, column } of spec.related) {
    for (const part of chunks(found)) {
      const hers = await db.selectFrom(table).selectAll().where(column, 'in', part).execute();
      for (const row of hers) {
        const owner = row[column] as number;
        const mine = related.get(owner) ?? {};
        (mine[table] ??= []).push(row);
        related.set(owner, mine);
      }
    }
  }
  const names = await namesOf(trx, rows);
  const prefixes = mediaPrefixes(actor.store);
  const at = now();
  for (const part of chunks(rows, 100)) {
    const inserted = await trx
      .insertInto('trash')
      .values(
        part.map((row) => ({
          area,
          rowId: row.id,
          title: spec.title(row, names).slice(0, 300),
          thumbnail: spec.thumbnail ? ((row[spec.thumbnail] as string | null) ?? null) : null,
          row: JSON.stringify(row),
          related: JSON.stringify(related.get(row.id) ?? {}),
          deletedAt: at,
          deletedBy: actor.accountId,
        })),
      )
      .returning(['id', 'rowId'])
      .execute();
    const byRow = new Map(part.map((row) => [row.id, row]));
    const media = inserted.flatMap(({ id, rowId }) =>
      keysOf(area, byRow.get(rowId)!, prefixes).map((key) => ({ trashId: id, key })),
    );
    for (const keys of chunks(media)) await trx.insertInto('trashMedia').values(keys).execute();
  }
  for (const part of chunks(found)) {
    await db.deleteFrom(spec.table).where('id', 'in', part).execute();
  }
  return rows;
}

/**
 * Inserts kept rows with their own ids. PostgreSQL's ids are GENERATED ALWAYS: an insert that
 * names one must say OVERRIDING SYSTEM VALUE (the id was the sequence's once; it is not reused).
 */
async function insertKept(
  trx: Db,
  table: string,
  rows: readonly Record<string, unknown>[],
  withId: boolean,
) {
  const postgres = trx.getExecutor().adapter instanceof PostgresAdapter;
  for (const part of chunks(rows)) {
    const compiled = anyDb(trx).insertInto(table).values(part).compile();
    const text =
      withId && postgres
        ? compiled.sql.replace(/\) values \(/, ') overriding system value values (')
        : compiled.sql;
    await trx.executeQuery({ ...compiled, sql: text });
  }
}

/** A 404 naming the items the call may not touch or that are not in the trash. */
function notInTrash(items: readonly TrashItem[]) {
  const names = items.map((i) => `${TRASH_SPECS[i.area].noun} ${i.id}`).join(', ');
  const message = `Not in the trash: ${names}`;
  return new HttpError(404, message, { details: [{ path: 'items', message }] });
}

const restoreConflict = (message: string) =>
  new HttpError(409, message, { details: [{ path: 'items', message }] });

/** The trashable areas `account` may delete in (and so see, restore). */
export async function deletableAreas(
  db: Db,
  account: { id: number; role: string },
): Promise<Set<TrashArea>> {
  if (account.role === 'SUPER_ADMIN') return new Set(TRASH_AREAS);
  const rows = await db
    .selectFrom('userPermissions as up')
    .innerJoin('menus as m', 'm.id', 'up.menuId')
    .innerJoin('permissions as p', 'p.id', 'up.permissionId')
    .select('m.name')
    .where('up.accountId', '=', account.id)
    .where('up.status', '=', true)
    .where('p.name', '=', 'DELETE')
    .execute();
  const menus = new Set(rows.map((r) => r.name));
  return new Set(TRASH_AREAS.filter((area) => menus.has(TRASH_SPECS[area].menu)));
}

type TrashEntry = Database['trash'] extends infer T ? { [K in keyof T]: T[K] } : never;

/** The trash rows of `items`, locked for the change; a 404 naming those not there. */
async function takeItems(trx: Db, items: readonly TrashItem[]) {
  const found: Array<Omit<TrashEntry, 'id'> & { id: number }> = [];
  for (const area of TRASH_AREAS) {
    const ids = items.filter((i) => i.area === area).map((i) => i.id);
    for (const part of chunks(ids)) {
      let query = trx
        .selectFrom('trash')
        .selectAll()
        .where('area', '=', area)
        .where('rowId', 'in', part)
        .orderBy('id');
      if (trx.getExecutor().adapter instanceof PostgresAdapter) query = query.forUpdate();
      found.push(...((await query.execute()) as typeof found));
    }
  }
  const have = new Set(found.map((t) => `${t.area}/${t.rowId}`));
  const absent = items.filter((i) => !have.has(`${i.area}/${i.id}`));
  if (absent.length > 0) throw notInTrash(absent);
  return found;
}

/**
 * Restores `items` (all or nothing): each row with its id, a new version and the rows that went
 * with it; 404 naming items not in the trash or of areas `allowed` leaves out; 409 naming the row
 * whose unique value was taken meanwhile, or whose parent row is no longer there.
 */
export async function restoreItems(
  db: Db,
  request: FastifyRequest,
  items: readonly TrashItem[],
  allowed: ReadonlySet<TrashArea>,
): Promise<void> {
  const refused = items.filter((i) => !allowed.has(i.area));
  if (refused.length > 0) throw notInTrash(refused);
  await inTransaction(db, request.log, async (trx) => {
    const taken = await takeItems(trx, items);
    const entries: AuditEntryInput[] = [];
    for (const area of RESTORE_ORDER) {
      const spec = TRASH_SPECS[area];
      const mine = taken.filter((t) => t.area === area);
      if (mine.length === 0) continue;
      const rows = mine.map((t) => {
        const row = JSON.parse(t.row) as KeptRow;
        if (typeof row.version === 'number') row.version += 1;
        return row;
      });
      await requireParents(trx, area, rows);
      if (spec.unique) await requireFree(trx, area, rows);
      try {
        await insertKept(trx, spec.table, rows, true);
      } catch (err) {
        // A check above raced a concurrent write: the index has the last word.
        if (isConstraint(err)) {
          throw restoreConflict(
            `${mine.map((t) => `${spec.noun} ${t.rowId}`).join(', ')} cannot be restored: a value it holds is taken or a row it needs is gone`,
          );
        }
        throw err;
      }
      for (const t of mine) {
        const related = JSON.parse(t.related) as Record<string, Record<string, unknown>[]>;
        for (const [table, list] of Object.entries(related)) {
          if (list.length > 0) await insertKept(trx, table, list, false);
        }
      }
      for (const row of rows) {
        entries.push({ area: area, rowId: row.id, action: 'RESTORE', after: row });
      }
    }
    for (const part of chunks(taken.map((t) => t.id))) {
      await trx.deleteFrom('trash').where('id', 'in', part).execute();
    }
    await record(trx, request, entries);
  });
}

function isConstraint(err: unknown): boolean {
  const code = typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : null;
  return (
    code === '23505' ||
    code === '23503' ||
    code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    code === 'SQLITE_CONSTRAINT_FOREIGNKEY' ||
    code === 'SQLITE_CONSTRAINT_PRIMARYKEY'
  );
}

/** 409 naming the first row whose parent (its category, app …) is no longer there. */
async function requireParents(trx: Db, area: TrashArea, rows: readonly KeptRow[]) {
  const spec = TRASH_SPECS[area];
  for (const parent of spec.parents) {
    const wanted = [
      ...new Set(
        rows.map((r) => r[parent.column]).filter((v): v is number => typeof v === 'number'),
      ),
    ];
    const there = new Set<number>();
    for (const part of chunks(wanted)) {
      const found = await anyDb(trx)
        .selectFrom(parent.table)
        .select('id')
        .where('id', 'in', part)
        .execute();
      for (const r of found) there.add(r.id as number);
    }
    const orphan = rows.find(
      (r) => typeof r[parent.column] === 'number' && !there.has(r[parent.column] as number),
    );
    if (orphan) {
      throw restoreConflict(
        `${spec.noun} ${orphan.id} cannot be restored: its ${parent.noun} (${String(orphan[parent.column])}) is in the trash or gone; restore that first`,
      );
    }
  }
}

/** 409 naming the first row whose unique value (a category's name) another row took meanwhile. */
async function requireFree(trx: Db, area: TrashArea, rows: readonly KeptRow[]) {
  const spec = TRASH_SPECS[area];
  const unique = spec.unique!;
  const fold = (v: unknown) => (unique.lower ? String(v).toLowerCase() : String(v));
  const seen = new Map<string, number>();
  for (const row of rows) {
    const value = fold(row[unique.column]);
    const twin = seen.get(value);
    if (twin !== undefined) {
      throw restoreConflict(
        `${spec.noun} ${row.id} cannot be restored with ${spec.noun.toLowerCase()} ${twin}: both are named "${String(row[unique.column])}"`,
      );
    }
    seen.set(value, row.id);
  }
  for (const part of chunks([...seen.keys()])) {
    const column = sql.ref(unique.column.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`));
    const found = await sql<{
      value: string;
    }>`select ${unique.lower ? sql`lower(${column})` : column} as value from ${sql.table(spec.table.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`))} where ${unique.lower ? sql`lower(${column})` : column} in (${sql.join(part)})`.execute(
      trx,
    );
    const first = found.rows[0];
    if (first) {
      const row = rows.find((r) => fold(r[unique.column]) === first.value)!;
      throw restoreConflict(
        `${spec.noun} ${row.id} cannot be restored: the ${unique.column} "${String(row[unique.column])}" is taken by another ${spec.noun.toLowerCase()}`,
      );
    }
  }
}

/**
 * Deletes the trash rows of `items` (or those deleted before `before`, for the sweep), answering
 * what was purged and the media keys to let go once the transaction commits.
 */
async function purgeRows(
  trx: Db,
  which: { items: readonly TrashItem[] } | { before: string; limit: number },
) {
  let taken: Array<{ id: number; area: string; rowId: number }>;
  if ('items' in which) {
    taken = await takeItems(trx, which.items);
  } else {
    let query = trx
      .selectFrom('trash')
      .select(['id', 'area', 'rowId'])
      .where('deletedAt', '<', which.before)
      .orderBy('deletedAt')
      .orderBy('id')
      .limit(which.limit);
    // Two instances sweeping at once: each takes rows the other has not locked.
    if (trx.getExecutor().adapter instanceof PostgresAdapter)
      query = query.forUpdate().skipLocked();
    taken = await query.execute();
  }
  const keys: string[] = [];
  for (const part of chunks(taken.map((t) => t.id))) {
    const media = await trx
      .selectFrom('trashMedia')
      .select('key')
      .where('trashId', 'in', part)
      .execute();
    keys.push(...media.map((m) => m.key));
    await trx.deleteFrom('trashMedia').where('trashId', 'in', part).execute();
    await trx.deleteFrom('trash').where('id', 'in', part).execute();
  }
  return { taken, keys };
}

/** Purges `items` at once (SUPER_ADMIN): rows, then the files no other row names. */
export async function purgeItems(
  db: Db,
  request: FastifyRequest,
  media: MediaService,
  items: readonly TrashItem[],
): Promise<void> {
  const keys = await inTransaction(db, request.log, async (trx) => {
    const { taken, keys } = await purgeRows(trx, { items });
    await record(
      trx,
      request,
      taken.map((t) => ({ area: t.area as AuditArea, rowId: t.rowId, action: 'PURGE' as const })),
    );
    return keys;
  });
  await media.release(keys);
}

/**
 * The sweep: purges rows deleted more than `days` days ago, a batch at a time, then lets their
 * files go. Safe with several instances: a row is purged by one (PostgreSQL: SKIP LOCKED; SQLite:
 * writers take turns, and the second finds the rows gone). Answers how many rows it purged.
 */
export async function sweepTrash(
  db: Db,
  media: MediaService,
  days: number,
  log: Pick<FastifyBaseLogger, 'warn' | 'info'>,
  at = Date.now(),
): Promise<number> {
  const before = new Date(at - days * 86_400_000).toISOString();
  let purged = 0;
  for (;;) {
    const { taken, keys } = await inTransaction(db, log, (trx) =>
      purgeRows(trx, { before, limit: 200 }),
    );
    await media.release(keys);
    purged += taken.length;
    if (taken.length > 0) {
      log.info({ purged: taken.map((t) => `${t.area}/${t.rowId}`) }, 'trash sweep: purged rows');
    }
    if (taken.length < 200) return purged;
  }
}
