/** What other areas need from master apps: checking that the one a row names exists. */
import { MESSAGES } from '@master-admin/contract';
import type { Db } from '../../db/connect.ts';
import { notFound } from '../../http/errors.ts';

/** The master app `id`, or a 404 naming it. */
export async function requireMasterApp(db: Db, id: number): Promise<{ id: number; name: string }> {
  const app = await db
    .selectFrom('masterApps')
    .select(['id', 'name'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!app) throw notFound(MESSAGES.appNotFound);
  return app;
}
