/**
 * Where SQLite and PostgreSQL differ, the difference lives here and nowhere else.
 */
import {
  sql,
  type ColumnDefinitionBuilder,
  type Expression,
  type RawBuilder,
  type SqlBool,
} from 'kysely';

export type DialectKind = 'sqlite' | 'postgres';

export interface Dialect {
  kind: DialectKind;
  /** Column type of timestamps (ISO-8601 UTC). */
  timestampType: 'text' | 'timestamptz';
  /** Column type of calendar dates (YYYY-MM-DD). */
  dateType: 'text' | 'date';
  /** Makes `id` an auto-incrementing primary key that never reuses a deleted row's id. */
  idColumn: (col: ColumnDefinitionBuilder) => ColumnDefinitionBuilder;
  /**
   * Case-insensitive "contains" over a column, for keywords too short to index (a scan).
   * `pattern` is `containsPattern(keyword)`, passed apart so compiled statements can be reused.
   */
  contains(column: string, pattern: unknown): Expression<SqlBool>;
  containsPattern(keyword: string): string;
  /**
   * The list's search structure (list-structures.ts): its table, its row-id column, and the
   * condition on it that holds for rows containing the keyword (case-insensitive, in any one of
   * the searched columns). `pattern` is `searchPattern(keyword)`, for keywords of at least
   * SEARCH_MIN_LENGTH characters.
   */
  search(
    list: string,
    pattern: unknown,
  ): { table: string; id: string; matches: Expression<SqlBool> };
  searchPattern(keyword: string): string;
  /**
   * The row `id` names contains the keyword, checked on the list's search structure by that id
   * alone, one row at a time: a scalar subquery by primary key on PostgreSQL (which, unlike
   * `exists`, it cannot turn into a join with every match), the row's full-text match on SQLite.
   */
  searchedById(list: string, pattern: unknown, id: Expression<unknown>): Expression<SqlBool>;
  /**
   * `column` (an integer) as a value the planner will not look up in an index (SQLite's unary +,
   * PostgreSQL's `+ 0`).
   */
  unindexed(column: string): Expression<unknown>;
  /**
   * `column` holds one of the ids `ids` selects. On PostgreSQL `= any(array(…))`: the ids are read
   * once and the column's index is probed for them (two such conditions joined by `or` become one
   * BitmapOr), where `in (…)` under an `or` was planned as a scan of the whole table.
   */
  inIds(column: string, ids: Expression<unknown>): Expression<SqlBool>;
  /** The UTC calendar day (YYYY-MM-DD) of the timestamp `column`. */
  utcDay(column: string): RawBuilder<string>;
}

/** Keywords this long (in characters) use the trigram index; shorter ones scan (`contains`). */
export const SEARCH_MIN_LENGTH = 3;

/** A phrase query for FTS5: the keyword as one quoted string, so nothing in it is syntax. */
function ftsPhrase(keyword: string): string {
  return `"${keyword.replaceAll('"', '""')}"`;
}

function likePattern(keyword: string): string {
  return `%${keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export function dialectFor(kind: DialectKind): Dialect {
  const like = kind === 'postgres' ? sql.raw('ilike') : sql.raw('like');
  return {
    kind,
    timestampType: kind === 'postgres' ? 'timestamptz' : 'text',
    dateType: kind === 'postgres' ? 'date' : 'text',
    idColumn: (col) =>
      kind === 'postgres'
        ? col.primaryKey().generatedAlwaysAsIdentity()
        : col.primaryKey().autoIncrement(),
    contains: (column, pattern) => sql<SqlBool>`${sql.ref(column)} ${like} ${pattern} escape '\\'`,
    containsPattern: likePattern,
    search: (list, pattern) => {
      const table = `${list}_search`;
      return kind === 'postgres'
        ? {
            table,
            id: 'id',
            matches: sql<SqlBool>`${sql.ref(`${table}.doc`)} ilike ${pattern} escape '\\'`,
          }
        : { table, id: 'rowid', matches: sql<SqlBool>`${sql.table(table)} match ${pattern}` };
    },
    searchPattern: kind === 'postgres' ? likePattern : ftsPhrase,
    searchedById: (list, pattern, id) => {
      const table = sql.table(`${list}_search`);
      return kind === 'postgres'
        ? sql<SqlBool>`(select doc from ${table} where id = ${id}) ilike ${pattern} escape '\\'`
        : sql<SqlBool>`exists (select 1 from ${table} where rowid = ${id} and ${table} match ${pattern})`;
    },
    // An integer column plus nothing: PostgreSQL cannot look it up in the column's index.
    unindexed: (column) =>
      kind === 'postgres' ? sql`(${sql.ref(column)} + 0)` : sql`+${sql.ref(column)}`,
    inIds: (column, ids) =>
      kind === 'postgres'
        ? sql<SqlBool>`${sql.ref(column)} = any(array(${ids}))`
        : sql<SqlBool>`${sql.ref(column)} in (${ids})`,
    // SQLite keeps timestamps as ISO-8601 UTC text: the day is its first ten characters.
    utcDay: (column) =>
      kind === 'postgres'
        ? sql<string>`(${sql.ref(column)} at time zone 'UTC')::date`
        : sql<string>`substr(${sql.ref(column)}, 1, 10)`,
  };
}

/** The current time as the database stores it. */
export function now(): string {
  return new Date().toISOString();
}

function errorCode(err: unknown): unknown {
  return typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
}

/** A unique index refused the write (SQLite or PostgreSQL). */
export function isUniqueViolation(err: unknown): boolean {
  const code = errorCode(err);
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === '23505';
}

/** A foreign key refused the write: the row is still referenced, or references nothing. */
export function isForeignKeyViolation(err: unknown): boolean {
  const code = errorCode(err);
  return code === 'SQLITE_CONSTRAINT_FOREIGNKEY' || code === '23503';
}

/**
 * The database cancelled the transaction for a conflict with another one, and running it again
 * from the start can succeed: a deadlock or a serialization failure (PostgreSQL), or on SQLite a
 * write in a transaction whose snapshot another process has written past since (waiting, as
 * busy_timeout does for SQLITE_BUSY, cannot help that one).
 */
export function isTransactionConflict(err: unknown): boolean {
  const code = errorCode(err);
  return code === '40P01' || code === '40001' || code === 'SQLITE_BUSY_SNAPSHOT';
}
