import type { SelectQueryBuilder } from 'kysely';
import type { ListResponse } from '@master-admin/contract';

/**
 * The one list query: `base` holds the tables and filters, `rows` adds the columns and the order.
 * Answers one page and the count of every row matching the filters.
 */
export async function listPage<DB, TB extends keyof DB, O>(
  base: SelectQueryBuilder<DB, TB, object>,
  rows: (qb: SelectQueryBuilder<DB, TB, object>) => SelectQueryBuilder<DB, TB, O>,
  page: { limit: number; offset: number },
): Promise<ListResponse<O>> {
  const [result, count] = await Promise.all([
    rows(base).limit(page.limit).offset(page.offset).execute(),
    base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow() as Promise<{
      total: number | string;
    }>,
  ]);
  return { result: result, total: Number(count.total) };
}
