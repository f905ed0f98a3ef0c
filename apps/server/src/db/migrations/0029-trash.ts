/**
 * The trash (issue #35, API.md "Planning festivals"). Frozen.
 *
 * - `trash`: one row per deleted poster, video, banner, category, special day, blog, page, FAQ or
 *   notification: its area and id, what the trash list shows (title, thumbnail key), the row
 *   itself as JSON (`row`) and the rows that went with it by cascade (`related`: a poster's
 *   downloads and likes, a notification's reads), who deleted it and when. The original row is
 *   deleted in the same transaction, so every list, kept count and the apps API leave it out
 *   with no change of their own. (area, row_id) is unique: a row is in the trash once.
 * - `trash_media`: the media keys a trashed row holds (its media columns and the images inside
 *   its rich text). A media column like any other (media/service.ts MEDIA_COLUMNS), so a file of
 *   a trashed row counts as in use until the row is purged.
 */
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../dialect.ts';

export function trash(d: Dialect): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('trash')
        .addColumn('id', 'integer', (c) => d.idColumn(c))
        .addColumn('area', 'varchar(20)', (c) => c.notNull())
        .addColumn('row_id', 'integer', (c) => c.notNull())
        .addColumn('title', 'varchar(300)', (c) => c.notNull())
        .addColumn('thumbnail', 'varchar(300)')
        .addColumn('row', 'text', (c) => c.notNull())
        .addColumn('related', 'text', (c) => c.notNull())
        .addColumn('deleted_at', d.timestampType, (c) => c.notNull())
        .addColumn('deleted_by', 'integer')
        .addUniqueConstraint('trash_area_row_unique', ['area', 'row_id'])
        .execute();
      // The list, newest first, all areas or one; the sweep, oldest first.
      await db.schema
        .createIndex('trash_deleted')
        .on('trash')
        .columns(['deleted_at', 'id'])
        .execute();
      await db.schema
        .createIndex('trash_area_deleted')
        .on('trash')
        .columns(['area', 'deleted_at', 'id'])
        .execute();
      await db.schema
        .createTable('trash_media')
        .addColumn('trash_id', 'integer', (c) =>
          c.notNull().references('trash.id').onDelete('cascade'),
        )
        .addColumn('key', 'varchar(300)', (c) => c.notNull())
        .addPrimaryKeyConstraint('trash_media_pk', ['trash_id', 'key'])
        .execute();
      await db.schema.createIndex('trash_media_key').on('trash_media').column('key').execute();
    },
  };
}
