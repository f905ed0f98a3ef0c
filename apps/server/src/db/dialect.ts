/**
 * Where SQLite and PostgreSQL differ, the difference lives here and nowhere else.
 */
import { sql, type ColumnDefinitionBuilder, type Expression, type SqlBool } from 'kysely';

export type DialectKind = 'sqlite' | 'postgres';

export interface Dialect {
  kind: DialectKind;
  /** Column type of timestamps (ISO-8601 UTC). */
  timestampType: 'text' | 'timestamptz';
  /** Column type of calendar dates (YYYY-MM-DD). */
  dateType: 'text' | 'date';
  /** Makes `id` an auto-incrementing primary key that never reuses a deleted row's id. */
  idColumn: (col: ColumnDefinitionBuilder) => ColumnDefinitionBuilder;
  /** Case-insensitive "contains" over a column (the list keyword). */
  contains(column: string, keyword: string): Expression<SqlBool>;
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
    contains: (column, keyword) =>
      sql<SqlBool>`${sql.ref(column)} ${like} ${likePattern(keyword)} escape '\\'`,
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
