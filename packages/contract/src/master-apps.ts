import { z } from 'zod';
import { listQuery, listResponse, mutationResponse, sortParam, version } from './common.ts';
import { blankAsNull, text, timestamp } from './fields.ts';
import { timeZoneName } from './schedules.ts';

export const masterApp = z.object({
  id: z.number().int(),
  version,
  name: z.string(),
  /** The zone its special days, poster dates and schedules are read in (the effective one). */
  timeZone: z.string(),
  /** True when the app has no zone of its own and follows the server's DEFAULT_TIME_ZONE. */
  timeZoneIsDefault: z.boolean(),
  createdAt: timestamp,
});
export type MasterApp = z.infer<typeof masterApp>;

/**
 * Create and update. `timeZone`: an IANA name; null or blank follows the server's
 * DEFAULT_TIME_ZONE; left out, a create follows it and an update leaves the zone as it was.
 */
export const masterAppBody = z.strictObject({
  name: text(100),
  timeZone: blankAsNull(timeZoneName).optional(),
});
export type MasterAppBody = z.input<typeof masterAppBody>;

/** A choice of master app (filters, forms), with the zone its schedules are entered in. */
export const masterAppOption = z.object({
  id: z.number().int(),
  name: z.string(),
  timeZone: z.string(),
});
export type MasterAppOption = z.infer<typeof masterAppOption>;
export const masterAppOptions = z.object({ result: z.array(masterAppOption) });

export const MASTER_APP_SORTS = ['createdAt', 'name'] as const;
export const masterAppListQuery = listQuery.extend({ sort: sortParam(MASTER_APP_SORTS) });
export const masterAppList = listResponse(masterApp);
export const masterAppMutation = mutationResponse(masterApp);
