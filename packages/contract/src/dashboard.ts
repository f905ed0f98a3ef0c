import { z } from 'zod';
import { optionalCalendarDate, optionalId, optionalInt } from './fields.ts';

export const dashboardQuery = z
  .strictObject({
    fromDate: optionalCalendarDate,
    toDate: optionalCalendarDate,
    inDays: optionalInt(1, 3650),
    masterAppId: optionalId,
  })
  .superRefine((q, ctx) => {
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
  });
export type DashboardQuery = z.input<typeof dashboardQuery>;

export const dashboardCounts = z.object({
  totalUser: z.number().int(),
  totalCategory: z.number().int(),
  totalPoster: z.number().int(),
  downloadPoster: z.number().int(),
});
export type DashboardCounts = z.infer<typeof dashboardCounts>;
