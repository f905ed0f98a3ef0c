/**
 * The poster as a user gets it: the poster image composed with that user's numbered images,
 * cached in the media store under a key derived from the content keys involved.
 */
import { createHash } from 'node:crypto';
import sharp, { type OverlayOptions } from 'sharp';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  IMAGE_KINDS,
  MESSAGES,
  PATHS,
  PREVIEW_MISSING_HEADER,
  errorResponse,
  previewParams,
  type ImageKind,
  type Side,
} from '@master-admin/contract';
import { access } from '../../http/access.ts';
import { notFound } from '../../http/errors.ts';
import type { Db } from '../../db/connect.ts';
import type { MediaService } from '../../media/service.ts';

/** Bumped whenever the layout below changes, so cached pictures of the old layout are not used. */
export const LAYOUT_VERSION = 1;
/** A strip (top or bottom) takes at most this share of the poster's height. */
const STRIP_MAX = 0.25;
/** The self photo's width, as a share of the poster's width. */
const SELF_WIDTH = 0.4;
const CACHE_HEADER = 'x-preview-cache';

export const LAYOUT = [
  `Layout ${LAYOUT_VERSION}: the poster image keeps its own size W×H.`,
  `The top image (number topDefNum) is scaled to width W and placed at the top edge; the bottom image (bottomDefNum) is scaled to width W and placed at the bottom edge; a strip taller than ${STRIP_MAX * 100}% of H is cropped to that height around its centre.`,
  `The self image (selfDefNum) is scaled to ${SELF_WIDTH * 100}% of W and placed in the lower corner on the poster's position side (LEFT or RIGHT), standing on the bottom strip (on the bottom edge when there is none); when taller than the room between the strips, it is scaled down to fit.`,
  `Answered as WebP. A slot the user has no image for stays empty and is named in the X-Preview-Missing header (comma-separated top, self, bottom; empty when none).`,
  `The picture is cached under a key derived from the poster's and the images' content keys, the side and the layout version: a repeat is not composed again (X-Preview-Cache: hit), and a changed image gives a new picture.`,
].join(' ');

const previewRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, media } = app.ctx;

  app.get(
    PATHS.posterPreview(':posterId', ':accountId'),
    {
      config: { access: access.menu('poster', 'VIEW') },
      schema: {
        tags: ['posters'],
        summary: 'The poster composed for a user with their numbered top, self and bottom images',
        description: LAYOUT,
        params: previewParams,
        produces: ['image/webp'],
        response: {
          200: z.any().meta({ description: 'The composed poster, image/webp' }),
          '4xx': errorResponse,
          '5xx': errorResponse,
        },
      },
    },
    async (request, reply) => {
      const { posterId, accountId } = request.params;
      const user = await db
        .selectFrom('accounts')
        .select('id')
        .where('id', '=', accountId)
        .where('role', '=', 'USER')
        .executeTakeFirst();
      const poster = await db
        .selectFrom('posters')
        .select('id')
        .where('id', '=', posterId)
        .executeTakeFirst();
      if (!poster) throw notFound(MESSAGES.posterNotFound);
      if (!user) throw notFound(MESSAGES.userNotFound);
      const { picture, missing, hit } = await composedPoster(db, media, posterId, accountId);
      return reply
        .type('image/webp')
        .header('cache-control', 'private, no-cache')
        .header(PREVIEW_MISSING_HEADER, missing.join(','))
        .header(CACHE_HEADER, hit ? 'hit' : 'miss')
        .send(picture);
    },
  );
};

/**
 * The poster `posterId` composed with the images of user `accountId` as LAYOUT says: from the
 * media store when composed before (`hit`), else composed and stored. The one composition of the
 * back-office's preview and the apps API's render.
 */
export async function composedPoster(
  db: Db,
  media: MediaService,
  posterId: number,
  accountId: number,
): Promise<{ picture: Buffer; key: string; missing: ImageKind[]; hit: boolean }> {
  const poster = await db
    .selectFrom('posters')
    .select(['poster', 'position', 'topDefNum', 'selfDefNum', 'bottomDefNum'])
    .where('id', '=', posterId)
    .executeTakeFirst();
  if (!poster) throw notFound(MESSAGES.posterNotFound);
  const numbers: Record<ImageKind, number> = {
    top: poster.topDefNum,
    self: poster.selfDefNum,
    bottom: poster.bottomDefNum,
  };
  const rows = await db
    .selectFrom('userImages')
    .select(['kind', 'image'])
    .where('accountId', '=', accountId)
    .where((eb) =>
      eb.or(
        IMAGE_KINDS.map((kind) =>
          eb.and([eb('kind', '=', kind), eb('defNum', '=', numbers[kind])]),
        ),
      ),
    )
    .execute();
  const slots: Partial<Record<ImageKind, string>> = {};
  for (const row of rows) slots[row.kind] = row.image;
  const missing = IMAGE_KINDS.filter((kind) => !slots[kind]);

  const hash = createHash('sha256')
    .update(
      JSON.stringify([LAYOUT_VERSION, poster.poster, poster.position, slots.top ?? null]) +
        JSON.stringify([slots.self ?? null, slots.bottom ?? null]),
    )
    .digest('hex');
  const key = `previews/${hash.slice(0, 2)}/${hash}.webp`;
  let picture = await media.store.get(key);
  const hit = picture !== undefined;
  if (!picture) {
    const read = async (k: string | undefined) =>
      k === undefined ? undefined : await media.store.get(k);
    const base = await read(poster.poster);
    if (!base) throw notFound('The poster’s image is not stored');
    picture = await compose(base, poster.position, {
      top: await read(slots.top),
      self: await read(slots.self),
      bottom: await read(slots.bottom),
    });
    await media.store.put(key, picture, 'image/webp');
  }
  return { picture, key, missing, hit };
}

/** Lays the user's images over the poster as LAYOUT says. */
export async function compose(
  poster: Buffer,
  side: Side,
  images: Partial<Record<ImageKind, Buffer | undefined>>,
): Promise<Buffer> {
  const meta = await sharp(poster).metadata();
  const width = meta.width;
  const height = meta.pageHeight ?? meta.height;
  const stripMax = Math.max(1, Math.floor(height * STRIP_MAX));
  const layers: OverlayOptions[] = [];

  const strip = async (image: Buffer) => {
    const scaled = await sharp(image).resize({ width }).toBuffer({ resolveWithObject: true });
    if (scaled.info.height <= stripMax) return scaled;
    return sharp(scaled.data)
      .resize({ width, height: stripMax, fit: 'cover' })
      .toBuffer({ resolveWithObject: true });
  };
  let topHeight = 0;
  let bottomHeight = 0;
  if (images.top) {
    const top = await strip(images.top);
    topHeight = top.info.height;
    layers.push({ input: top.data, top: 0, left: 0 });
  }
  if (images.bottom) {
    const bottom = await strip(images.bottom);
    bottomHeight = bottom.info.height;
    layers.push({ input: bottom.data, top: height - bottomHeight, left: 0 });
  }
  if (images.self) {
    const room = Math.max(1, height - topHeight - bottomHeight);
    const self = await sharp(images.self)
      .resize({ width: Math.max(1, Math.round(width * SELF_WIDTH)), height: room, fit: 'inside' })
      .toBuffer({ resolveWithObject: true });
    layers.push({
      input: self.data,
      top: height - bottomHeight - self.info.height,
      left: side === 'LEFT' ? 0 : width - self.info.width,
    });
  }
  return sharp(poster, { animated: false }).composite(layers).webp({ quality: 85 }).toBuffer();
}

export default previewRoutes;
