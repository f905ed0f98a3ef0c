import { z } from 'zod';
import { SIDES, STATUSES, Side, Status } from './enums.ts';
import {
  listQuery,
  listResponse,
  masterAppRef,
  mutationResponse,
  sortParam,
  version,
  bulkVersions,
  checkVersionIds,
} from './common.ts';
import {
  calendarDate,
  DATE_MESSAGE,
  id,
  int,
  optionalCalendarDate,
  optionalEnum,
  optionalId,
  pathId,
  timestamp,
} from './fields.ts';
import { checkWindow, liveParam, scheduleFields, windowFields } from './schedules.ts';

/** Default numbers (a poster's, a video's, a user's numbered image's): whole numbers 1..999. */
export const DEF_NUM_MIN = 1;
export const DEF_NUM_MAX = 999;
export const defNum = int(DEF_NUM_MIN, DEF_NUM_MAX);

/** The most ids one bulk call takes (API.md, Conventions). */
export const BULK_MAX = 500;

/**
 * 1..500 distinct ids: a JSON array, or a form key given once or repeated (`ids=1&ids=2`).
 */
export const bulkIds = z.preprocess(
  (value) => (Array.isArray(value) || value === undefined || value === '' ? value : [value]),
  z
    .array(id, { error: 'Must be a list of ids' })
    .min(1, { error: 'Give at least one id' })
    .max(BULK_MAX, { error: `At most ${BULK_MAX} ids at a time` })
    .refine((ids) => new Set(ids).size === ids.length, { error: 'An id is repeated' }),
);

/** The body of a bulk delete. */
export const bulkIdsBody = z
  .strictObject({ ids: bulkIds, versions: bulkVersions })
  .superRefine(checkVersionIds);
export type BulkIdsBody = z.input<typeof bulkIdsBody>;

/** The body of a bulk status change. */
export const bulkStatusBody = z
  .strictObject({
    ids: bulkIds,
    status: z.enum(STATUSES, { error: `Must be one of ${STATUSES.join(', ')}` }),
    versions: bulkVersions,
  })
  .superRefine(checkVersionIds);
export type BulkStatusBody = z.input<typeof bulkStatusBody>;

export const position = z.enum(SIDES, { error: `Must be one of ${SIDES.join(', ')}` });

/** A date to set, or an empty string (or null) to clear it. */
export const dateOrEmpty = z.union([z.literal(''), z.null(), calendarDate], {
  error: `${DATE_MESSAGE}, or empty to clear it`,
});

export const poster = z.object({
  id: z.number().int(),
  version,
  masterAppId: z.number().int(),
  categoryId: z.number().int(),
  specialDayId: z.number().int().nullable(),
  topDefNum: z.number().int(),
  selfDefNum: z.number().int(),
  bottomDefNum: z.number().int(),
  /** The poster image's URL. */
  poster: z.string(),
  /** The thumbnail's URL, when one was uploaded. */
  videoThumb: z.string().nullable(),
  date: z.string().nullable(),
  downloadCount: z.number().int(),
  status: Status,
  position: Side,
  ...windowFields,
  createdAt: timestamp,
  updatedAt: timestamp,
  account: z.object({ id: z.number().int(), phoneNumber: z.string().nullable() }),
  category: z.object({ id: z.number().int(), name: z.string() }),
  masterApp: masterAppRef,
  specialDay: z
    .object({
      id: z.number().int(),
      name: z.string(),
      day: z.number().int(),
      month: z.number().int(),
    })
    .nullable(),
});
export type Poster = z.infer<typeof poster>;

/** Create for all apps: the image comes as the multipart file `file`, `thumbFile` optional. */
export const posterCreateBody = z.strictObject({
  date: optionalCalendarDate,
  position,
  topDefNum: defNum,
  selfDefNum: defNum,
  bottomDefNum: defNum,
  specialDayId: optionalId,
  ...scheduleFields,
});
export type PosterCreateBody = z.input<typeof posterCreateBody>;
/** The create fields as the server reads them, after validation. */
export type PosterCreateFields = z.output<typeof posterCreateBody>;

/** `posterCreateBody` with its window checked (the body of the create for every app). */
export const posterCreateAllBody = posterCreateBody.superRefine(checkWindow);

/** Create for one app: as for all apps, plus the app. */
export const posterCreateOneBody = posterCreateBody
  .extend({ masterAppId: id })
  .superRefine(checkWindow);
export type PosterCreateOneBody = z.input<typeof posterCreateOneBody>;

export const defNumsBody = z.strictObject({
  topDefNum: defNum,
  selfDefNum: defNum,
  bottomDefNum: defNum,
});
export type DefNumsBody = z.input<typeof defNumsBody>;

export const dateBody = z.strictObject({ date: dateOrEmpty });
export type DateBody = z.input<typeof dateBody>;

export const positionBody = z.strictObject({ position });
export type PositionBody = z.input<typeof positionBody>;

/** A path naming the category a new poster belongs to. */
export const categoryIdParams = z.strictObject({ categoryId: pathId });

export const POSTER_SORTS = ['createdAt', 'date', 'downloadCount', 'status'] as const;

export const posterListQuery = listQuery.extend({
  sort: sortParam(POSTER_SORTS),
  status: optionalEnum(STATUSES),
  categoryId: optionalId,
  specialDayId: optionalId,
  masterAppId: optionalId,
  live: liveParam,
});
export type PosterListQuery = z.input<typeof posterListQuery>;

export const posterList = listResponse(poster);
export const posterMutation = mutationResponse(poster);
