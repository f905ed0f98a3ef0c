import { z } from 'zod';
import { checkDateRange, dateRange, masterAppRef } from './common.ts';
import {
  calendarDate,
  intWithDefault,
  optionalCalendarDate,
  optionalEnum,
  optionalId,
  optionalInt,
} from './fields.ts';
import { specialDayPosters } from './special-days.ts';

/**
 * The dashboard's period: fromDate/toDate (whole UTC days) or the last `inDays` days, never both.
 * The parameters' descriptions say so, as OpenAPI cannot.
 */
const period = {
  fromDate: dateRange.fromDate.meta({
    description: 'The first day (UTC), included. Not with inDays (400 naming both).',
  }),
  toDate: dateRange.toDate.meta({
    description:
      'The last day (UTC), included; not before fromDate (400 naming toDate). Not with inDays ' +
      '(400 naming both).',
  }),
  inDays: optionalInt(1, 3650).meta({
    description:
      'The last N days, counted from now. Not with fromDate or toDate (400 naming both).',
  }),
  masterAppId: optionalId,
};

export const PERIOD_EXCLUSIVE = 'Use either inDays or fromDate/toDate, not both';

function checkPeriod(
  q: { fromDate?: string; toDate?: string; inDays?: number },
  ctx: z.RefinementCtx,
) {
  const dates = (['fromDate', 'toDate'] as const).filter((field) => q[field] !== undefined);
  if (q.inDays !== undefined && dates.length > 0) {
    for (const field of ['inDays', ...dates]) {
      ctx.addIssue({ code: 'custom', path: [field], message: PERIOD_EXCLUSIVE });
    }
  }
  checkDateRange(q, ctx);
}

export const dashboardQuery = z.strictObject(period).superRefine(checkPeriod);
export type DashboardQuery = z.input<typeof dashboardQuery>;

export const dashboardCounts = z.object({
  totalUser: z.number().int(),
  totalCategory: z.number().int(),
  totalPoster: z.number().int(),
  downloadPoster: z.number().int(),
});
export type DashboardCounts = z.infer<typeof dashboardCounts>;

export const TREND_BUCKETS = ['day', 'week', 'month'] as const;
export type TrendBucket = (typeof TREND_BUCKETS)[number];
/** The most buckets one trend answers. */
export const TREND_MAX_BUCKETS = 400;

export const dashboardTrendQuery = z
  .strictObject({ ...period, bucket: optionalEnum(TREND_BUCKETS) })
  .superRefine(checkPeriod);
export type DashboardTrendQuery = z.input<typeof dashboardTrendQuery>;

export const trendPoint = z.object({
  /** The bucket's first day: the day, the Monday of the week, the 1st of the month. */
  start: calendarDate,
  downloads: z.number().int(),
  posters: z.number().int(),
  users: z.number().int(),
});
export type TrendPoint = z.infer<typeof trendPoint>;

export const dashboardTrend = z.object({
  bucket: z.enum(TREND_BUCKETS),
  /** The first and last day counted. */
  from: calendarDate,
  to: calendarDate,
  points: z.array(trendPoint),
});
export type DashboardTrend = z.infer<typeof dashboardTrend>;

export const dashboardTopQuery = z
  .strictObject({ ...period, limit: intWithDefault(1, 20, 5) })
  .superRefine(checkPeriod);
export type DashboardTopQuery = z.input<typeof dashboardTopQuery>;

export const topCategory = z.object({
  id: z.number().int(),
  name: z.string(),
  downloads: z.number().int(),
});
export const topPoster = z.object({
  id: z.number().int(),
  poster: z.string(),
  category: z.object({ id: z.number().int(), name: z.string() }),
  masterApp: masterAppRef,
  specialDay: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  downloads: z.number().int(),
});
export const dashboardTop = z.object({
  categories: z.array(topCategory),
  posters: z.array(topPoster),
});
export type DashboardTop = z.infer<typeof dashboardTop>;

export const dashboardSpecialDaysQuery = z.strictObject({
  fromDate: optionalCalendarDate.meta({
    description: 'The day to look from (UTC); default today.',
  }),
  masterAppId: optionalId,
  limit: intWithDefault(1, 50, 6),
});
export type DashboardSpecialDaysQuery = z.input<typeof dashboardSpecialDaysQuery>;

export const upcomingSpecialDay = specialDayPosters.extend({
  /** The day's next date, on or after fromDate. */
  date: calendarDate,
});
export type UpcomingSpecialDay = z.infer<typeof upcomingSpecialDay>;
export const dashboardSpecialDays = z.object({ result: z.array(upcomingSpecialDay) });
