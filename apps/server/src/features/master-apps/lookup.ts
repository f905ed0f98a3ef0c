/** What other areas (and the bulk loader) need from master apps. */
import { MESSAGES, STANDARD_PAGES } from '@master-admin/contract';
import type { Db } from '../../db/connect.ts';
import { now } from '../../db/dialect.ts';
import { inTransaction } from '../../db/transaction.ts';
import { notFound } from '../../http/errors.ts';
import { issueKey } from '../app-api/keys.ts';

/** A master app as its list shows it. */
export const COLUMNS = ['id', 'version', 'name', 'timeZone', 'createdAt'] as const;

/** Master apps as their list shows them (the bench's floor runs this query too). */
export const selectMasterApps = (db: Db) => db.selectFrom('masterApps').select(COLUMNS);

/** Creates a master app, its standard pages (API.md) and its first app key, in one transaction. */
export function createMasterApp(db: Db, name: string, timeZone: string | null = null) {
  const at = now();
  return inTransaction(db, async (trx) => {
    const created = await trx
      .insertInto('masterApps')
      .values({ name, timeZone, createdAt: at, updatedAt: at })
      .returning(COLUMNS)
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('pages')
      .values(
        STANDARD_PAGES.map((title) => ({
          masterAppId: created.id,
          title,
          desc: '',
          createdAt: at,
          updatedAt: at,
        })),
      )
      .execute();
    await issueKey(trx, created.id, at);
    return created;
  });
}

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
