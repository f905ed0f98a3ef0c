import { Migrator, type Migration, type MigrationResultSet } from 'kysely/migration';
import type { DatabaseHandle } from './connect.ts';
import type { Dialect } from './dialect.ts';
import { foundation } from './migrations/0001-foundation.ts';
import { content } from './migrations/0002-content.ts';

/** Every migration in order. Names sort; a migration, once shipped, never changes. */
function migrations(d: Dialect): Record<string, Migration> {
  return {
    '0001-foundation': foundation(d),
    '0002-content': content(d),
  };
}

/** Brings the schema up to date. Safe to run from several instances at once (migration lock). */
export async function migrateToLatest(handle: DatabaseHandle): Promise<string[]> {
  // Migrations speak snake_case on their own, without the CamelCasePlugin.
  const migrator = new Migrator({
    db: handle.db.withoutPlugins(),
    provider: { getMigrations: async () => migrations(handle.dialect) },
  });
  const { error, results }: MigrationResultSet = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(
      `Migration ${failed} failed: ${error instanceof Error ? error.message : 'unknown error'}`,
      { cause: error },
    );
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
