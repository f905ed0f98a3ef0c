/**
 * The one list mechanism. An area declares its list once (`defineList`: table, filters, the
 * grouping sets its counts are kept for, the searched columns, the order) and answers every list
 * request with `lists.page`. What stays fast at millions of rows is decided here, for every area:
 *
 * - the page is a deferred join: the ids of the page come from an index alone (filters, order,
 *   limit and offset), then only those rows are read with their joins;
 * - `total` is exact and cheap: a sum over `list_counts` (kept by triggers, list-structures.ts)
 *   when a grouping set holds every filter asked for; a keyword is counted on its search index;
 * - keywords of 3+ characters use the trigram index; shorter ones scan, off the request path;
 * - both statements run in the read pool (reads.ts), never on the thread that serves requests;
 * - an export (`walk`) reads every matching row in the list's order, a chunk at a time by keyset
 *   on the order columns (list-walk.ts), each chunk through the list's own `rows` query.
 */
import {
  CamelCasePlugin,
  sql,
  type ExpressionBuilder,
  type CompiledQuery,
  type Kysely,
  type SelectQueryBuilder,
} from 'kysely';
import type { ListResponse } from '@master-admin/contract';
import type { Db } from './connect.ts';
import { SEARCH_MIN_LENGTH, type Dialect } from './dialect.ts';
import { arg, precompile, type Precompiled } from './precompiled.ts';
import { COUNT_KEYS, type ListStructure } from './list-structures.ts';
import type { ReadPool } from './reads.ts';
import { compileWalk, type Walk } from './list-walk.ts';
import type { Database } from './schema.ts';

export type Direction = 'asc' | 'desc';
export type Order = ReadonlyArray<readonly [column: string, direction: Direction]>;

/** API.md's default: newest first, ties broken by id. */
export const NEWEST_FIRST: Order = [
  ['createdAt', 'desc'],
  ['id', 'desc'],
];

// The ids of a page, as a list's row query receives them.
type IdsQuery = SelectQueryBuilder<any, any, { id: number }>;

export interface ListSpec<F extends string = string, O = unknown> {
  /** The list's name in `list_counts` and its search structure (as its migration installed it). */
  name: string;
  /** The base table: one row of it is one row of the list. */
  table: keyof Database;
  /** The alias `rows` gives the base table. */
  alias: string;
  /** Query parameter → base-table column it must equal. */
  filters: Readonly<Record<F, string>>;
  /**
   * Query parameter → base-table column and comparison, for bounds (a date range). A request
   * with a bound is counted on the table, through the index its filters and order use.
   */
  ranges: Readonly<Record<string, { column: string; op: '>=' | '<' }>>;
  /** The grouping sets `list_counts` keeps for this list, in its migration's order. */
  counts: ReadonlyArray<ReadonlyArray<F>>;
  /** Base-table columns the keyword searches, as its migration indexed them. */
  search: ReadonlyArray<string>;
  /**
   * The rows of the table the list's own search structure holds, when not all: base-table columns
   * compared with literals (`searchWhere` of list-structures.ts, which keeps every other row in
   * the list's rest structure). A request asking for exactly these rows (users: role USER, not
   * DELETED) counts a keyword's matches on the structure alone; one asking for rows of the rest
   * searches the rest (DELETED users, staff); one asking for rows of both searches both.
   */
  searchWhere: ReadonlyArray<SearchCondition>;
  /**
   * The list whose search structure this list's keyword uses: one over the same table and
   * columns (staff use the users list's); else its own.
   */
  searchIn: Pick<ListSpec, 'name' | 'searchWhere'> | undefined;
  /**
   * Keyword matches through rows this list's rows point to (a poster's category and special
   * day): a row matches when `column` names a row of `list` whose searched columns contain the
   * keyword, found on that list's own search structure.
   */
  searchVia: ReadonlyArray<SearchVia>;
  /** Row order; the last column must be unique (id) so pages never overlap. */
  order: Order;
  /**
   * Fields a request may `sort` by (the contract's list query allows the same), each served by
   * an index (col, id); ties are broken by id.
   */
  sorts: ReadonlyArray<string>;
  /** Sort fields that are text: sorted whatever the letter case (their index is on lower()). */
  caseless: ReadonlyArray<string>;
  /** The rows of a page, with their columns and joins: `.where('b.id', 'in', ids)`. */
  rows: (db: Db, ids: IdsQuery) => SelectQueryBuilder<any, any, O>;
  /**
   * Rows whose `filter` holds `value` are left out unless that filter is asked for (DELETED
   * accounts: API.md). The filter must be in every grouping set the list's totals come from.
   */
  hidden: { filter: F; value: string } | undefined;
}

/** A base-table column compared with a literal (`ListSpec.searchWhere`). */
export type SearchCondition = { column: string; op: '=' | '<>'; value: string };

/** A list another list's keyword searches through (`ListSpec.searchVia`). */
export type SearchVia = {
  /** The base-table column that holds the other list's row id. */
  column: string;
  list: Pick<ListSpec, 'name' | 'table' | 'search'>;
};

export function defineList<const F extends string, O>(
  spec: Omit<
    ListSpec<F, O>,
    'order' | 'sorts' | 'caseless' | 'searchVia' | 'hidden' | 'searchIn' | 'searchWhere' | 'ranges'
  > & {
    hidden?: { filter: F; value: string };
    searchIn?: Pick<ListSpec, 'name' | 'searchWhere'>;
    searchWhere?: ReadonlyArray<SearchCondition>;
    ranges?: ListSpec['ranges'];
    order?: Order;
    sorts?: ReadonlyArray<string>;
    caseless?: ReadonlyArray<string>;
    searchVia?: ReadonlyArray<SearchVia>;
  },
): ListSpec<F, O> {
  for (const set of spec.counts) {
    if (set.length > COUNT_KEYS.length) throw new Error(`${spec.name}: a count set has > 4 keys`);
    for (const key of set) {
      if (!(key in spec.filters)) throw new Error(`${spec.name}: ${key} counted but no filter`);
    }
  }
  return {
    ...spec,
    order: spec.order ?? NEWEST_FIRST,
    sorts: spec.sorts ?? [],
    caseless: spec.caseless ?? [],
    searchVia: spec.searchVia ?? [],
    hidden: spec.hidden,
    searchIn: spec.searchIn,
    searchWhere: spec.searchWhere ?? [],
    ranges: spec.ranges ?? {},
  };
}

/** The parsed query of a list request: paging, keyword and the area's filters. */
export type PageQuery = {
  limit: number;
  offset: number;
  keyword?: string | undefined;
  /** A field of `sorts`, or `-field` for descending. */
  sort?: string | undefined;
};

type Filter = { key: string; column: string; value: string | number; op: '=' | '>=' | '<' };
type KeywordKind = 'none' | 'indexed' | 'scan';

/**
 * Where an indexed keyword of a request is found: the search structures (named as
 * `Dialect.search` takes them) holding every row the request may show, and whether they hold
 * exactly those rows (then the matches are counted there, with no look-up in the table).
 */
type SearchPlan = { structures: string[]; exact: boolean };

/** The statements of one shape of request (which filters, which kind of keyword), compiled. */
type Template = {
  page: Precompiled<unknown>;
  count: Precompiled<{ total: number }>;
  /**
   * PostgreSQL, for rows joining `TWO_STEP_JOINS` tables or more: the page in two statements, its
   * ids (filters, order, offset), then their rows with the list's joins (values: the ids). As one
   * statement (the joins over a semi-join on the ids) it was planned anew for every request, and
   * planning took longer than running it; the rows statement alone has one good plan whatever the
   * ids, so PostgreSQL keeps a generic plan of it and plans only the one-table ids statement.
   */
  byIds: { ids: Precompiled<{ id: number }>; rows: Precompiled<unknown> } | undefined;
  /**
   * A keyword's page walking the order index instead (and, read by ids, its ids statement), and
   * the kept total of its filters: which of the two reads the page is decided from the exact count
   * of matches and that total, never from a planner's guess at a substring (`answer`).
   */
  adaptive:
    | {
        pageInOrder: Precompiled<unknown>;
        idsInOrder: Precompiled<{ id: number }> | undefined;
        scope: Precompiled<{ total: number }>;
        /** How many entries a walk visits for the cost of sorting in one match. */
        walkVsLookup: number;
      }
    | undefined;
};

/**
 * From how many joined tables a PostgreSQL page is read in two statements (`Template.byIds`).
 * Measured at a million rows, one connection: posters (four joins) 3.4 → 1.8 ms a page; users
 * (two) 1.32 ms either way; a wallet page (none) 0.35 → 0.74 ms, the second round trip costing
 * more than the planning it saves.
 */
const TWO_STEP_JOINS = 3;

/**
 * How many index entries a walk visits for the cost of looking up one match (measured on SQLite:
 * an entry checked against the matches' filter costs about a fiftieth of a row lookup).
 */
const WALK_VS_LOOKUP = 50;
/**
 * The same when the match is through a referenced list (a poster's category or special day): each
 * walked entry reads its row for the column (0.28 µs a poster at a million, against 0.62 µs a
 * match found through the column's index and sorted).
 */
const WALK_VS_LOOKUP_VIA = 2;

export class Lists {
  readonly #db: Kysely<any>;
  readonly #typedDb: Db;
  readonly #reads: ReadPool;
  readonly #dialect: Dialect;
  readonly #camel = new CamelRows();
  readonly #templates = new WeakMap<ListSpec<string, unknown>, Map<string, Template>>();
  readonly #walks = new WeakMap<ListSpec<string, unknown>, Map<string, Walk>>();

  constructor(db: Db, reads: ReadPool, dialect: Dialect) {
    this.#db = db;
    this.#typedDb = db;
    this.#reads = reads;
    this.#dialect = dialect;
  }

  /** One page of `spec` for `query` and the count of every row matching it. */
  async page<O>(
    spec: ListSpec<string, O>,
    query: PageQuery & Readonly<Record<string, unknown>>,
  ): Promise<ListResponse<O>> {
    return (await this.pageWithin(spec, query, [])).page;
  }

  /**
   * `page`, with `alongside` (a check such as "this user exists", precompiled) read in the same
   * batch: one hand-over to the reader thread, or side by side on PostgreSQL, instead of a round
   * trip before the list. Answers the page and each statement's rows; the caller judges them.
   */
  async pageWithin<O>(
    spec: ListSpec<string, O>,
    query: PageQuery & Readonly<Record<string, unknown>>,
    alongside: readonly CompiledQuery[],
  ): Promise<{ page: ListResponse<O>; alongside: Array<Record<string, unknown>[]> }> {
    // Even a cheap page is read on a reader thread: measured, the request thread serves more
    // requests a second handing its statements over than running them itself.
    let extra: Array<Record<string, unknown>[]> = [];
    const { rows, total } = await this.answer(spec, query, async (statements) => {
      if (extra.length > 0 || alongside.length === 0) return this.#reads.run(statements);
      const all = await this.#reads.run([...alongside, ...statements]);
      extra = all.slice(0, alongside.length);
      return all.slice(alongside.length);
    });
    return { page: { result: this.#camel.rows(rows) as O[], total }, alongside: extra };
  }

  /**
   * The page's raw rows and the total, running the statements with `run` (the bench's floor runs
   * them bare). On SQLite a keyword's page is planned from its count: a common keyword walks the
   * order index keeping the matches (stopping at the page), a rare one sorts its few matches.
   */
  async answer(
    spec: ListSpec<string, unknown>,
    query: PageQuery & Readonly<Record<string, unknown>>,
    run: (statements: readonly CompiledQuery[]) => Promise<Array<Record<string, unknown>[]>>,
  ): Promise<{ rows: Record<string, unknown>[]; total: number }> {
    const { template, values } = this.#prepare(spec, query);
    const { adaptive, byIds } = template;
    /** The page's rows from its ids statement's answer (read by ids). */
    const byTheIds = async (idRows: Array<{ id?: unknown }>) => {
      if (idRows.length === 0) return [];
      const [rows = []] = await run([byIds!.rows.fill([idRows.map((r) => r.id)])]);
      return rows;
    };
    if (!adaptive) {
      const [pageRows = [], countRows = []] = await run([
        (byIds ? byIds.ids : template.page).fill(values),
        template.count.fill(values),
      ]);
      const total = Number(countRows[0]?.total ?? 0);
      return { rows: byIds ? await byTheIds(pageRows) : pageRows, total };
    }
    const [countRows = [], scopeRows = []] = await run([
      template.count.fill(values),
      adaptive.scope.fill(values),
    ]);
    const total = Number(countRows[0]?.total ?? 0);
    if (total <= query.offset) return { rows: [], total };
    // Walking visits about reach × scope / total index entries; sorting looks up every match.
    const scope = Number(scopeRows[0]?.total ?? 0);
    const reach = query.offset + query.limit;
    const walk = total * total * adaptive.walkVsLookup > reach * scope;
    if (byIds) {
      const ids = walk ? adaptive.idsInOrder! : byIds.ids;
      const [idRows = []] = await run([ids.fill(values)]);
      return { rows: await byTheIds(idRows), total };
    }
    const [rows = []] = await run([(walk ? adaptive.pageInOrder : template.page).fill(values)]);
    return { rows, total };
  }

  /** Every statement `answer` may run for a request, compiled (for the query-plan tests). */
  statements(
    spec: ListSpec<string, unknown>,
    query: PageQuery & Readonly<Record<string, unknown>>,
  ): CompiledQuery[] {
    const { template, values } = this.#prepare(spec, query);
    const all = [template.page, template.count];
    if (template.adaptive) all.push(template.adaptive.pageInOrder, template.adaptive.scope);
    if (template.adaptive?.idsInOrder) all.push(template.adaptive.idsInOrder);
    const filled = all.map((t) => t.fill(values));
    if (template.byIds) {
      filled.push(template.byIds.ids.fill(values), template.byIds.rows.fill([[1, 2, 3]]));
    }
    return filled;
  }

  #prepare(spec: ListSpec<string, unknown>, query: PageQuery & Readonly<Record<string, unknown>>) {
    const filters = activeFilters(spec, query);
    const keyword = query.keyword === undefined || query.keyword === '' ? undefined : query.keyword;
    const kind: KeywordKind =
      keyword === undefined ? 'none' : isIndexable(keyword) ? 'indexed' : 'scan';
    const order = orderOf(spec, query.sort);
    const search = searchPlan(spec, filters);
    const shape =
      `${filters.map((f) => `${f.key}:${typeof f.value}`).join(',')}|${kind}|${query.sort ?? ''}` +
      `|${search.structures.join('+')}${search.exact ? '=' : ''}`;
    let templates = this.#templates.get(spec);
    if (!templates) this.#templates.set(spec, (templates = new Map<string, Template>()));
    let template = templates.get(shape);
    if (!template) {
      templates.set(shape, (template = this.#compile(spec, filters, kind, order, search)));
    }

    // The values in the order #compile numbered them.
    const pattern =
      keyword === undefined
        ? undefined
        : kind === 'indexed'
          ? this.#dialect.searchPattern(keyword)
          : this.#dialect.containsPattern(keyword);
    const values = [
      query.limit,
      query.offset,
      ...filters.map((f) => f.value),
      ...filters.map((f) => String(f.value)),
      pattern,
    ];
    return { template, values, shape, filters, kind, order, search };
  }

  /**
   * Every row matching `query` (its filters, keyword and sort; no paging) in the list's order,
   * `chunkRows` at a time, camelCased as `page` answers them. Each chunk is one statement in the
   * read pool: the list's `rows` over the next ids by keyset on the order columns, so a chunk
   * costs the same at the millionth row as at the first and rows written meanwhile neither
   * repeat nor shift others. The walk reads a chunk only when the consumer asks for it, and
   * stops when the consumer stops (an export whose client went away).
   */
  async *walk<O>(
    spec: ListSpec<string, O>,
    query: Omit<PageQuery, 'limit' | 'offset'> & Readonly<Record<string, unknown>>,
    chunkRows: number,
  ): AsyncGenerator<O[], void, undefined> {
    const { walk, values } = this.#walkOf(spec, query, chunkRows);
    for (const phase of walk.phases) {
      let last: unknown;
      for (;;) {
        values[1] = last;
        const statement = (last === undefined ? phase.first : phase.after).fill(values);
        const [rows = []] = await this.#reads.run([statement]);
        if (rows.length > 0) {
          yield this.#camel.rows(rows) as O[];
        }
        if (rows.length < chunkRows) break;
        last = rows.at(-1)!.id;
      }
    }
  }

  /** The statements an export of `query` runs, with a last row's id (for the query-plan tests). */
  walkStatements(
    spec: ListSpec<string, unknown>,
    query: Omit<PageQuery, 'limit' | 'offset'> & Readonly<Record<string, unknown>>,
    chunkRows: number,
    lastId: number,
  ): CompiledQuery[] {
    const { walk, values } = this.#walkOf(spec, query, chunkRows);
    values[1] = lastId;
    return walk.phases.flatMap((p) => [p.first.fill(values), p.after.fill(values)]);
  }

  #walkOf<O>(
    spec: ListSpec<string, O>,
    query: Omit<PageQuery, 'limit' | 'offset'> & Readonly<Record<string, unknown>>,
    chunkRows: number,
  ): { walk: Walk; values: unknown[] } {
    const prepared = this.#prepare(spec, { ...query, limit: chunkRows, offset: 0 });
    let walks = this.#walks.get(spec);
    if (!walks) this.#walks.set(spec, (walks = new Map<string, Walk>()));
    let walk = walks.get(prepared.shape);
    if (!walk) {
      // The ids statement a page of this shape selects (filters, hidden rows, keyword, order),
      // taken as #compile builds it, so the export matches the list exactly.
      let ids: IdsQuery | undefined;
      const capture: ListSpec<string, O> = {
        ...spec,
        rows: (db, q) => {
          ids = q;
          return spec.rows(db, q);
        },
      };
      this.#compile(capture, prepared.filters, prepared.kind, prepared.order, prepared.search);
      walk = compileWalk(this.#typedDb, this.#dialect, spec, ids!, prepared.order);
      walks.set(prepared.shape, walk);
    }
    return { walk, values: [...prepared.values] };
  }

  /** Builds a shape's statements with numbered stand-ins (precompiled.ts) for the values. */
  #compile(
    spec: ListSpec<string, unknown>,
    shapeFilters: Filter[],
    kind: KeywordKind,
    order: Order,
    search: SearchPlan,
  ): Template {
    const sortKey = (column: string, alias?: string) => sortKeyOf(spec, column, alias);
    const n = shapeFilters.length;
    // Hidden rows leave the list unless the request filters on that field. The value is a
    // literal, so PostgreSQL can use a partial index that leaves those rows out.
    const hidden =
      spec.hidden && !shapeFilters.some((f) => f.key === spec.hidden!.filter)
        ? { ...spec.hidden, column: (spec.filters as Record<string, string>)[spec.hidden.filter]! }
        : undefined;
    const filters = shapeFilters.map((f, i) => ({ ...f, value: arg(2 + i), text: arg(2 + n + i) }));
    const pattern = arg(2 + 2 * n);

    const where = <Q extends SelectQueryBuilder<any, any, any>>(qb: Q, inOrder = false): Q => {
      let q = qb;
      for (const f of filters) q = q.where(f.column, f.op, f.value) as Q;
      if (hidden) q = q.where(hidden.column, '<>', sql.lit(hidden.value)) as Q;
      if (kind === 'indexed') {
        const matching = (list: string) => {
          const search = this.#dialect.search(list, pattern);
          return this.#db
            .selectFrom(search.table)
            .select(sql.ref(search.id).as('id'))
            .where(search.matches);
        };
        q = q.where((eb) =>
          eb.or([
            ...(spec.search.length > 0
              ? // Kept from the id index, the planner walks the order index and checks each row.
                search.structures.map((structure) =>
                  eb(
                    inOrder ? this.#dialect.unindexed('id') : sql.ref('id'),
                    'in',
                    matching(structure),
                  ),
                )
              : []),
            ...spec.searchVia.map((via) =>
              // Walking the order index, each row is checked (not found through the column).
              inOrder
                ? eb(this.#dialect.unindexed(via.column), 'in', matching(via.list.name))
                : this.#dialect.inIds(via.column, matching(via.list.name)),
            ),
          ]),
        ) as Q;
      } else if (kind === 'scan') {
        const contains = (columns: ReadonlyArray<string>) => (eb: ExpressionBuilder<any, any>) =>
          eb.or(columns.map((column) => this.#dialect.contains(column, pattern)));
        q = q.where((eb) =>
          eb.or([
            ...(spec.search.length > 0 ? [contains(spec.search)(eb)] : []),
            ...spec.searchVia.map((via) =>
              eb(
                via.column,
                'in',
                this.#db.selectFrom(via.list.table).select('id').where(contains(via.list.search)),
              ),
            ),
          ]),
        ) as Q;
      }
      return q;
    };

    // PostgreSQL, an indexed keyword: the page's ids are the matches sorted (they are found first,
    // behind a fence the planner does not see through: OFFSET 0), or, walking the order index,
    // the rows checked one by one (`inOrder`); `answer` picks from the exact count, as on SQLite,
    // rather than the planner from its guess at a substring (a guess off by a thousand walked
    // millions of entries for a rare word).
    const fenced = this.#dialect.kind === 'postgres' && kind === 'indexed';
    const idsOf = (inOrder: boolean) => {
      if (fenced && !inOrder) {
        const columns = [...new Set(['id', ...order.map(([column]) => column)])];
        const matches = where(this.#db.selectFrom(spec.table).select(columns))
          .offset(sql.lit(0))
          .as('m');
        let ids = this.#db.selectFrom(matches).select('m.id as id');
        for (const [column, direction] of order) {
          ids = ids.orderBy(sortKeyOf(spec, column, 'm'), direction);
        }
        return ids.limit(arg<number>(0)).offset(arg<number>(1)) as IdsQuery;
      }
      let ids = where(this.#db.selectFrom(spec.table).select('id'), inOrder);
      for (const [column, direction] of order) ids = ids.orderBy(sortKey(column), direction);
      return ids.limit(arg<number>(0)).offset(arg<number>(1)) as IdsQuery;
    };
    const rowsOf = (ids: IdsQuery) => {
      let page = spec.rows(this.#typedDb, ids);
      for (const [column, direction] of order) {
        page = page.orderBy(sortKey(column, spec.alias), direction);
      }
      return precompile(page);
    };
    const pageOf = (inOrder: boolean) => rowsOf(idsOf(inOrder));
    const joins = spec.rows(this.#typedDb, idsOf(false)).toOperationNode().joins?.length ?? 0;
    const byIds =
      this.#dialect.kind === 'postgres' && joins >= TWO_STEP_JOINS
        ? {
            ids: precompile(idsOf(false)),
            rows: rowsOf(
              this.#db.selectNoFrom(sql<number>`unnest(${arg(0)}::int[])`.as('id')) as IdsQuery,
            ),
          }
        : undefined;

    // The filters' total kept in list_counts, when a grouping set holds them all.
    const g = countSet(
      spec,
      shapeFilters.map((f) => f.key),
      hidden?.filter,
    );
    let kept: SelectQueryBuilder<any, any, { total: number }> | undefined;
    if (g !== undefined) {
      kept = this.#db
        .selectFrom('listCounts')
        .select(sql<number>`coalesce(sum(n), 0)`.as('total'))
        .where('list', '=', spec.name)
        .where('grp', '=', g);
      const set = spec.counts[g]!;
      for (const f of filters) kept = kept.where(COUNT_KEYS[set.indexOf(f.key)]!, '=', f.text);
      if (hidden) {
        kept = kept.where(COUNT_KEYS[set.indexOf(hidden.filter)]!, '<>', sql.lit(hidden.value));
      }
    }

    let count: SelectQueryBuilder<any, any, { total: number }> | undefined;
    if (kind === 'none') {
      count = kept;
    } else if (kind === 'indexed' && search.exact) {
      // Counted on the search index alone (which holds this request's rows and no others).
      const structure = this.#dialect.search(search.structures[0]!, pattern);
      count = this.#db
        .selectFrom(structure.table)
        .select(sql<number>`count(*)`.as('total'))
        .where(structure.matches);
    }
    if (kind === 'indexed' && spec.search.length === 0) {
      count ??= this.#viaCount(spec, filters, hidden, pattern);
    }
    count ??= where(this.#db.selectFrom(spec.table).select(sql<number>`count(*)`.as('total')));
    const adaptive =
      kind === 'indexed' && kept !== undefined
        ? {
            pageInOrder: pageOf(true),
            idsInOrder: byIds ? precompile(idsOf(true)) : undefined,
            scope: precompile(kept),
            walkVsLookup: spec.searchVia.length > 0 ? WALK_VS_LOOKUP_VIA : WALK_VS_LOOKUP,
          }
        : undefined;
    return { page: pageOf(false), count: precompile(count), adaptive, byIds };
  }

  /**
   * A keyword through referenced lists (a poster's category or special day), counted from the kept
   * counts rather than the matching rows: by inclusion–exclusion over the referencing columns,
   * each term a sum of `list_counts` rows whose key is one of the matching ids (posters: those of
   * the matching categories, plus those of the matching days, minus those in both). Undefined
   * when a term has no grouping set holding its columns and the request's filters.
   */
  #viaCount(
    spec: ListSpec<string, unknown>,
    filters: ReadonlyArray<Filter & { text: unknown }>,
    hidden: { filter: string; value: string } | undefined,
    pattern: unknown,
  ): SelectQueryBuilder<any, any, { total: number }> | undefined {
    const keyOf = (column: string) =>
      Object.entries<string>(spec.filters).find(([, c]) => c === column)?.[0];
    const vias = spec.searchVia.map((via) => ({ via, key: keyOf(via.column) }));
    if (vias.length === 0 || vias.length > 3 || vias.some((v) => v.key === undefined)) return;
    const terms: Array<{ sign: 1 | -1; sum: SelectQueryBuilder<any, any, any> }> = [];
    for (let mask = 1; mask < 1 << vias.length; mask++) {
      const subset = vias.filter((_, i) => mask & (1 << i));
      const keys = [...filters.map((f) => f.key), ...subset.map((v) => v.key!)];
      const g = countSet(spec, keys, hidden?.filter);
      if (g === undefined) return;
      const set = spec.counts[g]!;
      const k = (key: string) => COUNT_KEYS[set.indexOf(key)]!;
      let sum = this.#db
        .selectFrom('listCounts')
        .select(sql<number>`coalesce(sum(n), 0)`.as('total'))
        .where('list', '=', spec.name)
        .where('grp', '=', g);
      for (const f of filters) sum = sum.where(k(f.key), '=', f.text);
      if (hidden) sum = sum.where(k(hidden.filter), '<>', sql.lit(hidden.value));
      for (const { via, key } of subset) {
        const search = this.#dialect.search(via.list.name, pattern);
        const ids = this.#db
          .selectFrom(search.table)
          .select(sql<string>`cast(${sql.ref(search.id)} as text)`.as('id'))
          .where(search.matches);
        sum = sum.where(this.#dialect.inIds(k(key!), ids));
      }
      terms.push({ sign: subset.length % 2 === 1 ? 1 : -1, sum });
    }
    const total = terms
      .map(({ sign, sum }, i) =>
        i === 0 ? sql`(${sum})` : sql`${sql.raw(sign > 0 ? '+' : '-')} (${sum})`,
      )
      .reduce((a, b) => sql`${a} ${b}`);
    return this.#db.selectNoFrom(sql<number>`${total}`.as('total')) as SelectQueryBuilder<
      any,
      any,
      { total: number }
    >;
  }
}

/**
 * Raw rows with their columns named as the CamelCasePlugin names them. Each set of columns gets a
 * function made for it that builds a row as one object literal: the plugin's generic transform was
 * 7 % of the server's time on a page of posters, and copying key by key into an empty object as
 * much (keyed stores of varying names). The names are the list statements' own columns.
 */
class CamelRows extends CamelCasePlugin {
  readonly #builders = new Map<string, (row: Record<string, unknown>) => Record<string, unknown>>();
  rows(rows: ReadonlyArray<Record<string, unknown>>): Array<Record<string, unknown>> {
    if (rows.length === 0) return [];
    const columns = Object.keys(rows[0]!);
    const signature = columns.join(',');
    let build = this.#builders.get(signature);
    if (!build) {
      const fields = columns.map(
        (c) => `${JSON.stringify(this.camelCase(c))}: row[${JSON.stringify(c)}]`,
      );
      // eslint-disable-next-line @typescript-eslint/no-implied-eval -- see above: trusted names only
      build = new Function('row', `return { ${fields.join(', ')} };`) as (
        row: Record<string, unknown>,
      ) => Record<string, unknown>;
      this.#builders.set(signature, build);
    }
    return rows.map(build);
  }
}

/** What a column sorts by: the column, or lower(column) for a caseless one (as indexed). */
export function sortKeyOf(spec: ListSpec<string, unknown>, column: string, alias?: string) {
  const ref = sql.ref(alias ? `${alias}.${column}` : column);
  return spec.caseless.includes(column) ? sql`lower(${ref})` : ref;
}

/** The order of a request: `sort` (ties by id, the same way), else the list's own. */
function orderOf(spec: ListSpec<string, unknown>, sort: string | undefined): Order {
  if (sort === undefined || sort === '') return spec.order;
  const direction: Direction = sort.startsWith('-') ? 'desc' : 'asc';
  const field = sort.replace(/^-/, '');
  if (!spec.sorts.includes(field)) throw new Error(`${spec.name}: cannot sort by ${field}`);
  return [
    [field, direction],
    ['id', direction],
  ];
}

function activeFilters(spec: ListSpec, query: Readonly<Record<string, unknown>>): Filter[] {
  const filters: Filter[] = [];
  for (const [key, column] of Object.entries<string>(spec.filters)) {
    const value = query[key];
    if (value === undefined || value === null || value === '') continue;
    if (typeof value !== 'string' && typeof value !== 'number') {
      throw new Error(`${spec.name}: filter ${key} is not a string or number`);
    }
    filters.push({ key, column, value, op: '=' });
  }
  for (const [key, { column, op }] of Object.entries(spec.ranges)) {
    const value = query[key];
    if (typeof value === 'string' && value !== '') filters.push({ key, column, value, op });
  }
  return filters;
}

/**
 * The search structures an indexed keyword of a request with `filters` reads (SearchPlan): the
 * list's own (or `searchIn`'s) when it holds every row of the table; when split (`searchWhere`),
 * the part whose condition the request's filters and hidden value imply, else both.
 */
function searchPlan(spec: ListSpec, filters: readonly Filter[]): SearchPlan {
  const owner = spec.searchIn ?? spec;
  const hidden = spec.hidden && !filters.some((f) => f.key === spec.hidden!.filter);
  // What the request asks of the rows, as conditions like the structure's.
  const asked: SearchCondition[] = filters
    .filter((f) => f.op === '=')
    .map((f) => ({ column: f.column, op: '=', value: String(f.value) }));
  if (hidden) {
    const column = (spec.filters as Record<string, string>)[spec.hidden!.filter]!;
    asked.push({ column, op: '<>', value: spec.hidden!.value });
  }
  const bounded = filters.some((f) => f.op !== '=') || spec.searchVia.length > 0;
  const where = owner.searchWhere;
  if (where.length === 0)
    return { structures: [owner.name], exact: !bounded && asked.length === 0 };
  const inPart = where.every((c) => implies(asked, c));
  if (inPart) {
    const exact = !bounded && asked.every((c) => implies(where, c));
    return { structures: [owner.name], exact };
  }
  const rest = `${owner.name}_rest`;
  if (where.some((c) => contradicts(asked, c))) return { structures: [rest], exact: false };
  return { structures: [owner.name, rest], exact: false };
}

/** Every row meeting all of `conditions` meets `c`. */
function implies(conditions: readonly SearchCondition[], c: SearchCondition): boolean {
  return conditions.some(
    (x) =>
      x.column === c.column &&
      (c.op === '='
        ? x.op === '=' && x.value === c.value
        : (x.op === '=' && x.value !== c.value) || (x.op === '<>' && x.value === c.value)),
  );
}

/** No row meeting all of `conditions` meets `c`. */
function contradicts(conditions: readonly SearchCondition[], c: SearchCondition): boolean {
  return conditions.some(
    (x) =>
      x.column === c.column &&
      (c.op === '='
        ? (x.op === '=' && x.value !== c.value) || (x.op === '<>' && x.value === c.value)
        : x.op === '=' && x.value === c.value),
  );
}

/** The smallest grouping set holding every filter asked for (and `also`), if any. */
function countSet(spec: ListSpec, keys: readonly string[], also?: string): number | undefined {
  let best: number | undefined;
  spec.counts.forEach((set, g) => {
    if (!keys.every((key) => set.includes(key))) return;
    if (also !== undefined && !set.includes(also)) return;
    if (best === undefined || set.length < spec.counts[best]!.length) best = g;
  });
  return best;
}

function isIndexable(keyword: string): boolean {
  return [...keyword].length >= SEARCH_MIN_LENGTH;
}

const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** A list as its migration installed it (snake_case), for the checks and a rebuild. */
export function structureOf(spec: ListSpec): ListStructure {
  const filters: Readonly<Record<string, string>> = spec.filters;
  return {
    name: spec.name,
    table: snake(spec.table),
    counts: spec.counts.map((set) => set.map((key) => snake(filters[key]!))),
    // A list searching another's structure has none of its own.
    search: spec.searchIn === undefined ? spec.search.map(snake) : [],
    ...(spec.searchWhere.length > 0
      ? { searchWhere: spec.searchWhere.map((c) => ({ ...c, column: snake(c.column) })) }
      : {}),
  };
}
