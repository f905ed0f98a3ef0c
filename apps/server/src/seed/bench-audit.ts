/**
 * Audit entries for `npm run bench` (`seed-bench --area audit`): entries by BENCH_AUDIT_ACCOUNTS
 * accounts over every area, about BENCH_AUDIT_ROWS_PER_ROW entries per audited row (the newer rows
 * at the later times), spread over two years, through the same triggers as every write.
 */
import { AUDIT_ACTIONS, AUDIT_AREAS } from '@master-admin/contract';
import { analyze, bulkInsert, randomSource, type BenchArea } from './bench.ts';

export const BENCH_AUDIT_ACCOUNTS = 20;
export const BENCH_AUDIT_ROWS_PER_ROW = 20;
const SPAN_MS = 730 * 86_400_000;
const ROW_WINDOW = 1000;

export const AUDIT_BENCH_AREA: BenchArea = {
  description:
    `audit entries by ${BENCH_AUDIT_ACCOUNTS} accounts over ${AUDIT_AREAS.length} areas, ` +
    `about ${BENCH_AUDIT_ROWS_PER_ROW} per row, over two years`,
  async seed(target, { rows }, progress) {
    const rng = randomSource(11);
    const end = Date.now();
    const step = Math.max(1, Math.floor(SPAN_MS / Math.max(1, rows)));
    const rowIds = Math.max(1, Math.floor(rows / BENCH_AUDIT_ROWS_PER_ROW / AUDIT_AREAS.length));
    // Rows are changed mostly while they are new: entry i is about a row near the i-th share of
    // the ids (within ROW_WINDOW of it), so a row's entries fall within a few weeks, and the
    // (area, row, …) indexes are written near one place at a time, not all over (at tens of
    // millions of entries those indexes are far larger than PostgreSQL's buffers).
    const window = Math.min(ROW_WINDOW, rowIds);
    const rowOf = (i: number) =>
      1 +
      Math.min(
        rowIds - 1,
        Math.max(0, Math.floor((i * rowIds) / rows) + rng.int(window) - Math.floor(window / 2)),
      );
    await bulkInsert(
      target,
      'audit_log',
      [
        { name: 'account_id', pgType: 'int' },
        { name: 'ip', pgType: 'text' },
        { name: 'area', pgType: 'text' },
        { name: 'row_id', pgType: 'int' },
        { name: 'action', pgType: 'text' },
        { name: 'changes', pgType: 'text' },
        { name: 'created_at', pgType: 'timestamptz' },
      ],
      rows,
      (i) => [
        1 + rng.int(BENCH_AUDIT_ACCOUNTS),
        `10.0.${rng.int(256)}.${1 + rng.int(254)}`,
        rng.pick(AUDIT_AREAS),
        rowOf(i),
        rng.pick(AUDIT_ACTIONS),
        '[{"field":"status","old":"ACTIVE","new":"DEACTIVE"}]',
        new Date(end - (rows - i) * step).toISOString(),
      ],
      (done) => progress('audit_log', done, rows),
    );
    await analyze(target.handle, ['audit_log', 'list_counts']);
  },
};
