import { z } from 'zod';
import { masterAppRef } from './common.ts';
import {
  calendarDate,
  intWithDefault,
  optionalCalendarDate,
  optionalEnum,
  optionalId,
  optionalInt,
} from './fields.ts';
import { specialDayPosters } from './special-days.ts';

/** The dashboard's period: fromDate/toDate (whole UTC days) or the last `inDays` days. */
const period = {
  fromDate: optionalCalendarDate,
  toDate: optionalCalendarDate,
  inDays: optionalInt(1, 3650),
  masterAppId: optionalId,
};

function checkPeriod(
  q: { fromDate?: string; toDate?: string; inDays?: number },
  ctx: z.RefinementCtx,
) {
  if (q.inDays !== undefined && (q.fromDate !== undefined || q.toDate !== undefined)) {
    ctx.addIssue({
      code: 'custom',
      path: ['inDays'],
      message: 'Use either inDays or fromDate/toDate, not both',
    });
  }
  if (q.fromDate !== undefined && q.toDate !== undefined && q.fromDate > q.toDate) {
    ctx.addIssue({ code: 'custom', path: ['toDate'], message: 'Must not be before fromDate' });
  }
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
  fromDate: optionalCalendarDate,
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
