/**
 * What keeps a list fast at millions of rows, built in the database so that every write (a route,
 * the CLI, a cascade, plain SQL) keeps it right in the same transaction:
 *
 * - `list_counts`: per list, for each declared grouping set of filter columns, how many rows hold
 *   each combination of values. A total is a sum over a handful of these rows, never a scan.
 * - a search structure over the keyword columns: an FTS5 trigram index on SQLite, a narrow
 *   `<name>_search` table with a pg_trgm GIN index on PostgreSQL.
 *
 * Both are kept by triggers: row triggers on SQLite, statement triggers with transition tables on
 * PostgreSQL (one upsert per statement, so a bulk write of a million rows costs seconds).
 *
 * Migrations call `installList` with literal definitions; the SQL made here for a definition must
 * stay the same once shipped (change it only with a new migration that drops and reinstalls).
 */
import { sql, type Kysely } from 'kysely';
import type { Dialect } from './dialect.ts';
import { inTransaction } from './transaction.ts';

/** A list as the database keeps it (snake_case names, as migrations speak). */
export interface ListStructure {
  /** Names the list's rows in `list_counts`, its search structure `<name>_search` and triggers. */
  name: string;
  /** The base table. */
  table: string;
  /** Grouping sets of columns (at most 4 each), in order: grouping set i is `grp = i`. */
  counts: ReadonlyArray<ReadonlyArray<string>>;
  /** The columns a keyword searches; empty: no search structure. */
  search: ReadonlyArray<string>;
  /**
   * When given, the search structure is split in two by these conditions (all of them): the rows
   * meeting them in `<name>_search`, every other row in `<name>_rest_search`. A list whose
   * request asks for exactly these rows (users: role USER, not DELETED) counts a keyword on
   * its structure alone, without looking up each match in the table; each row is in one of the
   * two, so a write still updates one index.
   */
  searchWhere?: ReadonlyArray<RowCondition> | undefined;
}

/** A column compared with a literal: `=` or `<>`, as a request's filter and hidden value are. */
export type RowCondition = { column: string; op: '=' | '<>'; value: string };

/** The search structures of a list (one, or the split pair), each with the rows it holds. */
function searchParts(
  def: ListStructure,
  kind: Dialect['kind'],
): Array<{ table: string; holds: (row: string) => string }> {
  if (def.search.length === 0) return [];
  const where = def.searchWhere ?? [];
  if (where.length === 0) return [{ table: `${def.name}_search`, holds: () => '' }];
  // Columns of a condition are compared as the request compares them (`=`, `<>`); a null never
  // meets a condition, so such a row is in the rest. Always true or false, never null.
  const scope = (row: string) =>
    `coalesce(${where.map((c) => `${row}.${c.column} ${c.op} '${c.value}'`).join(' and ')}, ` +
    `${kind === 'postgres' ? 'false' : '0'})`;
  return [
    { table: `${def.name}_search`, holds: (row) => scope(row) },
    { table: `${def.name}_rest_search`, holds: (row) => `not ${scope(row)}` },
  ];
}

/** Key columns of `list_counts`; a grouping set uses the first ones, the rest hold ''. */
export const COUNT_KEYS = ['k1', 'k2', 'k3', 'k4'] as const;

/**
 * Separates the searched columns in PostgreSQL's search document. A keyword never holds a control
 * character (refused as input), so no match can span two columns.
 */
export const SEARCH_SEPARATOR = '\u0001';

const IDENT = /^[a-z][a-z0-9_]*$/;
function ident(name: string): string {
  if (!IDENT.test(name)) throw new Error(`not a plain identifier: ${name}`);
  return name;
}

const LITERAL = /^[A-Za-z0-9_ -]*$/;

function check(def: ListStructure) {
  ident(def.name);
  ident(def.table);
  def.search.forEach(ident);
  for (const c of def.searchWhere ?? []) {
    ident(c.column);
    if (!LITERAL.test(c.value) || (c.op !== '=' && c.op !== '<>')) {
      throw new Error(`${def.name}: not a plain condition: ${c.column} ${c.op} ${c.value}`);
    }
  }
  for (const set of def.counts) {
    if (set.length > COUNT_KEYS.length) throw new Error(`${def.name}: at most 4 columns a set`);
    set.forEach(ident);
  }
}

export async function createListCountsTable(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('list_counts')
    .addColumn('list', 'varchar(40)', (c) => c.notNull())
    .addColumn('grp', 'integer', (c) => c.notNull())
    .addColumn('k1', 'varchar(100)', (c) => c.notNull())
    .addColumn('k2', 'varchar(100)', (c) => c.notNull())
    .addColumn('k3', 'varchar(100)', (c) => c.notNull())
    .addColumn('k4', 'varchar(100)', (c) => c.notNull())
    .addColumn('n', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('list_counts_pk', ['list', 'grp', 'k1', 'k2', 'k3', 'k4'])
    .execute();
}

/** The four key expressions of a grouping set over `row` (a row alias such as `new`). */
function keys(row: string, set: ReadonlyArray<string>, kind: Dialect['kind']): string[] {
  return COUNT_KEYS.map((_, i) => {
    const col = set[i];
    if (!col) return "''";
    return kind === 'postgres'
      ? `coalesce(${row}.${col}::text, '')`
      : `coalesce(cast(${row}.${col} as text), '')`;
  });
}

// ---------------------------------------------------------------------------------------------
// SQLite

/** The statements a row trigger runs to count a row in (`inc`) or out (`dec`). */
function sqliteCounting(def: ListStructure) {
  const { name } = def;
  const inc = (row: string) =>
    def.counts.map(
      (set, g) =>
        `insert into list_counts (list, grp, k1, k2, k3, k4, n) values ('${name}', ${g}, ` +
        `${keys(row, set, 'sqlite').join(', ')}, 1) ` +
        `on conflict (list, grp, k1, k2, k3, k4) do update set n = n + 1;`,
    );
  const dec = (row: string) =>
    def.counts.map((set, g) => {
      const k = keys(row, set, 'sqlite');
      return (
        `update list_counts set n = n - 1 where list = '${name}' and grp = ${g} and ` +
        COUNT_KEYS.map((key, i) => `${key} = ${k[i]}`).join(' and ') +
        ';'
      );
    });
  return { inc, dec };
}

/**
 * The triggers every SQLite list has: a row inserted or deleted is counted and (re)indexed by
 * `index`/`unindex` (statements for the row `new` or `old`), a change of a counted column moves
 * its count.
 */
function sqliteRowTriggers(
  def: ListStructure,
  index: (row: string) => string[],
  unindex: (row: string) => string[],
): string[] {
  const { name, table } = def;
  const { inc, dec } = sqliteCounting(def);
  const out = [
    `create trigger ${name}_list_insert after insert on ${table} begin ${[...inc('new'), ...index('new')].join(' ')} end`,
    `create trigger ${name}_list_delete after delete on ${table} begin ${[...dec('old'), ...unindex('old')].join(' ')} end`,
  ];
  const counted = [...new Set(def.counts.flat())];
  if (counted.length > 0) {
    const changed = counted.map((c) => `old.${c} is not new.${c}`).join(' or ');
    out.push(
      `create trigger ${name}_list_recount after update of ${counted.join(', ')} on ${table} ` +
        `when ${changed} begin ${[...dec('old'), ...inc('new')].join(' ')} end`,
    );
  }
  return out;
}

/**
 * A split search structure (`searchWhere`): two FTS5 indexes, each over a view of the rows it
 * holds (its external content, so 'rebuild' and the integrity check see those rows only). The
 * triggers put a row in the one whose condition it meets, and move it when a write changes that.
 */
function sqliteSplitStatements(def: ListStructure): string[] {
  const { name, table } = def;
  const parts = searchParts(def, 'sqlite');
  const cols = def.search.join(', ');
  const values = (row: string) => def.search.map((c) => `${row}.${c}`).join(', ');
  const out: string[] = [];
  for (const { table: fts, holds } of parts) {
    out.push(
      `create view ${fts}_rows as select t.id, ${values('t')} from ${table} t where ${holds('t')}`,
    );
    out.push(
      `create virtual table ${fts} using fts5(${cols}, content='${fts}_rows', content_rowid='id', tokenize='trigram')`,
    );
    out.push(`insert into ${fts} (${fts}) values ('rebuild')`);
  }
  const add = (row: string) =>
    parts.map(
      ({ table: fts, holds }) =>
        `insert into ${fts} (rowid, ${cols}) select ${row}.id, ${values(row)} where ${holds(row)};`,
    );
  const remove = (row: string) =>
    parts.map(
      ({ table: fts, holds }) =>
        `insert into ${fts} (${fts}, rowid, ${cols}) select 'delete', ${row}.id, ${values(row)} where ${holds(row)};`,
    );
  out.push(...sqliteRowTriggers(def, add, remove));
  // Reindexed when a searched column changes or the row moves to the other index.
  const watched = [...new Set([...def.search, ...def.searchWhere!.map((c) => c.column)])];
  const changed = [
    ...def.search.map((c) => `old.${c} is not new.${c}`),
    `${parts[0]!.holds('old')} is not ${parts[0]!.holds('new')}`,
  ].join(' or ');
  out.push(
    `create trigger ${name}_list_reindex after update of ${watched.join(', ')} on ${table} ` +
      `when ${changed} begin ${[...remove('old'), ...add('new')].join(' ')} end`,
  );
  return out;
}

function sqliteStatements(def: ListStructure): string[] {
  if ((def.searchWhere ?? []).length > 0) return sqliteSplitStatements(def);
  const { name, table } = def;
  const out: string[] = [];
  const fts = `${name}_search`;
  const cols = def.search.join(', ');
  const ftsInsert = (row: string) =>
    def.search.length === 0
      ? []
      : [
          `insert into ${fts} (rowid, ${cols}) values (${row}.id, ${def.search.map((c) => `${row}.${c}`).join(', ')});`,
        ];
  const ftsDelete = (row: string) =>
    def.search.length === 0
      ? []
      : [
          `insert into ${fts} (${fts}, rowid, ${cols}) values ('delete', ${row}.id, ${def.search.map((c) => `${row}.${c}`).join(', ')});`,
        ];

  if (def.search.length > 0) {
    // External content: the index keeps no copy of the text; triggers feed it exactly what the
    // table holds. Trigram tokens make any substring of 3+ characters a phrase query.
    out.push(
      `create virtual table ${fts} using fts5(${cols}, content='${table}', content_rowid='id', tokenize='trigram')`,
    );
    out.push(`insert into ${fts} (${fts}) values ('rebuild')`);
  }
  out.push(...sqliteRowTriggers(def, ftsInsert, ftsDelete));
  if (def.search.length > 0) {
    const changed = def.search.map((c) => `old.${c} is not new.${c}`).join(' or ');
    out.push(
      `create trigger ${name}_list_reindex after update of ${cols} on ${table} ` +
        `when ${changed} begin ${[...ftsDelete('old'), ...ftsInsert('new')].join(' ')} end`,
    );
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// PostgreSQL

/** The search document of a row: its searched columns joined by SEARCH_SEPARATOR. */
function pgDocument(row: string, def: ListStructure): string {
  return `concat_ws(E'\\x01', ${def.search.map((c) => `${row}.${c}`).join(', ')})`;
}

function pgCountDelta(def: ListStructure, parts: Array<{ rows: string; sign: 1 | -1 }>): string {
  const selects = def.counts.flatMap((set, g) =>
    parts.map(
      ({ rows, sign }) =>
        `select '${def.name}'::varchar as list, ${g} as grp, ${keys('r', set, 'postgres').join(', ')}, ` +
        `${sign} * count(*) as d from ${rows} r group by ${COUNT_KEYS.map((_, i) => i + 3).join(', ')}`,
    ),
  );
  return (
    `insert into list_counts (list, grp, k1, k2, k3, k4, n) ` +
    `select list, grp, k1, k2, k3, k4, sum(d) from (${selects.join(' union all ')}) ` +
    `as x (list, grp, k1, k2, k3, k4, d) group by list, grp, k1, k2, k3, k4 having sum(d) <> 0 ` +
    // One order for every writer, so two transactions never wait on each other's rows in turn.
    `order by list, grp, k1, k2, k3, k4 ` +
    `on conflict (list, grp, k1, k2, k3, k4) do update set n = list_counts.n + excluded.n;`
  );
}

/**
 * A split search structure (`searchWhere`) on PostgreSQL: two narrow tables, each with its GIN
 * index; the statement triggers put each row in the one whose condition it meets (an update
 * moves it, or rewrites its document when that changed).
 */
function postgresSplitStatements(def: ListStructure): string[] {
  const { table } = def;
  const parts = searchParts(def, 'postgres');
  const hasCounts = def.counts.length > 0;
  const out: string[] = [];
  for (const { table: search, holds } of parts) {
    out.push(`create table ${search} (id integer primary key, doc text not null)`);
    out.push(
      `insert into ${search} (id, doc) select t.id, ${pgDocument('t', def)} from ${table} t where ${holds('t')}`,
    );
    out.push(`create index ${search}_doc on ${search} using gin (doc gin_trgm_ops)`);
  }
  const add = parts.map(
    ({ table: search, holds }) =>
      `insert into ${search} (id, doc) select n.id, ${pgDocument('n', def)} from new_rows n where ${holds('n')};`,
  );
  const onInsert = [
    ...(hasCounts ? [pgCountDelta(def, [{ rows: 'new_rows', sign: 1 }])] : []),
    ...add,
  ];
  const onDelete = [
    ...(hasCounts ? [pgCountDelta(def, [{ rows: 'old_rows', sign: -1 }])] : []),
    ...parts.map(
      ({ table: search }) => `delete from ${search} where id in (select id from old_rows);`,
    ),
  ];
  const onUpdate = [
    ...(hasCounts
      ? [
          pgCountDelta(def, [
            { rows: 'new_rows', sign: 1 },
            { rows: 'old_rows', sign: -1 },
          ]),
        ]
      : []),
    // Out of the index whose rows it no longer meets, then into (or rewritten in) the other.
    ...parts.map(
      ({ table: search, holds }) =>
        `delete from ${search} where id in (select n.id from new_rows n where not ${holds('n')});`,
    ),
    ...parts.map(
      ({ table: search, holds }) =>
        `insert into ${search} (id, doc) select n.id, ${pgDocument('n', def)} from new_rows n ` +
        `where ${holds('n')} on conflict (id) do update set doc = excluded.doc ` +
        `where ${search}.doc is distinct from excluded.doc;`,
    ),
  ];
  out.push(...pgSync(def, onInsert, onDelete, onUpdate));
  return out;
}

/**
 * A PostgreSQL list's sync function (the statements for inserted, deleted and updated rows,
 * which see `new_rows` / `old_rows`) and the statement triggers that call it.
 */
function pgSync(
  def: ListStructure,
  onInsert: string[],
  onDelete: string[],
  onUpdate: string[],
): string[] {
  const { name, table } = def;
  return [
    `create function ${name}_list_sync() returns trigger language plpgsql as $$ begin ` +
      `if tg_op = 'INSERT' then ${onInsert.join(' ')} ` +
      `elsif tg_op = 'DELETE' then ${onDelete.join(' ')} ` +
      `else ${onUpdate.join(' ')} end if; return null; end $$`,
    `create trigger ${name}_list_insert after insert on ${table} referencing new table as new_rows ` +
      `for each statement execute function ${name}_list_sync()`,
    `create trigger ${name}_list_delete after delete on ${table} referencing old table as old_rows ` +
      `for each statement execute function ${name}_list_sync()`,
    `create trigger ${name}_list_update after update on ${table} ` +
      `referencing old table as old_rows new table as new_rows ` +
      `for each statement execute function ${name}_list_sync()`,
  ];
}

function postgresStatements(def: ListStructure): string[] {
  if ((def.searchWhere ?? []).length > 0) return postgresSplitStatements(def);
  const { name, table } = def;
  const out: string[] = [];
  const search = `${name}_search`;
  const hasSearch = def.search.length > 0;
  const hasCounts = def.counts.length > 0;
  if (hasSearch) {
    out.push(`create table ${search} (id integer primary key, doc text not null)`);
    out.push(
      `insert into ${search} (id, doc) select t.id, ${pgDocument('t', def)} from ${table} t`,
    );
    out.push(`create index ${search}_doc on ${search} using gin (doc gin_trgm_ops)`);
  }
  const onInsert = [
    ...(hasCounts ? [pgCountDelta(def, [{ rows: 'new_rows', sign: 1 }])] : []),
    ...(hasSearch
      ? [`insert into ${search} (id, doc) select n.id, ${pgDocument('n', def)} from new_rows n;`]
      : []),
  ];
  const onDelete = [
    ...(hasCounts ? [pgCountDelta(def, [{ rows: 'old_rows', sign: -1 }])] : []),
    ...(hasSearch ? [`delete from ${search} where id in (select id from old_rows);`] : []),
  ];
  const onUpdate = [
    ...(hasCounts
      ? [
          pgCountDelta(def, [
            { rows: 'new_rows', sign: 1 },
            { rows: 'old_rows', sign: -1 },
          ]),
        ]
      : []),
    ...(hasSearch
      ? [
          `update ${search} s set doc = ${pgDocument('n', def)} from new_rows n ` +
            `where s.id = n.id and s.doc is distinct from ${pgDocument('n', def)};`,
        ]
      : []),
  ];
  out.push(...pgSync(def, onInsert, onDelete, onUpdate));
  return out;
}

/** The counts of a list's rows as they are now, for one grouping set (a backfill or a recount). */
function countsFromTable(def: ListStructure, g: number, d: Dialect): string {
  const set = def.counts[g]!;
  return (
    `insert into list_counts (list, grp, k1, k2, k3, k4, n) ` +
    `select '${def.name}', ${g}, ${keys('t', set, d.kind).join(', ')}, count(*) from ${def.table} t` +
    (set.length > 0 ? ` group by ${keys('t', set, d.kind).slice(0, set.length).join(', ')}` : '')
  );
}

/** Creates a list's counts (filled from the table), search structure and triggers. */
export async function installList(db: Kysely<any>, d: Dialect, def: ListStructure): Promise<void> {
  check(def);
  const statements = d.kind === 'postgres' ? postgresStatements(def) : sqliteStatements(def);
  for (const statement of statements) await sql.raw(statement).execute(db);
  for (let g = 0; g < def.counts.length; g++) {
    await sql.raw(countsFromTable(def, g, d)).execute(db);
  }
}

/**
 * Removes what `installList` made for a list (triggers, search structure, counts), for a migration
 * that reinstalls it differently.
 */
export async function uninstallList(
  db: Kysely<any>,
  d: Dialect,
  def: Pick<ListStructure, 'name' | 'table'>,
): Promise<void> {
  ident(def.name);
  ident(def.table);
  const { name, table } = def;
  const statements =
    d.kind === 'postgres'
      ? [
          ...['insert', 'delete', 'update'].map(
            (op) => `drop trigger if exists ${name}_list_${op} on ${table}`,
          ),
          `drop function if exists ${name}_list_sync()`,
          `drop table if exists ${name}_search`,
          `drop table if exists ${name}_rest_search`,
        ]
      : [
          ...['insert', 'delete', 'recount', 'reindex'].map(
            (op) => `drop trigger if exists ${name}_list_${op}`,
          ),
          `drop table if exists ${name}_search`,
          `drop table if exists ${name}_rest_search`,
          `drop view if exists ${name}_search_rows`,
          `drop view if exists ${name}_rest_search_rows`,
        ];
  for (const statement of statements) await sql.raw(statement).execute(db);
  await sql`delete from list_counts where list = ${name}`.execute(db);
}

/**
 * Rebuilds a list's counts and search index from its table (after a bulk load that bypassed
 * triggers, or to repair). Runs in one transaction.
 */
export async function rebuildList(db: Kysely<any>, d: Dialect, def: ListStructure): Promise<void> {
  check(def);
  await inTransaction(db, async (trx) => {
    await sql`delete from list_counts where list = ${def.name}`.execute(trx);
    for (let g = 0; g < def.counts.length; g++) {
      await sql.raw(countsFromTable(def, g, d)).execute(trx);
    }
    for (const { table: search, holds } of searchParts(def, d.kind)) {
      const where = holds('t') === '' ? '' : ` where ${holds('t')}`;
      if (d.kind === 'postgres') {
        await sql.raw(`delete from ${search}`).execute(trx);
        await sql
          .raw(
            `insert into ${search} (id, doc) select t.id, ${pgDocument('t', def)} from ${def.table} t${where}`,
          )
          .execute(trx);
      } else {
        await sql.raw(`insert into ${search} (${search}) values ('rebuild')`).execute(trx);
      }
    }
  });
}

/**
 * What is wrong with a list's counts and search index, compared with its table (nothing: an
 * empty array). Every test server runs it when it closes; `npm run admin -- check-lists` too.
 */
export async function checkList(
  db: Kysely<any>,
  d: Dialect,
  def: ListStructure,
): Promise<string[]> {
  check(def);
  const problems: string[] = [];
  for (let g = 0; g < def.counts.length; g++) {
    const set = def.counts[g]!;
    const k = keys('t', set, d.kind);
    const expected = await sql
      .raw<Record<string, unknown>>(
        `select ${k.map((e, i) => `${e} as ${COUNT_KEYS[i]}`).join(', ')}, count(*) as n ` +
          `from ${def.table} t` +
          (set.length > 0 ? ` group by ${k.slice(0, set.length).join(', ')}` : ''),
      )
      .execute(db);
    const actual = await sql<Record<string, unknown>>`
      select k1, k2, k3, k4, n from list_counts
      where list = ${def.name} and grp = ${g} and n <> 0`.execute(db);
    const key = (r: Record<string, unknown>) => COUNT_KEYS.map((c) => String(r[c])).join('|');
    const want = new Map(
      expected.rows.filter((r) => Number(r.n) !== 0).map((r) => [key(r), Number(r.n)]),
    );
    const have = new Map(actual.rows.map((r) => [key(r), Number(r.n)]));
    for (const [k2, n] of want) {
      if (have.get(k2) !== n)
        problems.push(`${def.name} set ${g} [${k2}]: ${have.get(k2) ?? 0} kept, ${n} in the table`);
    }
    for (const [k2, n] of have) {
      if (!want.has(k2)) problems.push(`${def.name} set ${g} [${k2}]: ${n} kept, 0 in the table`);
    }
  }
  for (const { table: search, holds } of searchParts(def, d.kind)) {
    if (d.kind === 'postgres') {
      const held =
        holds('t') === '' ? def.table : `(select * from ${def.table} t where ${holds('t')})`;
      const { rows } = await sql
        .raw<{ n: number }>(
          `select count(*) as n from ${held} t full join ${search} s on s.id = t.id ` +
            `where s.id is null or t.id is null or s.doc is distinct from ${pgDocument('t', def)}`,
        )
        .execute(db);
      const n = Number(rows[0]?.n ?? 0);
      if (n > 0) problems.push(`${search}: ${n} rows differ from ${def.table}`);
    } else {
      try {
        // rank 1: also compares the index with the table (or view of its rows) it indexes.
        await sql
          .raw(`insert into ${search} (${search}, rank) values ('integrity-check', 1)`)
          .execute(db);
      } catch (err) {
        problems.push(`${search}: ${(err as Error).message}`);
      }
    }
  }
  return problems;
}
