/**
 * Keyset paging, for every list: a page that follows a `cursor` (the position just past the last
 * row of the page before) and an export's walk, a chunk at a time. An offset makes the millionth
 * row's page skip 999,000 rows first; a keyset seeks the order index to just past the position,
 * so a page costs the same at any depth. Rows written meanwhile land before or after the position
 * and never shift the rest, so following the cursors neither repeats nor skips a row.
 *
 * A position is the values of the order's keys and the id, as the database sorts them (the
 * caseless keys lowered; on PostgreSQL as text, read back exactly whatever the type), compared as
 * a row value, `(key…, id) < (values…)`, which both databases serve from the order index. NULL
 * compares as unknown, so a nullable key (a poster's date) is walked in phases: its NULL rows and
 * its other rows apart, in the order the database puts them (SQLite: NULLs first ascending, last
 * descending; PostgreSQL the opposite). A page ending a phase goes on into the next.
 *
 * A cursor is signed (HMAC with the server's secret, shared by every instance): a tampered or
 * foreign one is refused with a 400 before a value of it reaches a statement.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { sql, type AliasedRawBuilder, type SelectQueryBuilder } from 'kysely';
import type { Dialect } from './dialect.ts';
import { arg } from './precompiled.ts';
import { invalidField } from '../http/errors.ts';
import { sortKeyOf, type ListSpec, type Order } from './lists.ts';

type Query = SelectQueryBuilder<any, any, any>;

export type KeysetPhase = {
  /** For each order key but id: whether this phase's rows hold NULL there. */
  nulls: boolean[];
  /** The phase's rows. */
  first: <Q extends Query>(q: Q) => Q;
  /** The phase's rows past a position: its key values at `base + j`, its id at `base + keys`. */
  after: <Q extends Query>(q: Q) => Q;
};

/** A position in a list: the order keys' values (as `keyColumns` read them) and the row's id. */
export type Position = { keys: unknown[]; id: number };

/** The column names a page's rows carry their position under (left out of the answer). */
export const POSITION_PREFIX = 'position_';
const positionKey = (j: number) => `${POSITION_PREFIX}k${j}`;
const POSITION_ID = `${POSITION_PREFIX}id`;

/** The order keys but id, checked: one direction, id last (so positions are unique). */
export function keysOf(spec: ListSpec<string, unknown>, order: Order): string[] {
  const direction = order[0]![1];
  if (order.some(([, d]) => d !== direction) || order.at(-1)![0] !== 'id') {
    throw new Error(`${spec.name}: keyset paging needs one direction and id last in its order`);
  }
  return order.slice(0, -1).map(([column]) => column);
}

/**
 * The phases of `order`, their conditions applied to a query on the list's table (unqualified
 * columns); the position's values are `arg(base)` onwards.
 */
export function keysetPhases(
  spec: ListSpec<string, unknown>,
  dialect: Dialect,
  order: Order,
  base: number,
): KeysetPhase[] {
  const keys = keysOf(spec, order);
  const direction = order[0]![1];
  const nullsFirst = dialect.kind === 'sqlite' ? direction === 'asc' : direction === 'desc';
  // Every combination of NULL / not NULL over the keys, in the order they are sorted.
  let phases: boolean[][] = [[]];
  for (let j = 0; j < keys.length; j++) {
    phases = phases.flatMap((p) => [
      [...p, nullsFirst],
      [...p, !nullsFirst],
    ]);
  }
  return phases.map((nulls) => {
    const first = <Q extends Query>(q: Q): Q => {
      let out = q;
      keys.forEach((column, j) => {
        out = out.where(sql.ref(column), nulls[j] ? 'is' : 'is not', null) as Q;
      });
      return out;
    };
    // Within a phase, NULL keys are all equal: the position is over the others and id.
    const compared = keys.flatMap((column, j) => (nulls[j] ? [] : [{ column, j }]));
    const row = sql.join([...compared.map((k) => sortKeyOf(spec, k.column)), sql.ref('id')]);
    const at = sql.join([
      ...compared.map((k) => sql`${arg(base + k.j)}`),
      sql`${arg(base + keys.length)}`,
    ]);
    const op = sql.raw(direction === 'asc' ? '>' : '<');
    const after = <Q extends Query>(q: Q): Q =>
      first(q).where(sql<boolean>`(${row}) ${op} (${at})`) as Q;
    return { nulls, first, after };
  });
}

/** The columns a page's row carries its position in (the list's `rows` query adds them). */
export function positionColumns(
  spec: ListSpec<string, unknown>,
  dialect: Dialect,
  order: Order,
): Array<AliasedRawBuilder<unknown, string>> {
  const keys = keysOf(spec, order);
  return [
    ...keys.map((column, j) => {
      const key = sortKeyOf(spec, column, spec.alias);
      // PostgreSQL reads a value back exactly from its text (a timestamp's microseconds).
      const value =
        dialect.kind === 'postgres' ? sql<unknown>`cast(${key} as text)` : sql<unknown>`${key}`;
      return value.as(positionKey(j));
    }),
    sql<number>`${sql.ref(`${spec.alias}.id`)}`.as(POSITION_ID),
  ];
}

/** The position of a raw row of a page (its `positionColumns`). */
export function positionOf(row: Record<string, unknown>, keys: number): Position {
  return {
    keys: Array.from({ length: keys }, (_, j) => row[positionKey(j)] ?? null),
    id: Number(row[POSITION_ID]),
  };
}

const CURSOR_MESSAGE = 'Not a cursor of this list and order: start again from the first page';

/**
 * Cursors as the API hands them out: the position, the list and its order, signed. Opaque to a
 * client; a cursor of another list, another order or another server is refused (400, `cursor`).
 */
export class Cursors {
  readonly #key: Buffer;

  constructor(secret: string | Uint8Array = randomBytes(32)) {
    this.#key = createHmac('sha256', secret).update('list cursor').digest();
  }

  encode(list: string, order: Order, position: Position): string {
    const body = Buffer.from(JSON.stringify([position.keys, position.id])).toString('base64url');
    return `${body}.${this.#sign(list, order, body)}`;
  }

  /** The position `cursor` names in `list` ordered by `order`, or a 400 naming `cursor`. */
  decode(list: string, order: Order, cursor: string, keys: number): Position {
    const dot = cursor.indexOf('.');
    const body = cursor.slice(0, dot);
    const given = Buffer.from(cursor.slice(dot + 1), 'base64url');
    const expected = Buffer.from(this.#sign(list, order, body), 'base64url');
    if (dot < 0 || given.length !== expected.length || !timingSafeEqual(given, expected)) {
      throw invalidField('cursor', CURSOR_MESSAGE);
    }
    const [values, id] = JSON.parse(Buffer.from(body, 'base64url').toString()) as [
      unknown[],
      number,
    ];
    if (!Array.isArray(values) || values.length !== keys || !Number.isSafeInteger(id)) {
      throw invalidField('cursor', CURSOR_MESSAGE);
    }
    return { keys: values, id };
  }

  #sign(list: string, order: Order, body: string): string {
    const what = `${list}|${order.map(([c, d]) => `${c}:${d}`).join(',')}|${body}`;
    return createHmac('sha256', this.#key)
      .update(what)
      .digest()
      .subarray(0, 16)
      .toString('base64url');
  }
}
