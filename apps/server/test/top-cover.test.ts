/**
 * The units a top list reads a period in (period.ts coverDays): every day of the period exactly
 * once, nothing outside what the caller allows, and few units.
 */
import { describe, expect, it } from 'vitest';
import {
  addDays,
  coverDays,
  daysBetween,
  unitEnd,
  type Grain,
  type UnitRun,
} from '../src/features/dashboard/period.ts';

/** Every unit of the runs, as [first day, last day]. */
function units(runs: UnitRun[]): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const r of runs) {
    for (let s = r.first; s <= r.last; s = addDays(unitEnd(r.grain, s), 1)) {
      out.push([s, unitEnd(r.grain, s)]);
    }
  }
  return out;
}

describe('coverDays', () => {
  it('covers a period with whole units, each day once', () => {
    const grainSets: Grain[][] = [['d', 'w', 'm', 'y'], ['d', 'w', 'm'], ['d']];
    let seed = 7;
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    for (let k = 0; k < 300; k++) {
      const from = addDays('2023-01-01', rand(900));
      const to = addDays(from, rand(k % 3 === 0 ? 800 : 70));
      const grains = grainSets[k % 3]!;
      const parts = units(coverDays(from, to, grains));
      let next = from;
      for (const [a, b] of parts) {
        expect(a, `${from}..${to}`).toBe(next);
        next = addDays(b, 1);
      }
      expect(addDays(next, -1), `${from}..${to}`).toBe(to);
    }
  });

  it('reads 30 days in about a dozen units and a year in whole months', () => {
    const all: Grain[] = ['d', 'w', 'm', 'y'];
    expect(units(coverDays('2026-10-25', '2026-11-24', all)).length).toBeLessThanOrEqual(12);
    expect(coverDays('2024-01-01', '2024-12-31', all)).toEqual([
      { grain: 'y', first: '2024-01-01', last: '2024-01-01' },
    ]);
    expect(coverDays('2024-02-01', '2024-04-30', all)).toEqual([
      { grain: 'm', first: '2024-02-01', last: '2024-04-01' },
    ]);
    expect(daysBetween('2024-02-01', '2024-04-30')).toBe(90);
  });

  it('reaches past clamped bounds only as far as the period allows', () => {
    // Data from 2024-11-27 to 2026-11-27, asked for all time: whole years.
    const runs = coverDays(
      '2024-11-27',
      '2026-11-27',
      ['d', 'w', 'm', 'y'],
      '0001-01-01',
      '9999-12-31',
    );
    expect(runs).toEqual([{ grain: 'y', first: '2024-01-01', last: '2026-01-01' }]);
    // Open at the end only: the last unit may end after the last day with data (here a week:
    // a Sunday, four weeks and the week of the 23rd are fewer units than days to the 1st and
    // a month).
    const open = units(
      coverDays('2026-10-25', '2026-11-27', ['d', 'w', 'm'], '2026-10-25', '9999-12-31'),
    );
    expect(open[0]![0]).toBe('2026-10-25');
    expect(open).toHaveLength(6);
    expect(open[open.length - 1]).toEqual(['2026-11-23', '2026-11-29']);
    // Closed at the end, nothing reaches past it.
    const closed = units(coverDays('2026-10-25', '2026-11-27', ['d', 'w', 'm']));
    expect(closed[closed.length - 1]).toEqual(['2026-11-27', '2026-11-27']);
  });
});
