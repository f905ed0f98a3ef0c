import type { Db } from './connect.ts';

/**
 * Runs `work` in a transaction: `db`'s own when it already is one (a helper called by a route
 * that records its audit entry in the same transaction), else a new one.
 */
export function inTransaction<T>(db: Db, work: (trx: Db) => Promise<T>): Promise<T> {
  return db.isTransaction ? work(db) : db.transaction().execute(work);
}
