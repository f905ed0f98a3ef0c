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
 * The dashboard's period: fromDate/toDate (whole UTC days) and the last `inDays` days. Given
 * together, every bound applies, as two filters of a list do: inDays then counts back from the
 * end of toDate, and the period starts at the later of fromDate and inDays' first day. (A rule
 * between parameters could only be prose: OpenAPI cannot state one. The one left, toDate not
 * before fromDate, is a mistake to point out, not a period to answer.)
 */
const period = {
  fromDate: dateRange.fromDate.meta({
    description:
      'The first day (UTC), included. With inDays too, the period starts at the later of the two.',
  }),
  toDate: dateRange.toDate.meta({
    description:
      'The last day (UTC), included; not before fromDate (400 naming toDate). With inDays, the ' +
      'period is the inDays days that end with it.',
  }),
  inDays: optionalInt(1, 3650).meta({
    description:
      'The last N days: counted back from now, or, with toDate, the N whole days ending with ' +
      'toDate. With fromDate too, the period starts at the later of the two.',
  }),
  masterAppId: optionalId,
};

export const dashboardQuery = z.strictObject(period).superRefine(checkDateRange);
export type DashboardQuery = z.input<typeof dashboardQuery>;

export const dashboardCounts = z.object({
  /** Told only to an account that may VIEW users. */
  totalUser: z.number().int().optional(),
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
  .superRefine(checkDateRange);
export type DashboardTrendQuery = z.input<typeof dashboardTrendQuery>;

export const trendPoint = z.object({
  /** The bucket's first day: the day, the Monday of the week, the 1st of the month. */
  start: calendarDate,
  downloads: z.number().int(),
  posters: z.number().int(),
  /** Left out for an account that may not VIEW users. */
  users: z.number().int().optional(),
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
  .superRefine(checkDateRange);
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
