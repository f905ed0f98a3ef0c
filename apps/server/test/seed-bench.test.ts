/**
 * The bench's bulk loader (`seed-bench`, src/seed/bench.ts): on PostgreSQL it streams COPY in
 * statements of many rows, on SQLite it inserts through a prepared statement. Either way the
 * values arrive intact (tabs, newlines, backslashes, NULL, text that looks like COPY's own
 * markers) and the kept counts and search indexes agree with the tables afterwards, also after a
 * second load. Run on SQLite and PostgreSQL.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../src/db/connect.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { checkList } from '../src/db/list-structures.ts';
import { structureOf } from '../src/db/lists.ts';
import { ALL_LISTS } from '../src/features/lists.ts';
import { checkTrendCounts } from '../src/features/dashboard/trend-counts.ts';
import { checkTopDownloads } from '../src/features/dashboard/top-downloads.ts';
import { BENCH_AREAS, bulkInsert, copyText, type BenchDatabase } from '../src/seed/bench.ts';
import { TEST_DB, createPgDatabase } from './harness.ts';

let target: BenchDatabase;
let handle: DatabaseHandle;
let dispose: () => Promise<void>;

beforeAll(async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ma-seed-bench-'));
  const pgDb = TEST_DB === 'postgres' ? await createPgDatabase() : undefined;
  handle = openDatabase(
    pgDb
      ? { kind: 'postgres', url: pgDb.url }
      : { kind: 'sqlite', file: path.join(dataDir, 'db.sqlite') },
  );
  await migrateToLatest(handle);
  // Small COPY statements, so a load takes several and their triggers run several times.
  target = { handle, pgUrl: pgDb?.url, copyRows: 97 };
  dispose = async () => {
    await handle.close();
    await pgDb?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
});
afterAll(() => dispose());

async function listProblems(): Promise<string[]> {
  const problems: string[] = [];
  for (const list of ALL_LISTS) {
    problems.push(...(await checkList(handle.db, handle.dialect, structureOf(list))));
  }
  problems.push(...(await checkTrendCounts(handle.db, handle.dialect)));
  problems.push(...(await checkTopDownloads(handle.db, handle.dialect)));
  return problems;
}

describe('copyText', () => {
  it('escapes what would end a value, a row or the data, and writes NULL as \\N', () => {
    expect(copyText(null)).toBe('\\N');
    expect(copyText(undefined)).toBe('\\N');
    expect(copyText('\\N')).toBe('\\\\N');
    expect(copyText('a\tb\nc\rd\\e')).toBe('a\\tb\\nc\\rd\\\\e');
    expect(copyText('\\.')).toBe('\\\\.');
    expect(copyText(42)).toBe('42');
    expect(copyText(false)).toBe('f');
    expect(copyText(new Date('2026-01-02T03:04:05.678Z'))).toBe('2026-01-02T03:04:05.678Z');
    expect(copyText('plain text, ünïcode ✓')).toBe('plain text, ünïcode ✓');
  });
});

describe('bulkInsert', () => {
  const awkward = [
    'tab\there',
    'line\nbreak',
    'carriage\rreturn',
    'back\\slash',
    '\\N',
    '\\.',
    'ends with a backslash \\',
    'ta\\tb, not a tab',
    'quotes \' " and , ;',
    'ünïcode ✓ नमस्ते',
  ];

  it('keeps every value as it was, NULL as NULL, and the search index in step', async () => {
    const at = '2026-01-02T03:04:05.678Z';
    const count = awkward.length * 25;
    await bulkInsert(
      target,
      'accounts',
      [
        { name: 'role', pgType: 'text' },
        { name: 'name', pgType: 'text' },
        { name: 'email', pgType: 'text' },
        { name: 'phone_number', pgType: 'text' },
        { name: 'status', pgType: 'text' },
        { name: 'created_at', pgType: 'timestamptz' },
        { name: 'updated_at', pgType: 'timestamptz' },
      ],
      count,
      (i) => [
        'USER',
        `${awkward[i % awkward.length]} ${i}`,
        i % 3 === 0 ? null : `copy${i}@mail.test`,
        `79${String(i).padStart(8, '0')}`,
        'ACTIVE',
        at,
        at,
      ],
    );
    const rows = await handle.db
      .selectFrom('accounts')
      .select(['name', 'email', 'phoneNumber', 'createdAt'])
      .where('phoneNumber', 'like', '79%')
      .orderBy('phoneNumber')
      .execute();
    expect(rows).toHaveLength(count);
    rows.forEach((row, i) => {
      expect(row.name).toBe(`${awkward[i % awkward.length]} ${i}`);
      expect(row.email).toBe(i % 3 === 0 ? null : `copy${i}@mail.test`);
      expect(new Date(row.createdAt as string | Date).toISOString()).toBe(at);
    });
    expect(await listProblems()).toEqual([]);
  });

  it('loads every area so that the kept counts and search indexes agree, twice over', async () => {
    const sizes = { rows: 300, historyRows: 700, walletRows: 450 };
    const seen: Record<string, number> = {};
    for (let load = 1; load <= 2; load++) {
      for (const [name, area] of Object.entries(BENCH_AREAS)) {
        await area.seed(target, name === 'users' ? sizes : { rows: 250 }, (table, done) => {
          seen[table] = done;
        });
      }
      const count = async (table: 'loginHistory' | 'wallets' | 'auditLog' | 'banners') =>
        Number(
          (
            await handle.db
              .selectFrom(table)
              .select((eb) => eb.fn.countAll().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        );
      expect(await count('loginHistory')).toBe(700 * load);
      expect(await count('wallets')).toBe(450 * load);
      expect(await count('auditLog')).toBe(250 * load);
      expect(await count('banners')).toBe(250 * load);
      expect(await listProblems()).toEqual([]);
    }
    // The newest users hold the rows the bench reads (its context is the first page of users).
    const newest = await handle.db
      .selectFrom('accounts')
      .select('id')
      .where('role', '=', 'USER')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    const owned = await handle.db
      .selectFrom('loginHistory')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('accountId', '=', newest.id)
      .executeTakeFirstOrThrow();
    expect(Number(owned.n)).toBeGreaterThan(0);
    expect(seen).toMatchObject({ accounts: 300, login_history: 700, wallets: 450, audit_log: 250 });
    // Each bench app has a working key (createMasterApp issues it): the apps API's cases send it.
    const keyless = await handle.db
      .selectFrom('masterApps as m')
      .leftJoin('appKeys as k', (join) =>
        join.onRef('k.masterAppId', '=', 'm.id').on('k.retiresAt', 'is', null),
      )
      .select('m.name')
      .where('k.key', 'is', null)
      .execute();
    expect(keyless).toEqual([]);
  });
});
