import { z } from 'zod';
import { calendarDate, int, optionalId } from './fields.ts';

/** The longest stretch one coverage call plans (API.md "Planning festivals"). */
export const COVERAGE_DAYS_MAX = 90;
/** The posters screen's batch: at most this many files, this many create calls in flight. */
export const BATCH_MAX = 200;
export const BATCH_CONCURRENCY = 3;

/** `GET planning/coverage`: the days from `from`, `days` of them, for every app or one. */
export const coverageQuery = z.strictObject({
  from: calendarDate.meta({ description: 'The first day planned (YYYY-MM-DD), included.' }),
  days: int(1, COVERAGE_DAYS_MAX).meta({ description: 'How many days, 1..90.' }),
  masterAppId: optionalId.meta({ description: 'Only this master app (404 when it has no row).' }),
});
export type CoverageQuery = z.input<typeof coverageQuery>;

export const coverageApp = z.object({
  masterAppId: z.number().int(),
  name: z.string(),
  posters: z
    .number()
    .int()
    .meta({
      description:
        "ACTIVE posters of the app made for one of the day's special days and live during the " +
        "day (its window, when it has one, overlaps the day in the app's time zone).",
    }),
  videos: z.number().int().meta({
    description:
      "ACTIVE videos of the app whose `date` is the day and whose window overlaps the day in the app's time zone.",
  }),
});
export type CoverageApp = z.infer<typeof coverageApp>;

export const coverageDay = z.object({
  date: z.string().meta({ format: 'date' }),
  specialDays: z.array(z.object({ id: z.number().int(), name: z.string() })),
  apps: z.array(coverageApp),
});
export type CoverageDay = z.infer<typeof coverageDay>;

export const coverage = z.object({ days: z.array(coverageDay) });
export type Coverage = z.infer<typeof coverage>;
