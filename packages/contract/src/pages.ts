import { z } from 'zod';
import {
  listQuery,
  listResponse,
  masterAppRef,
  mutationResponse,
  sortParam,
  version,
} from './common.ts';
import { optionalId, optionalText, text, timestamp } from './fields.ts';
import { atLeastOne, atLeastOneDocumented, onceFieldsValid } from './partial.ts';
import { richText } from './blogs.ts';

/** A master app's page (About Us, Privacy Policy, …): created with the app, never deleted. */
export const page = z.object({
  id: z.number().int(),
  version,
  title: z.string(),
  /** Sanitised HTML; may be empty. */
  desc: z.string(),
  masterApp: masterAppRef,
  updatedAt: timestamp,
});
export type Page = z.infer<typeof page>;

export const PAGE_UPDATE_FIELDS = ['title', 'desc'] as const;

/**
 * Update: `title`, `desc` or both. An empty title counts as absent (API.md, Conventions); `desc`
 * may be empty (an empty page), so an empty `desc` is kept, not read as absent.
 */
export const pageUpdateBody = z
  .strictObject({
    title: optionalText(200),
    desc: richText.optional(),
  })
  .superRefine((body, ctx) => atLeastOne(body, PAGE_UPDATE_FIELDS, ctx), onceFieldsValid)
  .meta(atLeastOneDocumented(PAGE_UPDATE_FIELDS, ['desc']));
export type PageUpdateBody = z.input<typeof pageUpdateBody>;

/** The edit dialog's form: the title stays required there. */
export const pageEditForm = z.object({ title: text(200), desc: richText });

export const PAGE_SORTS = ['title', 'updatedAt'] as const;
export const pageListQuery = listQuery.extend({
  masterAppId: optionalId,
  sort: sortParam(PAGE_SORTS),
});
export type PageListQuery = z.input<typeof pageListQuery>;

export const pageList = listResponse(page);
export const pageMutation = mutationResponse(page);
