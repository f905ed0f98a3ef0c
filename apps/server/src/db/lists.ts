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
 * - a page may follow a `cursor` (the `nextCursor` of the page before): it seeks the order index
 *   to its position (keyset, list-keyset.ts), so it costs what the first page costs at any depth;
 *   an export (`walk`) follows the same positions a chunk at a time.
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
import { SEARCH_MIN_LENGTH, type Dialect, type DialectKind } from './dialect.ts';
import { takeRider, type Rider } from './rider.ts';
import { arg, precompile, type Precompiled } from './precompiled.ts';
import { invalidField } from '../http/errors.ts';
import { COUNT_KEYS, type ListStructure } from './list-structures.ts';
import type { ReadPool } from './reads.ts';
import {
  Cursors,
  POSITION_PREFIX,
  keysOf,
  keysetPhases,
  positionColumns,
  positionOf,
  type KeysetPhase,
  type Position,
} from './list-keyset.ts';
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
type IdsBase = SelectQueryBuilder<any, any, any>;

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
  /**
   * A schedule (`live` = now | scheduled | expired, API.md "Planning festivals"): the window's
   * columns and the status a live row holds. Read against the time of the request.
   */
  live: LiveSpec<F> | undefined;
}

/**
 * A list's schedule filter (`ListSpec.live`). now: `status` holds `active` and the request's time
 * is inside [from, until) (a null end is open); scheduled: `from` is later; expired: `until` has
 * passed. Its total stays exact: for `now`, the kept count of the filters and the active status
 * less the active rows outside their window, counted on the window columns' partial indexes
 * (rows without a window are never outside it, so the count reads only scheduled rows); for
 * scheduled and expired, the rows counted on those indexes.
 */
export type LiveSpec<F extends string = string> = {
  from: string;
  until: string;
  status: { filter: F; value: string };
};
export const LIVE_MODES = ['now', 'scheduled', 'expired'] as const;
type LiveMode = (typeof LIVE_MODES)[number];

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
    | 'order'
    | 'sorts'
    | 'caseless'
    | 'searchVia'
    | 'hidden'
    | 'searchIn'
    | 'searchWhere'
    | 'ranges'
    | 'live'
  > & {
    live?: LiveSpec<F>;
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
    live: spec.live,
  };
}

/** The parsed query of a list request: paging, keyword and the area's filters. */
export type PageQuery = {
  limit: number;
  offset: number;
  keyword?: string | undefined;
  /** A field of `sorts`, or `-field` for descending. */
  sort?: string | undefined;
  /** The page after this position (a page's `nextCursor`) instead of `offset`. */
  cursor?: string | undefined;
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
  /**
   * A bounded keyword total past `exactTotalMax`: how many of the newest `exactTotalMax` rows of
   * the filters match (the total is estimated from it and the filters' kept total).
   */
  estimate: Precompiled<{ total: number }> | undefined;
  /** The order's keys but id (how many values a position holds). */
  keys: number;
  /** The statements of a page after a position, compiled when a cursor first asks. */
  keyset: () => KeysetTemplate;
};

/**
 * A shape's pages after a position, per phase of its order (list-keyset.ts): from the phase's
 * start and past a position, each as `Template.page` reads (or its ids, read by ids), and walking
 * the order index when the shape is adaptive.
 */
type KeysetTemplate = Array<{
  nulls: boolean[];
  first: Precompiled<unknown>;
  after: Precompiled<unknown>;
  inOrder: { first: Precompiled<unknown>; after: Precompiled<unknown> } | undefined;
}>;

/**
 * From how many joined tables a PostgreSQL page is read in two statements (`Template.byIds`).
 * Measured at a million rows, one connection: posters (four joins) 3.4 → 1.8 ms a page; users
 * (two) 1.32 ms either way; a wallet page (none) 0.35 → 0.74 ms, the second round trip costing
 * more than the planning it saves.
 */
const TWO_STEP_JOINS = 3;

/**
 * How many index entries a walk visits for the cost of looking up one match. SQLite: an entry
 * checked against the matches' filter costs about a fiftieth of a row lookup. PostgreSQL checks
 * each entry by a probe of the search table's key (a nested loop), about a lookup itself: at ten
 * million users a four-digit phone keyword (3,918 matches) walked 210,252 entries in 450–622 ms
 * where sorting its matches took 41 ms warm, 290–400 ms cold; and a keyword's matches come in runs
 * (a phone number follows its account's id), so a walk visits more than the even spread predicts.
 */
const WALK_VS_LOOKUP: Record<DialectKind, number> = { sqlite: 50, postgres: 2 };
/**
 * The same when the match is through a referenced list (a poster's category or special day): each
 * walked entry reads its row for the column (0.28 µs a poster at a million, against 0.62 µs a
 * match found through the column's index and sorted).
 */
const WALK_VS_LOOKUP_VIA = 2;

type Row = Record<string, unknown>;
type Run = (statements: readonly CompiledQuery[]) => Promise<Row[][]>;

export class Lists {
  readonly #db: Kysely<any>;
  readonly #typedDb: Db;
  readonly #reads: ReadPool;
  readonly #dialect: Dialect;
  readonly #cursors: Cursors;
  readonly #exactTotalMax: number;
  readonly #estimateTtlMs: number;
  /**
   * Estimated totals by list, filters and keyword, for `estimateTtlMs`: a keyword past
   * EXACT_TOTAL_MAX is counted to the cap and sampled once, not on each of the pages a person
   * goes through (at ten million users the capped count alone took 57–82 ms). Only estimates are
   * kept: a total at or under the cap is counted on every page, exact.
   */
  readonly #estimates = new Map<string, { total: number; scope: number; until: number }>();
  /** Keyword counts under way, by the same key: a request asking for one waits for it. */
  readonly #counting = new Map<
    string,
    Promise<{ total: number; scope: number; estimated: boolean }>
  >();
  readonly #camel = new CamelRows();
  readonly #templates = new WeakMap<ListSpec<string, unknown>, Map<string, Template>>();

  /**
   * `cursors` signs the cursors pages hand out (the same secret on every instance);
   * `exactTotalMax` is how many matches of a keyword are counted before its total is estimated;
   * an estimate is kept for `estimateTtlMs`.
   */
  constructor(
    db: Db,
    reads: ReadPool,
    dialect: Dialect,
    options: { cursors?: Cursors; exactTotalMax?: number; estimateTtlMs?: number } = {},
  ) {
    this.#db = db;
    this.#typedDb = db;
    this.#reads = reads;
    this.#dialect = dialect;
    this.#cursors = options.cursors ?? new Cursors();
    this.#exactTotalMax = options.exactTotalMax ?? EXACT_TOTAL_MAX;
    this.#estimateTtlMs = options.estimateTtlMs ?? ESTIMATE_TTL_MS;
  }

  #keepEstimate(key: string, total: number, scope: number) {
    this.#estimates.delete(key);
    if (this.#estimates.size >= MAX_ESTIMATES) {
      this.#estimates.delete(this.#estimates.keys().next().value!);
    }
    this.#estimates.set(key, { total, scope, until: Date.now() + this.#estimateTtlMs });
  }

  /** One page of `spec` for `query`, the count of every row matching it and the next page's cursor. */
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
  ): Promise<{ page: ListResponse<O>; alongside: Row[][] }> {
    // Even a cheap page is read on a reader thread: measured, the request thread serves more
    // requests a second handing its statements over than running them itself.
    let extra: Row[][] = [];
    const answer = await this.answer(
      spec,
      query,
      async (statements) => {
        if (extra.length > 0 || alongside.length === 0) return this.#reads.run(statements);
        const all = await this.#reads.run([...alongside, ...statements]);
        extra = all.slice(0, alongside.length);
        return all.slice(alongside.length);
      },
      takeRider(),
    );
    const { rows, total, nextCursor, estimated } = answer;
    const page = { result: this.#camel.rows(rows) as O[], total, nextCursor };
    return { page: estimated ? { ...page, totalEstimated: true } : page, alongside: extra };
  }

  /**
   * The page's raw rows, the total and the next page's cursor, running the statements with `run`
   * (the bench's floor runs them bare). A keyword's page is planned from its count: a common
   * keyword walks the order index keeping the matches (stopping at the page), a rare one sorts
   * its few matches. `rider` (the request's access check, db/rider.ts) is read with the first
   * statements and settled before anything else is read.
   */
  async answer(
    spec: ListSpec<string, unknown>,
    query: PageQuery & Readonly<Record<string, unknown>>,
    bare: Run,
    rider?: Rider,
  ): Promise<{ rows: Row[]; total: number; nextCursor: string | null; estimated: boolean }> {
    const { template, values, order } = this.#prepare(spec, query);
    const run = rider ? this.#riding(bare, rider, template.count.sql) : bare;
    const position = this.#position(spec, order, template, query);
    const { adaptive } = template;
    let rows: Row[];
    let total: number;
    let estimated = false;
    if (adaptive) {
      let scope: number;
      const countQuery = template.count.fill(values);
      // The count's own statement and values: the same key counts the same rows.
      const key =
        template.estimate && `${countQuery.sql}\u0000${JSON.stringify(countQuery.parameters)}`;
      const kept = key ? this.#estimates.get(key) : undefined;
      /** The count and the filters' kept total, and past the cap the estimate (kept). */
      const count = async (counting: Run) => {
        const [countRows = [], scopeRows = []] = await counting([
          countQuery,
          adaptive.scope.fill(values),
        ]);
        const counted = {
          total: Number(countRows[0]?.total ?? 0),
          scope: Number(scopeRows[0]?.total ?? 0),
          estimated: false,
        };
        if (key && template.estimate && counted.total > this.#exactTotalMax) {
          const [[sample] = []] = await counting([template.estimate.fill(values)]);
          counted.total = estimateTotal(
            Number(sample?.total ?? 0),
            counted.scope,
            this.#exactTotalMax,
          );
          counted.estimated = true;
          this.#keepEstimate(key, counted.total, counted.scope);
        }
        return counted;
      };
      if (kept && kept.until > Date.now()) {
        ({ total, scope } = kept);
        estimated = true;
      } else if (key) {
        // Requests for the same count while it runs wait for it rather than count again (fifty
        // callers starting the same 1 % keyword's count at once made each take seconds). Run
        // bare: a request's access check is its own, and rides with its page read instead. The
        // count runs within the first request's deadline: the others share its failure (a 503).
        let pending = this.#counting.get(key);
        if (!pending) {
          pending = count(bare).finally(() => this.#counting.delete(key));
          this.#counting.set(key, pending);
        }
        ({ total, scope, estimated } = await pending);
      } else {
        ({ total, scope, estimated } = await count(run));
      }
      if (total === 0 || (position === undefined && !estimated && total <= query.offset)) {
        return { rows: [], total, nextCursor: null, estimated };
      }
      const inOrder = walksInOrder(adaptive, total, scope, query);
      ({ rows } = await this.#read(template, values, position, inOrder, run));
    } else {
      const read = await this.#read(template, values, position, false, run, [
        template.count.fill(values),
      ]);
      rows = read.rows;
      total = Number(read.alongside[0]?.[0]?.total ?? 0);
    }
    // A full page has a next one, unless the (exact) total says the offset's page was the last.
    const more =
      rows.length === query.limit &&
      (position !== undefined || estimated || query.offset + query.limit < total);
    const nextCursor = more
      ? this.#cursors.encode(spec.name, order, positionOf(rows.at(-1)!, template.keys))
      : null;
    return { rows, total, nextCursor, estimated };
  }

  /**
   * `run`, with `rider` read in its first batch and settled once that batch is read: on
   * PostgreSQL folded into the batch's count (`countSql`: an aggregate, so one row always) as
   * columns of its row, so it costs no statement of its own; else (SQLite, or a batch without
   * the count) beside it.
   */
  #riding(run: Run, rider: Rider, countSql: string): Run {
    let first = true;
    return async (statements) => {
      if (!first) return run(statements);
      first = false;
      const at =
        this.#dialect.kind === 'postgres' ? statements.findIndex((q) => q.sql === countSql) : -1;
      if (at < 0) {
        const results = await run([...statements, rider.read]);
        rider.settle(results.at(-1)?.[0]);
        return results.slice(0, -1);
      }
      const batch = [...statements];
      batch[at] = foldInto(batch[at]!, rider.read);
      const results = await run(batch);
      const row = results[at]?.[0];
      rider.settle(row && row.id !== null ? row : undefined);
      return results;
    };
  }

  /** The position a request's `cursor` names, checked (400 naming the field), if it has one. */
  #position(
    spec: ListSpec<string, unknown>,
    order: Order,
    template: Template,
    query: PageQuery,
  ): Position | undefined {
    if (query.cursor === undefined || query.cursor === '') return undefined;
    if (query.offset > 0) {
      throw invalidField('offset', 'Leave it out with a cursor: the cursor is the page’s position');
    }
    return this.#cursors.decode(spec.name, order, query.cursor, template.keys);
  }

  /**
   * A page's raw rows: from the offset (`values[1]`), or past `position`, going on into the
   * order's next phases while the page is short (list-keyset.ts); `alongside` is run in the same
   * batch as the first statement.
   */
  async #read(
    template: Template,
    values: readonly unknown[],
    position: Position | undefined,
    inOrder: boolean,
    run: Run,
    alongside: readonly CompiledQuery[] = [],
  ): Promise<{ rows: Row[]; alongside: Row[][] }> {
    const { byIds, adaptive } = template;
    const limit = values[0] as number;
    const filled = [...values];
    let statement: CompiledQuery;
    let phases: KeysetTemplate | undefined;
    let phase = -1;
    const variant = (p: KeysetTemplate[number]) => (inOrder ? p.inOrder! : p);
    if (position === undefined) {
      const page = byIds
        ? inOrder
          ? adaptive!.idsInOrder!
          : byIds.ids
        : inOrder
          ? adaptive!.pageInOrder
          : template.page;
      statement = page.fill(filled);
    } else {
      phases = template.keyset();
      phase = phases.findIndex((p) =>
        p.nulls.every((isNull, j) => isNull === (position.keys[j] === null)),
      );
      filled[1] = 0;
      filled.push(...position.keys, position.id);
      statement = variant(phases[phase]!).after.fill(filled);
    }
    const [first = [], ...rest] = await run([statement, ...alongside]);
    let rows = first;
    while (phases && rows.length < limit && ++phase < phases.length) {
      filled[0] = limit - rows.length;
      const [more = []] = await run([variant(phases[phase]!).first.fill(filled)]);
      rows = rows.concat(more);
    }
    if (byIds && rows.length > 0) {
      [rows = []] = await run([byIds.rows.fill([rows.map((r) => r.id)])]);
    }
    return { rows, alongside: rest };
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
    if (template.estimate) all.push(template.estimate);
    const filled = all.map((t) => t.fill(values));
    if (template.byIds) {
      filled.push(template.byIds.ids.fill(values), template.byIds.rows.fill([[1, 2, 3]]));
    }
    return filled;
  }

  /**
   * The statements of a page of `limit` rows past a position (a cursor's page, an export's chunk),
   * with a made-up position (for the query-plan tests).
   */
  keysetStatements(
    spec: ListSpec<string, unknown>,
    query: Omit<PageQuery, 'limit' | 'offset'> & Readonly<Record<string, unknown>>,
    limit: number,
  ): CompiledQuery[] {
    const { template, values } = this.#prepare(spec, { ...query, limit, offset: 0 });
    const filled = [...values, ...Array<string>(template.keys).fill('0'), 5];
    return template
      .keyset()
      .flatMap((p) =>
        [p.first, p.after, ...(p.inOrder ? [p.inOrder.first, p.inOrder.after] : [])].map((s) =>
          s.fill(filled),
        ),
      );
  }

  #prepare(spec: ListSpec<string, unknown>, query: PageQuery & Readonly<Record<string, unknown>>) {
    const filters = activeFilters(spec, query);
    const keyword = query.keyword === undefined || query.keyword === '' ? undefined : query.keyword;
    const kind: KeywordKind =
      keyword === undefined ? 'none' : isIndexable(keyword) ? 'indexed' : 'scan';
    const order = orderOf(spec, query.sort);
    const live = liveOf(spec, query);
    const search = searchPlan(spec, filters, live !== undefined);
    const shape =
      `${filters.map((f) => `${f.key}:${typeof f.value}`).join(',')}|${kind}|${query.sort ?? ''}` +
      `|${search.structures.join('+')}${search.exact ? '=' : ''}|${live ?? ''}`;
    let templates = this.#templates.get(spec);
    if (!templates) this.#templates.set(spec, (templates = new Map<string, Template>()));
    let template = templates.get(shape);
    if (!template) {
      templates.set(shape, (template = this.#compile(spec, filters, kind, order, search, live)));
    }

    // The values in the order #compile numbered them (a position's values follow).
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
      // The request's time, as the window columns hold instants (ISO UTC text on SQLite).
      new Date().toISOString(),
    ];
    return { template, values, order };
  }

  /**
   * Every row matching `query` (its filters, keyword and sort; no paging) in the list's order,
   * `chunkRows` at a time, camelCased as `page` answers them. Each chunk is a page past the last
   * row of the one before (keyset, as a cursor's page), so a chunk costs the same at the
   * millionth row as at the first and rows written meanwhile neither repeat nor shift others.
   * The walk reads a chunk only when the consumer asks for it, and stops when the consumer stops
   * (an export whose client went away).
   */
  async *walk<O>(
    spec: ListSpec<string, O>,
    query: Omit<PageQuery, 'limit' | 'offset'> & Readonly<Record<string, unknown>>,
    chunkRows: number,
  ): AsyncGenerator<O[], void, undefined> {
    const pageQuery = { ...query, limit: chunkRows, offset: 0, cursor: undefined };
    const { template, values } = this.#prepare(spec, pageQuery);
    const run: Run = (statements) => this.#reads.run(statements);
    let inOrder = false;
    if (template.adaptive) {
      const [countRows = [], scopeRows = []] = await run([
        template.count.fill(values),
        template.adaptive.scope.fill(values),
      ]);
      const total = Number(countRows[0]?.total ?? 0);
      if (total === 0) return;
      const scope = Number(scopeRows[0]?.total ?? 0);
      inOrder = walksInOrder(template.adaptive, total, scope, pageQuery);
    }
    let position: Position | undefined;
    for (;;) {
      const { rows } = await this.#read(template, values, position, inOrder, run);
      if (rows.length > 0) yield this.#camel.rows(rows) as O[];
      if (rows.length < chunkRows) return;
      position = positionOf(rows.at(-1)!, template.keys);
    }
  }

  /** Builds a shape's statements with numbered stand-ins (precompiled.ts) for the values. */
  #compile(
    spec: ListSpec<string, unknown>,
    shapeFilters: Filter[],
    kind: KeywordKind,
    order: Order,
    search: SearchPlan,
    live: LiveMode | undefined,
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
    const at = arg(3 + 2 * n);
    const window = live && spec.live;
    const active = window
      ? {
          column: (spec.filters as Record<string, string>)[window.status.filter]!,
          value: window.status.value,
        }
      : undefined;
    /** The schedule's condition of `live` (null ends open). */
    const inWindow = (eb: ExpressionBuilder<any, any>) => {
      if (!window) return eb.lit(true);
      const { from, until } = window;
      if (live === 'scheduled') return eb(from, '>', at);
      if (live === 'expired') return eb(until, '<=', at);
      return eb.and([
        eb(active!.column, '=', sql.lit(active!.value)),
        eb.or([eb(from, 'is', null), eb(from, '<=', at)]),
        eb.or([eb(until, 'is', null), eb(until, '>', at)]),
      ]);
    };

    const where = <Q extends SelectQueryBuilder<any, any, any>>(
      qb: Q,
      inOrder = false,
      keyword = true,
    ): Q => {
      let q = qb;
      for (const f of filters) q = q.where(f.column, f.op, f.value) as Q;
      if (hidden) q = q.where(hidden.column, '<>', sql.lit(hidden.value)) as Q;
      if (window) q = q.where(inWindow) as Q;
      if (!keyword) return q;
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
    // `keyset` narrows the rows to a phase of the order, or past a position in it (list-keyset.ts).
    const idsOf = (inOrder: boolean, keyset: <Q extends IdsBase>(q: Q) => Q = (q) => q) => {
      if (fenced && !inOrder) {
        const columns = [...new Set(['id', ...order.map(([column]) => column)])];
        const matches = keyset(where(this.#db.selectFrom(spec.table).select(columns)))
          .offset(sql.lit(0))
          .as('m');
        let ids = this.#db.selectFrom(matches).select('m.id as id');
        for (const [column, direction] of order) {
          ids = ids.orderBy(sortKeyOf(spec, column, 'm'), direction);
        }
        return ids.limit(arg<number>(0)).offset(arg<number>(1)) as IdsQuery;
      }
      let ids = keyset(where(this.#db.selectFrom(spec.table).select('id'), inOrder));
      for (const [column, direction] of order) ids = ids.orderBy(sortKey(column), direction);
      return ids.limit(arg<number>(0)).offset(arg<number>(1)) as IdsQuery;
    };
    // Each row carries its position in the order, for the next page's cursor.
    const position = positionColumns(spec, this.#dialect, order);
    const rowsOf = (ids: IdsQuery) => {
      let page = spec.rows(this.#typedDb, ids).select(position);
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

    // The filters' total kept in list_counts, when a grouping set holds them all (for `live=now`,
    // with the active status too).
    const g = countSet(
      spec,
      [...shapeFilters.map((f) => f.key), ...(live === 'now' ? [window!.status.filter] : [])],
      hidden?.filter,
    );
    let kept: SelectQueryBuilder<any, any, { total: number }> | undefined;
    if (g !== undefined) {
      // The list and group written into the statement, not bound: constants of this shape, and
      // known to the plan PostgreSQL keeps for it (bound, it judged its plan for any list and
      // planned every call anew: 0.65 ms a call with the access check folded in).
      kept = this.#db
        .selectFrom('listCounts')
        .select(sql<number>`coalesce(sum(n), 0)`.as('total'))
        .where('list', '=', sql.lit(spec.name))
        .where('grp', '=', sql.lit(g));
      const set = spec.counts[g]!;
      for (const f of filters) kept = kept.where(COUNT_KEYS[set.indexOf(f.key)]!, '=', f.text);
      if (hidden) {
        kept = kept.where(COUNT_KEYS[set.indexOf(hidden.filter)]!, '<>', sql.lit(hidden.value));
      }
      if (live === 'now') {
        const k = COUNT_KEYS[set.indexOf(window!.status.filter)]!;
        kept = kept.where(k, '=', sql.lit(window!.status.value));
      }
    }
    // A schedule: the kept counts cannot know the time. `now` is the active rows of the filters
    // (kept) less those outside their window, counted through the window columns' partial
    // indexes; scheduled and expired are counted there (the table, below). The keyword's count
    // and plans from the kept total are left to the table.
    let liveNow: SelectQueryBuilder<any, any, { total: number }> | undefined;
    if (window) {
      if (live === 'now' && kind === 'none' && kept !== undefined) {
        // The filters and status as plain conditions on SQLite (`+column`): its planner, which
        // has no statistics of the window columns, would otherwise walk an index of the status or
        // app (most of the table) rather than the two partial indexes of scheduled rows.
        const plain = (column: string) =>
          this.#dialect.kind === 'sqlite' ? sql`+${sql.ref(column)}` : sql.ref(column);
        // Not yet live and ended, each counted on its own window index (index-only: it holds the
        // app and status): an OR of the two read every scheduled row's table row on PostgreSQL.
        // The two never overlap: a window ends after it starts (the calls refuse any other).
        const outside = (side: 'from' | 'until') => {
          let q = this.#db.selectFrom(spec.table).select(sql<number>`count(*)`.as('total'));
          for (const f of filters) q = q.where(plain(f.column), f.op, f.value);
          if (hidden) q = q.where(plain(hidden.column), '<>', sql.lit(hidden.value));
          q = q.where(plain(active!.column), '=', sql.lit(active!.value));
          return side === 'from' ? q.where(window.from, '>', at) : q.where(window.until, '<=', at);
        };
        liveNow = this.#db.selectNoFrom(
          sql<number>`(${kept}) - (${outside('from')}) - (${outside('until')})`.as('total'),
        ) as SelectQueryBuilder<any, any, { total: number }>;
      }
      kept = undefined;
    }

    // A keyword searching the list's own columns, with a kept total of its filters: counted
    // exactly up to `exactTotalMax` matches (the count stops there), estimated past it (`answer`).
    const bounded = kind === 'indexed' && kept !== undefined && spec.search.length > 0;
    const counted = (matches: SelectQueryBuilder<any, any, any>) =>
      bounded
        ? this.#db
            .selectFrom(matches.limit(sql.lit(this.#exactTotalMax + 1)).as('c'))
            .select(sql<number>`count(*)`.as('total'))
        : matches.clearSelect().select(sql<number>`count(*)`.as('total'));
    let count: SelectQueryBuilder<any, any, { total: number }> | undefined;
    if (kind === 'none') {
      count = kept ?? liveNow;
    } else if (kind === 'indexed' && search.exact) {
      // Counted on the search index alone (which holds this request's rows and no others).
      const structure = this.#dialect.search(search.structures[0]!, pattern);
      count = counted(
        this.#db.selectFrom(structure.table).select(sql.lit(1).as('one')).where(structure.matches),
      );
    }
    if (kind === 'indexed' && spec.search.length === 0 && !window) {
      count ??= this.#viaCount(spec, filters, hidden, pattern);
    }
    count ??= counted(where(this.#db.selectFrom(spec.table).select(sql.lit(1).as('one'))));
    const adaptive =
      kind === 'indexed' && kept !== undefined
        ? {
            pageInOrder: pageOf(true),
            idsInOrder: byIds ? precompile(idsOf(true)) : undefined,
            scope: precompile(kept),
            walkVsLookup:
              spec.searchVia.length > 0 ? WALK_VS_LOOKUP_VIA : WALK_VS_LOOKUP[this.#dialect.kind],
          }
        : undefined;
    let estimate: Precompiled<{ total: number }> | undefined;
    if (bounded) {
      // The matches among the newest rows of the filters (their order index), each checked on
      // its search structure by id: a sample's cost, whatever the table's size.
      let sample = where(this.#db.selectFrom(spec.table).select('id'), false, false);
      for (const [column, direction] of spec.order) {
        sample = sample.orderBy(sortKey(column), direction);
      }
      const sampled = sample.limit(sql.lit(this.#exactTotalMax)).as('s');
      estimate = precompile(
        this.#db
          .selectFrom(sampled)
          .select(sql<number>`count(*)`.as('total'))
          .where((eb) =>
            eb.or(
              search.structures.map((name) =>
                this.#dialect.searchedById(name, pattern, sql.ref('s.id')),
              ),
            ),
          ),
      );
    }
    let keyset: KeysetTemplate | undefined;
    const compileKeyset = (): KeysetTemplate =>
      keysetPhases(spec, this.#dialect, order, 4 + 2 * n).map((phase) => {
        const read = (inOrder: boolean, at: KeysetPhase['first']) =>
          byIds ? precompile(idsOf(inOrder, at)) : rowsOf(idsOf(inOrder, at));
        return {
          nulls: phase.nulls,
          first: read(false, phase.first),
          after: read(false, phase.after),
          inOrder: adaptive
            ? { first: read(true, phase.first), after: read(true, phase.after) }
            : undefined,
        };
      });
    return {
      page: pageOf(false),
      count: precompile(count),
      adaptive,
      estimate,
      byIds,
      keys: keysOf(spec, order).length,
      keyset: () => (keyset ??= compileKeyset()),
    };
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
      // A row's position (for the next cursor) is the list's, not the row's: left out.
      const fields = columns
        .filter((c) => !c.startsWith(POSITION_PREFIX))
        .map((c) => `${JSON.stringify(this.camelCase(c))}: row[${JSON.stringify(c)}]`);
      // eslint-disable-next-line @typescript-eslint/no-implied-eval -- see above: trusted names only
      build = new Function('row', `return { ${fields.join(', ')} };`) as (
        row: Record<string, unknown>,
      ) => Record<string, unknown>;
      this.#builders.set(signature, build);
    }
    return rows.map(build);
  }
}

/**
 * How many matches of a keyword are counted exactly: the count stops past it and the total is
 * estimated (the answer says `totalEstimated`). At ten million rows a 1 % word's exact count took
 * about a second; counting to 10,000 takes a hundredth of that. Not below "Select all matching"'s
 * most (10,000, the web app's MATCHING_MAX), which needs an exact count.
 */
export const EXACT_TOTAL_MAX = 10_000;
/** How long an estimated total is answered again without counting (`Lists`). */
export const ESTIMATE_TTL_MS = 30_000;
/** Estimated totals kept at most (the oldest out first). */
const MAX_ESTIMATES = 1_000;

/**
 * A keyword's total from a sample: `hits` matches among the newest `max` rows of a scope of
 * `scope` rows, scaled, to two significant figures; never at or below what was counted exactly
 * (more than `max`), never above the scope.
 */
export function estimateTotal(hits: number, scope: number, max: number): number {
  const scaled = Number(((hits * scope) / Math.min(max, Math.max(1, scope))).toPrecision(2));
  return Math.min(scope, Math.max(max + 1, scaled));
}

/**
 * Whether a keyword's page walks the order index (keeping its matches) rather than sorting them:
 * walking visits about reach × scope / total index entries; sorting looks up every match.
 */
function walksInOrder(
  adaptive: NonNullable<Template['adaptive']>,
  total: number,
  scope: number,
  query: PageQuery,
): boolean {
  const reach = (query.cursor ? 0 : query.offset) + query.limit;
  return total * total * adaptive.walkVsLookup > reach * scope;
}

/** Folded statements by the two they fold (PostgreSQL names each text once per connection). */
const folded = new Map<string, string>();

/**
 * `count` with `rider`'s row as more columns of its one row (nulls when the rider reads none):
 * `rider`'s placeholders renumbered after `count`'s. Neither may name a column of the other.
 */
function foldInto(count: CompiledQuery, rider: CompiledQuery): CompiledQuery {
  const key = `${count.sql}\u0000${rider.sql}`;
  let sql = folded.get(key);
  if (sql === undefined) {
    const shift = count.parameters.length;
    const renumbered = rider.sql.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + shift}`);
    sql = `select c.*, r.* from (${count.sql}) as c left join (${renumbered}) as r on true`;
    if (folded.size >= 500) folded.clear();
    folded.set(key, sql);
  }
  return { ...count, sql, parameters: [...count.parameters, ...rider.parameters] };
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

/** The request's `live` filter, when the list has a schedule and it is asked for. */
function liveOf(spec: ListSpec, query: Readonly<Record<string, unknown>>): LiveMode | undefined {
  const value = query.live;
  if (spec.live === undefined || value === undefined || value === null || value === '') return;
  if (!(LIVE_MODES as readonly unknown[]).includes(value)) {
    throw new Error(`${spec.name}: live is not one of ${LIVE_MODES.join(', ')}`);
  }
  return value as LiveMode;
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
function searchPlan(spec: ListSpec, filters: readonly Filter[], scheduled = false): SearchPlan {
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
  const bounded = filters.some((f) => f.op !== '=') || spec.searchVia.length > 0 || scheduled;
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
