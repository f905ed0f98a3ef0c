import { z } from 'zod';
import { listQuery, listResponse, masterAppRef, mutationResponse } from './common.ts';
import { optionalId, text, timestamp } from './fields.ts';
import { richText } from './blogs.ts';

/** A master app's page (About Us, Privacy Policy, …): created with the app, never deleted. */
export const page = z.object({
  id: z.number().int(),
  title: z.string(),
  /** Sanitised HTML; may be empty. */
  desc: z.string(),
  masterApp: masterAppRef,
  updatedAt: timestamp,
});
export type Page = z.infer<typeof page>;

export const PAGE_UPDATE_FIELDS = ['title', 'desc'] as const;

/**
 * Update: `title`, `desc` or both. A title that is sent must not be empty; `desc` may be empty
 * (an empty page), so an empty `desc` is kept, not read as absent.
 */
export const pageUpdateBody = z
  .strictObject({
    title: text(200).optional(),
    desc: richText.optional(),
  })
  .refine((body) => Object.values(body).some((value) => value !== undefined), {
    error: `Send at least one of ${PAGE_UPDATE_FIELDS.join(', ')}`,
  });
export type PageUpdateBody = z.input<typeof pageUpdateBody>;

export const pageListQuery = listQuery.extend({ masterAppId: optionalId });
export type PageListQuery = z.input<typeof pageListQuery>;

export const pageList = listResponse(page);
export const pageMutation = mutationResponse(page);
