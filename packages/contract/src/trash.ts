import { z } from 'zod';
import { AUDIT_AREA_MENUS } from './audit.ts';
import { listQuery, listResponse } from './common.ts';
import { id, optionalEnum, timestamp } from './fields.ts';
import { BULK_MAX } from './posters.ts';

/**
 * The trash (API.md "Planning festivals"): the areas whose deletes move rows there, by their
 * audit area name. A staff member sees, restores and (never: SUPER_ADMIN only) purges the rows
 * of the areas whose menu they hold DELETE on.
 */
export const TRASH_AREAS = [
  'posters',
  'videos',
  'banners',
  'categories',
  'specialDays',
  'blogs',
  'pages',
  'faqs',
  'notifications',
] as const;
export type TrashArea = (typeof TRASH_AREAS)[number];

/** The menu whose DELETE right lets an account see, restore and delete a trash area's rows. */
export const TRASH_AREA_MENUS = Object.fromEntries(
  TRASH_AREAS.map((area) => [area, AUDIT_AREA_MENUS[area]]),
) as { [A in TrashArea]: (typeof AUDIT_AREA_MENUS)[A] };

/** Days a trashed row is kept before the sweep purges it, unless TRASH_DAYS says otherwise. */
export const TRASH_DAYS_DEFAULT = 30;

export const trashListQuery = listQuery.omit({ cursor: true }).extend({
  area: optionalEnum(TRASH_AREAS),
});
export type TrashListQuery = z.input<typeof trashListQuery>;

export const trashRow = z.object({
  area: z.enum(TRASH_AREAS),
  id: z.number().int(),
  title: z.string(),
  /** The row's picture (a URL), when it has one. */
  thumbnail: z.string().nullable(),
  deletedAt: timestamp,
  deletedBy: z.object({ id: z.number().int(), name: z.string() }).nullable(),
});
export type TrashRow = z.infer<typeof trashRow>;

export const trashList = listResponse(trashRow);

const trashItem = z.strictObject({
  area: z.enum(TRASH_AREAS, { error: `Must be one of ${TRASH_AREAS.join(', ')}` }),
  id,
});
export type TrashItem = z.infer<typeof trashItem>;

/** 1..500 distinct `{ area, id }` items (a JSON body). */
export const trashItemsBody = z.strictObject({
  items: z
    .array(trashItem, { error: 'Must be a list of { area, id }' })
    .min(1, { error: 'Give at least one item' })
    .max(BULK_MAX, { error: `At most ${BULK_MAX} items at a time` })
    .refine((items) => new Set(items.map((i) => `${i.area}/${i.id}`)).size === items.length, {
      error: 'An item is repeated',
    }),
});
export type TrashItemsBody = z.input<typeof trashItemsBody>;

export const trashResponse = z.object({
  message: z.string(),
  result: z.object({
    items: z.array(z.object({ area: z.enum(TRASH_AREAS), id: z.number().int() })),
    count: z.number().int(),
  }),
});
