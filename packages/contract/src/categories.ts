import { z } from 'zod';
import { STATUSES, Status } from './enums.ts';
import {
  listQuery,
  listResponse,
  optionsResponse,
  mutationResponse,
  sortParam,
  version,
} from './common.ts';
import { optionalEnum, text, timestamp } from './fields.ts';

export const CATEGORY_NAME_MAX = 100;

export const category = z.object({
  id: z.number().int(),
  version,
  name: z.string(),
  downloadCount: z.number().int(),
  status: Status,
  createdAt: timestamp,
});
export type Category = z.infer<typeof category>;

/** Create and rename: the name is unique whatever its letter case. */
export const categoryBody = z.strictObject({ name: text(CATEGORY_NAME_MAX) });
export type CategoryBody = z.input<typeof categoryBody>;

export const CATEGORY_SORTS = ['createdAt', 'name', 'downloadCount', 'status'] as const;
export const categoryListQuery = listQuery.extend({
  status: optionalEnum(STATUSES),
  sort: sortParam(CATEGORY_SORTS),
});
export type CategoryListQuery = z.input<typeof categoryListQuery>;

export const categoryList = listResponse(category);
export const categoryMutation = mutationResponse(category);

/** The choices of a category picker (`optionsQuery`): the first 100 by name. */
export const categoryOption = category.pick({ id: true, name: true, status: true });
export const categoryOptions = optionsResponse(categoryOption);
