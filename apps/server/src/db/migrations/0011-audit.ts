/**
 * The audit log (issue #11): one row per change a signed-in account made through the API, written
 * in the change's own transaction (audit/record.ts). Append-only: no route updates or deletes it.
 * Listed newest first by every filter (account, area, area and row, row), each served by an
 * index ending in the order; totals kept per grouping set (list-structures.ts). Frozen.
 */
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../dialect.ts';
import { installList } from '../list-structures.ts';

export function audit(d: Dialect): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('audit_log')
        .addColumn('id', 'integer', d.idColumn)
        // No foreign key: accounts are never removed (DELETED is a status), and an entry must
        // never stand in the way of a change.
        .addColumn('account_id', 'integer', (c) => c.notNull())
        .addColumn('ip', 'varchar(64)')
        .addColumn('area', 'varchar(30)', (c) => c.notNull())
        .addColumn('row_id', 'integer')
        .addColumn('action', 'varchar(20)', (c) => c.notNull())
        // JSON: [{ field, old, new, redacted? }].
        .addColumn('changes', 'text', (c) => c.notNull())
        .addColumn('created_at', d.timestampType, (c) => c.notNull())
        .execute();
      const index = (name: string, columns: string[]) =>
        db.schema.createIndex(name).on('audit_log').columns(columns).execute();
      await index('audit_log_created', ['created_at', 'id']);
      await index('audit_log_account_created', ['account_id', 'created_at', 'id']);
      await index('audit_log_area_created', ['area', 'created_at', 'id']);
      await index('audit_log_area_row_created', ['area', 'row_id', 'created_at', 'id']);
      await index('audit_log_row_created', ['row_id', 'created_at', 'id']);
      await index('audit_log_account_area_created', ['account_id', 'area', 'created_at', 'id']);

      await installList(db, d, {
        name: 'audit_log',
        table: 'audit_log',
        counts: [[], ['account_id'], ['area'], ['area', 'row_id'], ['account_id', 'area']],
        search: [],
      });
    },
  };
}
