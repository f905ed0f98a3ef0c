import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import {
  CamelCasePlugin,
  CompiledQuery,
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
import { checkDeadline } from '../http/deadline.ts';
import { SqliteChangeWatch, type ChangeWatch } from './changes.ts';
import { dialectFor, type Dialect } from './dialect.ts';
import { PgReadPool, SqliteReadPool, defaultReaders, type ReadPool } from './reads.ts';
import { readInPlace } from './sqlite-reading.ts';
import { VersionBumpPlugin } from './versions.ts';
import type { Database } from './schema.ts';

export type Db = Kysely<Database>;

export interface DatabaseHandle {
  db: Db;
  dialect: Dialect;
  /** Where list reads run, off the request path (reads.ts). */
  reads: ReadPool;
  /**
   * Where the access check's lookups run: SQLite's reader threads (which leaves the request
   * thread free for requests), PostgreSQL's main pool (apart from the list reads).
   */
  lookups: ReadPool;
  /**
   * Tells when what the access check reads may have changed (changes.ts); undefined on
   * PostgreSQL, where every call reads.
   */
  changes: ChangeWatch | undefined;
  /** The open SQLite connection, for online backups; undefined on PostgreSQL. */
  sqlite: SQLite.Database | undefined;
  /**
   * PostgreSQL's pool for sign-in, sessions and writes (its load, for /metrics); undefined on
   * SQLite.
   */
  main: PgReadPool | undefined;
  /** Whether the database answers, on connections no request can hold up (readiness). */
  probe(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The server's bounds on waiting (API.md, Operations): a statement at most a request's deadline, a
 * lock wait at most `lockMs`, a wait for a pooled connection at most `poolWaitMs`. The operator's
 * tool (migrations, backups, bulk loads) opens the database without them.
 */
export type WaitBounds = { statementMs: number; lockMs: number; poolWaitMs: number };

const MAX_CACHED_STATEMENTS = 500;

/**
 * Connections of the PostgreSQL pool for list reads. A keyword's count at ten million users waits
 * on reads of its index as much as on the processor: with 4 (two a core) a 1 % name keyword
 * answered 21–26 req/s under fifty callers where the bench's floor, with 10, answered 154–206;
 * with 10, 71. The small lists lost nothing (a wallet page 2,085–2,188 → 2,244–2,417 req/s).
 */
const PG_READERS = 10;

/** Each statement prepared once and kept (at most MAX_CACHED_STATEMENTS, oldest out first). */
function statementCache(sqlite: SQLite.Database): (source: string) => SQLite.Statement {
  const statements = new Map<string, SQLite.Statement>();
  return (source) => {
    let statement = statements.get(source);
    if (!statement) {
      statement = sqlite.prepare(source);
      if (statements.size >= MAX_CACHED_STATEMENTS) {
        statements.delete(statements.keys().next().value!);
      }
      statements.set(source, statement);
    }
    return statement;
  };
}

/**
 * The SQLite connection as Kysely sees it, with `prepare` answered from the cache: Kysely asks
 * for a new statement on every query, and preparing costs as much as running a cheap one.
 */
function withCachedPrepare(
  sqlite: SQLite.Database,
  prepare: (source: string) => SQLite.Statement,
): SQLite.Database {
  return new Proxy(sqlite, {
    get(target, property) {
      if (property === 'prepare') return prepare;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function'
        ? (value as (...a: unknown[]) => unknown).bind(target)
        : value;
    },
  });
}

const statementNames = new Map<string, string>();

/** Statements worth preparing once per connection: plain DML with a bounded shape. */
const PREPARABLE = /^\s*(select|insert|update|delete|with)\b/i;
const MAX_PREPARED_PARAMETERS = 32;

/**
 * A pg client that prepares each query text once per connection (a named statement) and then
 * only binds and runs it. Statements with many parameters (bulk id lists) vary in shape and are
 * sent unnamed, so a connection keeps a bounded set.
 */
class PreparingClient extends pg.Client {
  override query(config: unknown, values?: unknown, callback?: unknown): never {
    if (
      typeof config === 'string' &&
      PREPARABLE.test(config) &&
      (!Array.isArray(values) || values.length <= MAX_PREPARED_PARAMETERS)
    ) {
      let name = statementNames.get(config);
      if (!name) {
        name = `s${createHash('sha1').update(config).digest('base64url').slice(0, 22)}`;
        if (statementNames.size >= MAX_CACHED_STATEMENTS) statementNames.clear();
        statementNames.set(config, name);
      }
      const named = { name, text: config, values: values as unknown[] | undefined };
      // pg.Pool's own query() calls its client with a callback: the list reads (db/reads.ts)
      // come that way, and were planned anew on every call before they were named here too.
      return (
        typeof callback === 'function' ? super.query(named, callback as never) : super.query(named)
      ) as never;
    }
    return (super.query as (...a: unknown[]) => never)(config, values, callback);
  }
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

/**
 * No statement of a request starts past its deadline (http/deadline.ts): the request answers
 * 503 instead, and its transaction, if any, rolls back.
 */
const deadlines: KyselyPlugin = {
  transformQuery: (args: PluginTransformQueryArgs): RootOperationNode => {
    checkDeadline();
    return args.node;
  },
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

export function openDatabase(
  database: Config['database'],
  options: { readers?: number; bounds?: WaitBounds } = {},
): DatabaseHandle {
  const { bounds } = options;
  if (database.kind === 'sqlite') {
    fs.mkdirSync(path.dirname(database.file), { recursive: true });
    const sqlite = new SQLite(database.file);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('foreign_keys = ON');
    // How long a write waits for another process's (the operator's tool, a backup): the lock
    // bound when the server opened it (a 503 past it), else 5 s.
    sqlite.pragma(`busy_timeout = ${bounds?.lockMs ?? 5000}`);
    sqlite.pragma('synchronous = NORMAL');
    readInPlace(sqlite);
    const db = new Kysely<Database>({
      dialect: new SqliteDialect({ database: withCachedPrepare(sqlite, statementCache(sqlite)) }),
      plugins: [deadlines, new VersionBumpPlugin(), new CamelCasePlugin(), sqliteBooleans],
    });
    const reads = new SqliteReadPool(database.file, options.readers ?? defaultReaders());
    return {
      db,
      dialect: dialectFor('sqlite'),
      reads,
      lookups: reads,
      changes: new SqliteChangeWatch(sqlite),
      sqlite,
      main: undefined,
      probe: async () => void sqlite.prepare('select 1').get(),
      close: async () => {
        await reads.close();
        await db.destroy();
      },
    };
  }
  // Bounded: a statement ends by the deadline, a lock is waited for briefly, a client waits for
  // a pooled connection a few seconds at most (each a 503, http/parts.ts).
  const settings = bounds
    ? ` -c statement_timeout=${bounds.statementMs} -c lock_timeout=${bounds.lockMs}` +
      ` -c idle_in_transaction_session_timeout=${2 * bounds.statementMs}`
    : '';
  const newPool = (max: number) => {
    const pool = new pg.Pool({
      connectionString: database.url,
      max,
      types: pgTypes,
      options: `-c TimeZone=UTC${settings}`,
      Client: PreparingClient,
      ...(bounds ? { connectionTimeoutMillis: bounds.poolWaitMs } : {}),
    });
    // An idle client losing its connection (server restart, a dropped database) is already
    // removed by the pool; left unhandled, the pool's 'error' event would crash the process.
    pool.on('error', () => {});
    // The same for a client a transaction holds between statements: the pool only listens to idle
    // clients, and unheard the error would crash the process. The next statement fails instead,
    // and the pool drops the client when it is released.
    pool.on('connect', (client) => client.on('error', () => {}));
    return pool;
  };
  const mainPool = newPool(10);
  const db = new Kysely<Database>({
    dialect: new PostgresDialect({ pool: mainPool }),
    plugins: [deadlines, new VersionBumpPlugin(), new CamelCasePlugin()],
  });
  // The access check and readiness on connections of their own: writes waiting on a locked table
  // can take every connection of the main pool, and must not stall every other call (or make
  // readiness blame a database that answers).
  const lookups = new PgReadPool(newPool(3));
  // PostgreSQL's work is CPU-bound: more list queries at once than cores only queue there, and
  // make sign-in and health wait longer for their turn (measured: health p99 78 ms with 10, 23 ms
  // with 4, on 2 cores).
  const reads = new PgReadPool(newPool(options.readers ?? PG_READERS));
  return {
    db,
    dialect: dialectFor('postgres'),
    reads,
    lookups,
    changes: undefined,
    sqlite: undefined,
    // Kysely ends the main pool when the database closes.
    main: new PgReadPool(mainPool, { owned: false }),
    probe: async () => void (await lookups.run([CompiledQuery.raw('select 1')])),
    close: async () => {
      await reads.close();
      await lookups.close();
      await db.destroy();
    },
  };
}
