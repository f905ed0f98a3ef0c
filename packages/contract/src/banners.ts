import { z } from 'zod';
import { LINK_TYPES, LinkType, STATUSES, Status } from './enums.ts';
import {
  listQuery,
  listResponse,
  masterAppRef,
  mutationResponse,
  sortParam,
  version,
} from './common.ts';
import { optionalEnum, optionalId, optionalText, timestamp } from './fields.ts';
import { checkWindow, liveParam, scheduleFields, windowFields } from './schedules.ts';

export const banner = z.object({
  id: z.number().int(),
  version,
  image: z.string(),
  status: Status,
  link: z.string().nullable(),
  linkType: LinkType,
  ...windowFields,
  createdAt: timestamp,
  updatedAt: timestamp,
  masterApp: masterAppRef,
});
export type Banner = z.infer<typeof banner>;

const HTTP_URL = /^https?:\/\/[^\s/$.?#][^\s]*$/i;

/** A link and its type; an EXTERNAL link must be an http(s) URL. */
export function linkRule(
  body: { link?: string | undefined; linkType?: string | undefined },
  ctx: z.RefinementCtx,
) {
  if (body.linkType === 'EXTERNAL' && !(body.link && HTTP_URL.test(body.link))) {
    ctx.addIssue({
      code: 'custom',
      path: ['link'],
      message: 'An EXTERNAL link must be an http:// or https:// URL',
    });
  }
}

/** `linkRule` as the API document states it. */
const LINK_RULE_DOCUMENTED = {
  if: { properties: { linkType: { const: 'EXTERNAL' } }, required: ['linkType'] },
  then: {
    required: ['link'],
    properties: { link: { pattern: '^[Hh][Tt][Tt][Pp][Ss]?://[^\\s/$.?#]\\S*$' } },
  },
};

/** The create's fields, without their checks (for forms that extend them). */
export const bannerCreateFields = z.strictObject({
  link: optionalText(2048),
  linkType: optionalEnum(LINK_TYPES).default('DEFAULT'),
  ...scheduleFields,
});

/** Create: the image comes as the multipart file `file`. */
export const bannerCreateBody = bannerCreateFields
  .superRefine(linkRule)
  .superRefine(checkWindow)
  .meta(LINK_RULE_DOCUMENTED);
export type BannerCreateBody = z.input<typeof bannerCreateBody>;

export const bannerLinkBody = z
  .strictObject({
    link: optionalText(2048),
    linkType: z.enum(LINK_TYPES, { error: `Must be one of ${LINK_TYPES.join(', ')}` }),
  })
  .superRefine(linkRule)
  .meta(LINK_RULE_DOCUMENTED);
export type BannerLinkBody = z.input<typeof bannerLinkBody>;

export const BANNER_SORTS = ['createdAt', 'status', 'linkType'] as const;

export const bannerListQuery = listQuery.extend({
  sort: sortParam(BANNER_SORTS),
  status: optionalEnum(STATUSES),
  linkType: optionalEnum(LINK_TYPES),
  masterAppId: optionalId,
  live: liveParam,
});
export type BannerListQuery = z.input<typeof bannerListQuery>;

export const bannerList = listResponse(banner);
export const bannerMutation = mutationResponse(banner);
