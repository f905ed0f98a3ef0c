/**
 * Queries built and compiled once, then run with new values: for the statements every request
 * runs (the access check, list pages), where building and compiling the query tree anew would
 * cost more than running it. Build the query with `arg(i)` where the i-th value goes; `fill` then
 * gives the compiled query with the values in place.
 */
import type { Compilable, CompiledQuery } from 'kysely';

const MARK = '\u0000arg:';

/** Stands for the i-th value in a query built for `precompile`. */
export function arg<T = string>(i: number): T {
  return `${MARK}${i}` as T;
}

export interface Precompiled<R> {
  sql: string;
  fill(values: readonly unknown[]): CompiledQuery<R>;
}

export function precompile<R>(query: Compilable<R>): Precompiled<R> {
  const compiled = query.compile();
  const slots = compiled.parameters.map((p) =>
    typeof p === 'string' && p.startsWith(MARK) ? Number(p.slice(MARK.length)) : -1,
  );
  return {
    sql: compiled.sql,
    fill: (values) => ({
      ...compiled,
      parameters: compiled.parameters.map((p, k) => (slots[k]! >= 0 ? values[slots[k]!] : p)),
    }),
  };
}
