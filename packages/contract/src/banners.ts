import { z } from 'zod';
import { LINK_TYPES, LinkType, STATUSES, Status } from './enums.ts';
import { listQuery, listResponse, masterAppRef, mutationResponse } from './common.ts';
import { optionalEnum, optionalId, optionalText, timestamp } from './fields.ts';

export const banner = z.object({
  id: z.number().int(),
  image: z.string(),
  status: Status,
  link: z.string().nullable(),
  linkType: LinkType,
  createdAt: timestamp,
  updatedAt: timestamp,
  masterApp: masterAppRef,
});
export type Banner = z.infer<typeof banner>;

const HTTP_URL = /^https?:\/\/[^\s/$.?#][^\s]*$/i;

/** A link and its type; an EXTERNAL link must be an http(s) URL. */
function linkRule(
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

/** Create: the image comes as the multipart file `file`. */
export const bannerCreateBody = z
  .strictObject({
    link: optionalText(2048),
    linkType: optionalEnum(LINK_TYPES).default('DEFAULT'),
  })
  .superRefine(linkRule);
export type BannerCreateBody = z.input<typeof bannerCreateBody>;

export const bannerLinkBody = z
  .strictObject({
    link: optionalText(2048),
    linkType: z.enum(LINK_TYPES, { error: `Must be one of ${LINK_TYPES.join(', ')}` }),
  })
  .superRefine(linkRule);
export type BannerLinkBody = z.input<typeof bannerLinkBody>;

export const bannerListQuery = listQuery.extend({
  status: optionalEnum(STATUSES),
  linkType: optionalEnum(LINK_TYPES),
  masterAppId: optionalId,
});
export type BannerListQuery = z.input<typeof bannerListQuery>;

export const bannerList = listResponse(banner);
export const bannerMutation = mutationResponse(banner);
