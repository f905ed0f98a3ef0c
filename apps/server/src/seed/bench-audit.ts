/**
 * Audit entries for `npm run bench` (`seed-bench --area audit`): entries by BENCH_AUDIT_ACCOUNTS
 * accounts over every area, about BENCH_AUDIT_ROWS_PER_ROW entries per audited row, spread over
 * two years, through the same triggers as every write.
 */
import { AUDIT_ACTIONS, AUDIT_AREAS } from '@master-admin/contract';
import { analyze, bulkInsert, randomSource, type BenchArea } from './bench.ts';

export const BENCH_AUDIT_ACCOUNTS = 20;
export const BENCH_AUDIT_ROWS_PER_ROW = 20;
const SPAN_MS = 730 * 86_400_000;

export const AUDIT_BENCH_AREA: BenchArea = {
  description:
    `audit entries by ${BENCH_AUDIT_ACCOUNTS} accounts over ${AUDIT_AREAS.length} areas, ` +
    `about ${BENCH_AUDIT_ROWS_PER_ROW} per row, over two years`,
  async seed(handle, rows, progress) {
    const rng = randomSource(11);
    const end = Date.now();
    const step = Math.max(1, Math.floor(SPAN_MS / Math.max(1, rows)));
    const rowIds = Math.max(1, Math.floor(rows / BENCH_AUDIT_ROWS_PER_ROW / AUDIT_AREAS.length));
    await bulkInsert(
      handle,
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
        1 + rng.int(rowIds),
        rng.pick(AUDIT_ACTIONS),
        '[{"field":"status","old":"ACTIVE","new":"DEACTIVE"}]',
        new Date(end - (rows - i) * step).toISOString(),
      ],
      progress,
    );
    await analyze(handle, ['audit_log', 'list_counts']);
  },
};
