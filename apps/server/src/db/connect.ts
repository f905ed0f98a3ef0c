import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import {
  CamelCasePlugin,
  Kysely,
  OperationNodeTransformer,
  PostgresDialect,
  PrimitiveValueListNode,
  SqliteDialect,
  ValueNode,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
} from 'kysely';
import type { Config } from '../config.ts';
import { dialectFor, type Dialect } from './dialect.ts';
import type { Database } from './schema.ts';

export type Db = Kysely<Database>;

export interface DatabaseHandle {
  db: Db;
  dialect: Dialect;
  /** The open SQLite connection, for online backups; undefined on PostgreSQL. */
  sqlite: SQLite.Database | undefined;
  close(): Promise<void>;
}

/** SQLite cannot bind booleans: write them as 1 and 0. */
class BooleanToInteger extends OperationNodeTransformer {
  protected override transformValue(node: ValueNode): ValueNode {
    const v = node.value;
    return typeof v === 'boolean' ? ValueNode.create(v ? 1 : 0) : super.transformValue(node);
  }

  // Inserts carry their values as plain lists rather than value nodes.
  protected override transformPrimitiveValueList(
    node: PrimitiveValueListNode,
  ): PrimitiveValueListNode {
    return PrimitiveValueListNode.create(
      node.values.map((v) => (typeof v === 'boolean' ? (v ? 1 : 0) : v)),
    );
  }
}

const sqliteBooleans: KyselyPlugin = {
  transformQuery: (args: PluginTransformQueryArgs): RootOperationNode =>
    new BooleanToInteger().transformNode(args.node),
  transformResult: async (args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> =>
    args.result,
};

const { types } = pg;
/** The type ids (OIDs) of the PostgreSQL types parsed differently from pg's defaults. */
const OID = { INT8: 20, DATE: 1082, TIMESTAMP: 1114, TIMESTAMPTZ: 1184, NUMERIC: 1700 } as const;
const parseTimestamptz = types.getTypeParser(OID.TIMESTAMPTZ) as (value: string) => Date;

/** PostgreSQL values in the shapes SQLite gives: ISO strings, YYYY-MM-DD, plain numbers. */
const pgTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary'): (value: string) => unknown {
    switch (oid) {
      case OID.TIMESTAMPTZ:
      case OID.TIMESTAMP:
        return (v: string) => parseTimestamptz(v).toISOString();
      case OID.DATE:
        return (v: string) => v;
      case OID.INT8:
      case OID.NUMERIC:
        return (v: string) => Number(v);
      default:
        return types.getTypeParser(oid, format ?? 'text') as (value: string) => unknown;
    }
  },
};

export function openDatabase(database: Config['database']): DatabaseHandle {
  if (database.kind === 'sqlite') {
    fs.mkdirSync(path.dirname(database.file), { recursive: true });
    const sqlite = new SQLite(database.file);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('busy_timeout = 5000');
    sqlite.pragma('synchronous = NORMAL');
    const db = new Kysely<Database>({
      dialect: new SqliteDialect({ database: sqlite }),
      plugins: [new CamelCasePlugin(), sqliteBooleans],
    });
    return { db, dialect: dialectFor('sqlite'), sqlite, close: () => db.destroy() };
  }
  const pool = new pg.Pool({
    connectionString: database.url,
    max: 10,
    types: pgTypes,
    options: '-c TimeZone=UTC',
  });
  // An idle client losing its connection (server restart, a dropped database) is already removed
  // by the pool; left unhandled, the pool's 'error' event would crash the process.
  pool.on('error', () => {});
  const db = new Kysely<Database>({
    dialect: new PostgresDialect({ pool }),
    plugins: [new CamelCasePlugin()],
  });
  return { db, dialect: dialectFor('postgres'), sqlite: undefined, close: () => db.destroy() };
}
