import { z } from 'zod';
import { STATUSES, Status } from './enums.ts';
import { listQuery, listResponse, mutationResponse, sortParam, version } from './common.ts';
import {
  blankAsAbsent,
  blankAsNull,
  bool,
  calendarDate,
  optionalCalendarDate,
  optionalEnum,
  optionalText,
  plainText,
  text,
  timestamp,
} from './fields.ts';
import { atLeastOne, atLeastOneDocumented, onceFieldsValid } from './partial.ts';

/** Largest rich text (blog and page `desc`) accepted, in characters, before it is sanitised. */
export const RICH_TEXT_MAX_LENGTH = 100_000;

/**
 * Rich text as the editor writes it (HTML). The server stores it sanitised to a safe subset, so
 * what a call answers may differ from what was sent.
 */
export const richText = plainText(RICH_TEXT_MAX_LENGTH, { multiline: true });

/** A blog's rich text: required, and it must show something once sanitised (checked by the server). */
const blogDesc = richText.regex(/\S/, { error: 'Required' });

/** An optional boolean with a default; "true"/"false", "1"/"0" accepted, empty means absent. */
const optionalBool = blankAsAbsent(bool);

/** A date to set: YYYY-MM-DD, or an empty string or null to clear it. */
const dateOrNone = blankAsNull(calendarDate).meta({
  description: 'YYYY-MM-DD; an empty string or null clears the date',
});

export const blog = z.object({
  id: z.number().int(),
  version,
  title: z.string(),
  author: z.string(),
  popular: z.boolean(),
  shortDesc: z.string(),
  image: z.string().nullable(),
  /** Sanitised HTML. */
  desc: z.string(),
  date: z.string().nullable(),
  status: Status,
  createdAt: timestamp,
  updatedAt: timestamp,
});
export type Blog = z.infer<typeof blog>;

/** Create: the optional image comes as the multipart file `image`. */
export const blogCreateBody = z.strictObject({
  title: text(200),
  author: text(100),
  shortDesc: text(500, { multiline: true }),
  desc: blogDesc,
  date: optionalCalendarDate,
  status: optionalEnum(STATUSES).default('ACTIVE'),
  popular: optionalBool.default(false),
});
export type BlogCreateBody = z.input<typeof blogCreateBody>;

export const BLOG_UPDATE_FIELDS = ['title', 'author', 'shortDesc', 'desc', 'date'] as const;

/**
 * Update: any of the fields, at least one. As everywhere, an empty text field counts as absent
 * (API.md, Conventions); `date` sent empty (or null) clears the date.
 */
export const blogUpdateBody = z
  .strictObject({
    title: optionalText(200),
    author: optionalText(100),
    shortDesc: optionalText(500, { multiline: true }),
    desc: blankAsAbsent(blogDesc),
    date: dateOrNone.optional(),
  })
  .superRefine((body, ctx) => atLeastOne(body, BLOG_UPDATE_FIELDS, ctx), onceFieldsValid)
  .meta(atLeastOneDocumented(BLOG_UPDATE_FIELDS, ['date']));
export type BlogUpdateBody = z.input<typeof blogUpdateBody>;

/** The edit dialog's form: every text field stays required there; the date may be emptied. */
export const blogEditForm = blogCreateBody
  .pick({ title: true, author: true, shortDesc: true, desc: true })
  .extend({ date: dateOrNone.optional() });

export const blogPopularBody = z.strictObject({ popular: bool });
export type BlogPopularBody = z.input<typeof blogPopularBody>;

export const BLOG_SORTS = ['createdAt', 'title', 'date', 'status'] as const;
export const blogListQuery = listQuery.extend({
  status: optionalEnum(STATUSES),
  sort: sortParam(BLOG_SORTS),
});
export type BlogListQuery = z.input<typeof blogListQuery>;

export const blogList = listResponse(blog);
export const blogMutation = mutationResponse(blog);
