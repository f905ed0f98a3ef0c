/** What every all-or-nothing bulk call shares (API.md, Conventions: bulk calls). */
import { HttpError } from './errors.ts';

/**
 * Throws a 404 naming the ids a bulk call asked for that had no row, so the transaction it runs
 * in rolls back and nothing changes. `found` are the rows the call's statement touched; `field`
 * is the body field that held the ids.
 */
export function requireAll(
  noun: string,
  ids: number[],
  found: Array<{ id: number }>,
  field = 'ids',
) {
  if (found.length === ids.length) return;
  const have = new Set(found.map((r) => r.id));
  const absent = ids.filter((id) => !have.has(id));
  const message = `No ${noun} with id ${absent.join(', ')}`;
  throw new HttpError(404, message, { details: [{ path: field, message }] });
}
