/**
 * The value, which the caller knows is there (the row of a dialog that is open, an id a query
 * is enabled for); throws when it is not. Written instead of TypeScript's `x!`: React Compiler
 * reads `x!.id` in a callback at render time to memoize the callback, which throws while `x` is
 * still undefined (react#35762); a call it leaves to the callback.
 */
export function defined<T>(value: T | null | undefined): T {
  if (value === null || value === undefined) throw new Error('A value expected here is missing.');
  return value;
}
