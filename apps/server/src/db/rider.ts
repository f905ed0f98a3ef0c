/**
 * A read that rides with a request's first list read instead of making a round trip of its own:
 * the access check of a list call (`config.listPage`, http/access.ts). Each of PostgreSQL's
 * statements costs the server a socket write and a wake-up (measured: skipping the access check's
 * statement took the 5-row list from 1,347–1,498 to 1,874–1,970 req/s), so `Lists` folds it into
 * the page's count statement there; on SQLite it joins the reader thread's batch.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { CompiledQuery } from 'kysely';

export type Rider = {
  /** The statement (at most one row). */
  read: CompiledQuery;
  /** Judges its row (undefined: none): throws to refuse the request. */
  settle(row: Record<string, unknown> | undefined): void;
};

const current = new AsyncLocalStorage<{ rider: Rider | undefined }>();

/** Runs `work` (the rest of a request) with `rider` waiting for the first list read. */
export function withRider<T>(rider: Rider, work: () => T): T {
  return current.run({ rider }, work);
}

/** The rider waiting in this request, once: whoever takes it runs and settles it. */
export function takeRider(): Rider | undefined {
  const box = current.getStore();
  const rider = box?.rider;
  if (box) box.rider = undefined;
  return rider;
}
