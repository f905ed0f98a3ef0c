/**
 * The demo's trash (issue #35): a poster and a FAQ deleted two days ago, so the Trash
 * screen has rows to show and restore. Rows made only to be deleted (a second app's copy of a
 * demo poster, a FAQ no other run adds), so `--force` never adds them again beside their trashed
 * selves; added only while the trash is empty.
 */
import type { Db } from '../db/connect.ts';
import { inTransaction } from '../db/transaction.ts';
import type { MediaService } from '../media/service.ts';
import { moveToTrash } from '../features/trash/service.ts';
import type { DemoScope } from './demo.ts';

export async function seedTrash(db: Db, media: MediaService, scope: DemoScope): Promise<void> {
  const any = await db.selectFrom('trash').select('id').limit(1).executeTakeFirst();
  if (any) return;
  const source = await db
    .selectFrom('posters')
    .selectAll()
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  const by = { accountId: scope.owner, store: media.store };
  await inTransaction(db, async (trx) => {
    const made = scope.at(5);
    const faq = await trx
      .insertInto('faqs')
      .values({
        question: 'Can I still use last year’s Navratri frames?',
        answer: 'They were retired at the end of the season.',
        createdAt: made,
        updatedAt: made,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await moveToTrash(trx, by, 'faqs', [faq.id]);
    scope.tally.add('trashed rows');
    if (!source) return;
    const { id: _id, version: _version, downloadCount: _downloads, ...copy } = source;
    const poster = await trx
      .insertInto('posters')
      .values({ ...copy, status: 'DEACTIVE', createdAt: made, updatedAt: made })
      .returning('id')
      .executeTakeFirstOrThrow();
    await moveToTrash(trx, by, 'posters', [poster.id]);
    scope.tally.add('trashed rows');
  });
  // Deleted two days ago.
  await db
    .updateTable('trash')
    .set({ deletedAt: new Date(Date.now() - 2 * 86_400_000).toISOString() })
    .execute();
}
