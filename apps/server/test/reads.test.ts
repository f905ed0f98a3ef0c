/**
 * The SQLite reader threads (db/reads.ts) end by being asked, not killed: a read under way when
 * the pool closes still answers, and a thread is never ended while it loads better-sqlite3 (that
 * aborted a whole test process once).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { CompiledQuery } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { SqliteReadPool } from '../src/db/reads.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ma-reads-'));
const file = path.join(dir, 'reads.sqlite');
new SQLite(file).close();
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A read that keeps its thread busy for a while: counting to `n`. */
const slow = (n: number) =>
  CompiledQuery.raw(
    `with recursive c(i) as (select 1 union all select i + 1 from c where i < ${n}) select count(*) as n from c`,
  );

describe('closing the SQLite read pool', () => {
  it('lets a read under way finish, then ends its threads', async () => {
    const pool = new SqliteReadPool(file, 2);
    const reading = pool.run([slow(2_000_000)]);
    // The thread is still loading or counting when the pool closes.
    await pool.close();
    expect(await reading).toEqual([[{ n: 2_000_000 }]]);
    await expect(pool.run([slow(1)])).rejects.toThrow('the read pool is closed');
  });

  it('closes right after its threads were started, again and again', async () => {
    for (let i = 0; i < 10; i++) {
      const pool = new SqliteReadPool(file, 2);
      const reading = pool.run([slow(10)]);
      await pool.close();
      expect(await reading).toEqual([[{ n: 10 }]]);
    }
  });
});
