/**
 * The statements of a list export (`Lists.walk`): every matching row in the list's order, a chunk
 * at a time, by keyset on the order columns. An offset would make the walk quadratic (the
 * millionth row's chunk skips 999,000 rows first); the keyset seeks the order index to just past
 * the last row sent. Rows written during the walk land before or after that point and never shift
 * the rest, so none is repeated or skipped.
 *
 * A keyset is a row-value comparison, `(key…, id) > (the last row's key…, id)`, which both
 * databases serve from the order index. NULL compares as unknown, so a nullable order column
 * (a poster's date) is walked in phases: its NULL rows and its other rows apart, in the order the
 * database puts them (SQLite: NULLs first ascending, last descending; PostgreSQL the opposite).
 * An empty phase costs one indexed statement that finds nothing.
 */
import { sql, type SelectQueryBuilder } from 'kysely';
import type { Db } from './connect.ts';
import type { Dialect } from './dialect.ts';
import { arg, precompile, type Precompiled } from './precompiled.ts';
import { sortKeyOf, type ListSpec, type Order } from './lists.ts';

/** A phase's first chunk, and the chunk after the row whose id is value 1. */
export type WalkPhase = { first: Precompiled<unknown>; after: Precompiled<unknown> };
export type Walk = { phases: WalkPhase[] };

type IdsQuery = SelectQueryBuilder<any, any, { id: number }>;

/** The alias of the table in the statement that reads the last row's keys. */
const LAST = 'keysetLast';

/**
 * `ids` is the list's page of ids for the shape (filters, hidden rows, keyword; ordered, with the
 * page's limit and offset): the walk takes its limit as the chunk size (value 0) and the last
 * row's id as value 1 instead of the offset.
 */
export function compileWalk(
  db: Db,
  dialect: Dialect,
  spec: ListSpec<string, unknown>,
  ids: IdsQuery,
  order: Order,
): Walk {
  const direction = order[0]![1];
  if (order.some(([, d]) => d !== direction) || order.at(-1)![0] !== 'id') {
    throw new Error(`${spec.name}: an export needs one direction and id last in its order`);
  }
  const keys = order.slice(0, -1).map(([column]) => column);
  const nullsFirst = dialect.kind === 'sqlite' ? direction === 'asc' : direction === 'desc';
  const from = ids.clearLimit().clearOffset().limit(arg<number>(0));

  // Every combination of NULL / not NULL over the key columns, in the order they are sorted.
  let phases: Array<Array<{ column: string; isNull: boolean }>> = [[]];
  for (const column of keys) {
    const first = { column, isNull: nullsFirst };
    const second = { column, isNull: !nullsFirst };
    phases = phases.flatMap((p) => [
      [...p, first],
      [...p, second],
    ]);
  }

  return {
    phases: phases.map((phase) => {
      let q = from;
      for (const { column, isNull } of phase) {
        q = q.where(sql.ref(column), isNull ? 'is' : 'is not', null);
      }
      // Within a phase, NULL key columns are all equal: the keyset is over the others and id.
      const compared = phase.filter((k) => !k.isNull).map((k) => k.column);
      const last = db
        .selectFrom(`${spec.table} as ${LAST}` as any)
        .select([
          ...compared.map((c, i) => sortKeyOf(spec, c, LAST).as(`k${i}`)),
          sql.ref(`${LAST}.id`).as('id'),
        ])
        .where(sql.ref(`${LAST}.id`), '=', arg<number>(1));
      const row = sql.join([...compared.map((c) => sortKeyOf(spec, c)), sql.ref('id')]);
      const after = q.where(
        sql<boolean>`(${row}) ${sql.raw(direction === 'asc' ? '>' : '<')} (${last})`,
      );
      return { first: rowsOf(db, spec, q, order), after: rowsOf(db, spec, after, order) };
    }),
  };
}

/** The list's own rows for a chunk of ids, in the list's order. */
function rowsOf(db: Db, spec: ListSpec<string, unknown>, ids: IdsQuery, order: Order) {
  let rows = spec.rows(db, ids);
  for (const [column, direction] of order) {
    rows = rows.orderBy(sortKeyOf(spec, column, spec.alias), direction);
  }
  return precompile(rows);
}
