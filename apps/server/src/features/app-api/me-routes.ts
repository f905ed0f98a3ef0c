/**
 * The signed-in end user's own calls (API.md "Apps API"): profile, numbered images, the poster
 * composed for them, downloads, likes, shares, notifications, wallet and contact-us. Every change
 * is recorded through the audit log's one way in, by the user, so the back-office's lists and
 * dashboard hear it (Events) and an Idempotency-Key is marked with it.
 */
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { z } from 'zod';
import {
  APP_PATHS,
  MESSAGES,
  all,
  appContactUsBody,
  appDownload,
  appImage,
  appImageBody,
  appImageParams,
  appLike,
  appMeBody,
  appMessage,
  appNotification,
  appPosterParams,
  appShareBody,
  appUser,
  appWalletRow,
  errorResponse,
  feed,
  feedQuery,
  type ImageKind,
} from '@master-admin/contract';
import { isUniqueViolation, now } from '../../db/dialect.ts';
import { liveAt } from '../../http/schedules.ts';
import { inTransaction } from '../../db/transaction.ts';
import { Cursors, type Position } from '../../db/list-keyset.ts';
import { NEWEST_FIRST } from '../../db/lists.ts';
import { conflict, invalidField, notFound } from '../../http/errors.ts';
import { answers } from '../../http/schemas.ts';
import { upload } from '../../media/uploads.ts';
import { audited, record } from '../audit/record.ts';
import { createUserImage } from '../users/images.ts';
import { composedPoster } from '../posters/preview.ts';
import { WALLETS_LIST, userAuditTarget } from '../users/routes.ts';
import { saveEnquiry } from '../contact-us/routes.ts';
import { USER_COLUMNS, shownUser } from './auth-routes.ts';
import { PER_USER_LIMIT, appTags, markChange, noteActivity } from './shared.ts';

const IMAGE_FOLDER = 'user-images';
const NOTIFICATIONS_FEED = 'app_notifications';

const meRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, lists, media, secret, config } = app.ctx;
  const cursors = new Cursors(secret);
  // No If-Match: the app changes its user's own marks, not rows staff edit by version.
  const user = { app: 'user' as const, rateLimit: PER_USER_LIMIT, ifMatch: false as const };

  const me = (request: FastifyRequest) =>
    db
      .selectFrom('accounts as a')
      .leftJoin('userDetails as d', 'd.accountId', 'a.id')
      .select([...USER_COLUMNS, 'd.designation'])
      .where('a.id', '=', request.appUser.id)
      .executeTakeFirstOrThrow();

  /**
   * The app's live poster `id`: ACTIVE and inside its schedule (404 for any other: another app's,
   * inactive, not yet or no longer live, none).
   */
  async function livePoster(request: FastifyRequest, id: number) {
    const poster = await db
      .selectFrom('posters')
      .select(['id', 'categoryId', 'downloadCount', 'status'])
      .where('id', '=', id)
      .where('masterAppId', '=', request.appId)
      .where(liveAt(now()))
      .executeTakeFirst();
    if (!poster) throw notFound(MESSAGES.posterNotFound);
    return poster;
  }

  app.get(
    APP_PATHS.me,
    {
      config: user,
      schema: { tags: appTags('me'), summary: 'The signed-in user', response: answers(appUser) },
    },
    async (request) => shownUser(await me(request)),
  );

  app.patch(
    APP_PATHS.me,
    {
      config: user,
      schema: {
        tags: appTags('me'),
        summary: 'Changes the user’s name, email or designation (at least one)',
        description: 'The phone number is how the user signs in: it is not changed here.',
        body: appMeBody,
        response: answers(appUser),
      },
    },
    async (request) => {
      const { designation, ...account } = request.body;
      const set = Object.fromEntries(Object.entries(account).filter(([, v]) => v !== undefined));
      await audited(db, request, userAuditTarget('UPDATE', request.appUser.id), async (trx) => {
        const at = now();
        if (Object.keys(set).length > 0) {
          await trx
            .updateTable('accounts')
            .set({ ...set, updatedAt: at })
            .where('id', '=', request.appUser.id)
            .execute();
        }
        if (designation !== undefined) {
          await trx
            .updateTable('userDetails')
            .set({ designation, updatedAt: at })
            .where('accountId', '=', request.appUser.id)
            .execute();
        }
      });
      return shownUser(await me(request));
    },
  );

  const toImage = (row: {
    kind: ImageKind;
    defNum: number;
    position: 'LEFT' | 'RIGHT' | null;
    image: string;
    updatedAt: string;
  }) => ({
    kind: row.kind,
    defNum: row.defNum,
    position: row.kind === 'self' ? (row.position ?? 'LEFT') : null,
    image: media.url(row.image),
    updatedAt: row.updatedAt,
  });
  const imageColumns = ['id', 'kind', 'defNum', 'position', 'image', 'updatedAt'] as const;

  app.get(
    APP_PATHS.myImages,
    {
      config: user,
      schema: {
        tags: appTags('me'),
        summary: 'The user’s numbered top, self and bottom images',
        description: 'By kind, then number. A poster uses the images whose numbers it names.',
        response: answers(all(appImage)),
      },
    },
    async (request) => {
      const rows = await db
        .selectFrom('userImages')
        .select(imageColumns)
        .where('accountId', '=', request.appUser.id)
        .orderBy('kind')
        .orderBy('defNum')
        .execute();
      return { result: rows.map(toImage) };
    },
  );

  app.put(
    APP_PATHS.myImage(':kind', ':number'),
    {
      config: { ...user, uploads: { file: 'image' } },
      schema: {
        tags: appTags('me'),
        summary: 'Sets the user’s image of a kind and number (multipart image `file`)',
        description:
          'Creates it, or replaces its file. The image passes the back-office’s checks and is ' +
          're-encoded the same way. `position` (LEFT or RIGHT, default LEFT) is the side of the ' +
          'poster a self image suits; only for self.',
        params: appImageParams,
        body: appImageBody,
        response: answers(appImage),
      },
    },
    async (request) => {
      const { kind, number } = request.params;
      const { position } = request.body ?? {};
      if (position !== undefined && kind !== 'self') {
        throw invalidField('position', 'Only a self image has a position');
      }
      const file = upload(request, 'file', true);
      const key = await media.saveImage(file, IMAGE_FOLDER);
      const accountId = request.appUser.id;
      let replaced: string | undefined;
      try {
        const existing = await db
          .selectFrom('userImages')
          .select(['id', 'image'])
          .where('accountId', '=', accountId)
          .where('kind', '=', kind)
          .where('defNum', '=', number)
          .executeTakeFirst();
        if (existing) {
          await audited(
            db,
            request,
            { area: 'userImages', table: 'userImages', action: 'FILE', ids: [existing.id] },
            (trx) =>
              trx
                .updateTable('userImages')
                .set({ image: key, ...(position ? { position } : {}), updatedAt: now() })
                .where('id', '=', existing.id)
                .execute(),
          );
          replaced = existing.image;
        } else {
          await createUserImage(db, request, {
            accountId,
            kind,
            defNum: number,
            position: kind === 'self' ? (position ?? 'LEFT') : null,
            image: key,
          });
        }
      } catch (err) {
        await media.release([key]);
        // Set meanwhile by a racing upload of the same number: send it again to replace it.
        if (isUniqueViolation(err)) throw conflict(MESSAGES.defNumTaken, 'number');
        throw err;
      }
      if (replaced !== undefined && replaced !== key) await media.release([replaced]);
      const row = await db
        .selectFrom('userImages')
        .select(imageColumns)
        .where('accountId', '=', accountId)
        .where('kind', '=', kind)
        .where('defNum', '=', number)
        .executeTakeFirstOrThrow();
      return toImage(row);
    },
  );

  app.delete(
    APP_PATHS.myImage(':kind', ':number'),
    {
      config: user,
      schema: {
        tags: appTags('me'),
        summary: 'Deletes the user’s image of a kind and number',
        description: 'One the user does not have answers 404.',
        params: appImageParams,
        response: answers(appMessage),
      },
    },
    async (request) => {
      const { kind, number } = request.params;
      const found = await db
        .selectFrom('userImages')
        .select('id')
        .where('accountId', '=', request.appUser.id)
        .where('kind', '=', kind)
        .where('defNum', '=', number)
        .executeTakeFirst();
      if (!found) throw notFound(MESSAGES.imageNotFound);
      const row = await audited(
        db,
        request,
        { area: 'userImages', table: 'userImages', action: 'DELETE', ids: [found.id] },
        (trx) =>
          trx
            .deleteFrom('userImages')
            .where('id', '=', found.id)
            .returning('image')
            .executeTakeFirst(),
      );
      if (!row) throw notFound(MESSAGES.imageNotFound);
      await media.release([row.image]);
      return { message: MESSAGES[`${kind}ImageDeleted`] };
    },
  );

  app.get(
    APP_PATHS.render(':id'),
    {
      config: user,
      schema: {
        tags: appTags('posters'),
        summary: 'The poster composed with the user’s images (image/webp)',
        description:
          'Exactly as the back-office’s preview composes it; cached by the content keys involved ' +
          '(`X-Preview-Cache: hit` when served from that cache). `X-Preview-Missing` names the ' +
          'slots the user has no image for. A poster that is not an ACTIVE one of the app: 404.',
        params: appPosterParams,
        produces: ['image/webp'],
        response: {
          200: z.any().meta({ description: 'The composed poster, image/webp' }),
          '4xx': errorResponse,
          '5xx': errorResponse,
        },
      },
    },
    async (request, reply) => {
      await livePoster(request, request.params.id);
      const { picture, missing, hit } = await composedPoster(
        db,
        media,
        request.params.id,
        request.appUser.id,
      );
      return reply
        .type('image/webp')
        .header('cache-control', 'private, max-age=60')
        .header('x-preview-missing', missing.join(','))
        .header('x-preview-cache', hit ? 'hit' : 'miss')
        .send(picture);
    },
  );

  app.post(
    APP_PATHS.download(':id'),
    {
      config: user,
      schema: {
        tags: appTags('posters'),
        summary: 'Downloads the poster composed for the user: its URL, and one download counted',
        description:
          'Counts one download on the poster and its category and in the dashboard’s trends ' +
          '(that day, UTC). `url` is the composed picture (immutable). Send an Idempotency-Key ' +
          'to count a retried download once.',
        params: appPosterParams,
        response: answers(appDownload),
      },
    },
    async (request) => {
      const poster = await livePoster(request, request.params.id);
      const { key } = await composedPoster(db, media, poster.id, request.appUser.id);
      const count = await inTransaction(db, request.log, async (trx) => {
        // Counts, not edits: raw statements, so the rows' versions (an editor's If-Match) stay.
        await sql`update posters set download_count = download_count + 1 where id = ${poster.id}`.execute(
          trx,
        );
        await sql`update categories set download_count = download_count + 1 where id = ${poster.categoryId}`.execute(
          trx,
        );
        const day = now().slice(0, 10);
        await trx
          .insertInto('posterDownloads')
          .values({ posterId: poster.id, day, n: 1 })
          .onConflict((oc) =>
            oc.columns(['posterId', 'day']).doUpdateSet({ n: sql<number>`poster_downloads.n + 1` }),
          )
          .execute();
        const after = await trx
          .selectFrom('posters')
          .select('downloadCount')
          .where('id', '=', poster.id)
          .executeTakeFirstOrThrow();
        await record(trx, request, {
          area: 'posters',
          rowId: poster.id,
          action: 'DOWNLOAD',
          changes: [
            { field: 'downloadCount', old: after.downloadCount - 1, new: after.downloadCount },
          ],
        });
        return after.downloadCount;
      });
      return { url: media.url(key), downloadCount: count };
    },
  );

  /** Likes or unlikes poster `id` for the user; answers whether this call changed it. */
  async function setLike(request: FastifyRequest, id: number, liked: boolean) {
    const poster = await livePoster(request, id);
    const accountId = request.appUser.id;
    await inTransaction(db, request.log, async (trx) => {
      const changed = liked
        ? await trx
            .insertInto('posterLikes')
            .values({ accountId, posterId: poster.id, createdAt: now() })
            .onConflict((oc) => oc.columns(['accountId', 'posterId']).doNothing())
            .executeTakeFirst()
            .then((r) => Number(r.numInsertedOrUpdatedRows ?? 0) > 0)
        : await trx
            .deleteFrom('posterLikes')
            .where('accountId', '=', accountId)
            .where('posterId', '=', poster.id)
            .executeTakeFirst()
            .then((r) => r.numDeletedRows > 0n);
      if (!changed) {
        await markChange(trx, request);
        return;
      }
      await noteActivity(trx, request, {
        accountId,
        activity: liked ? 'LIKE' : 'UNLIKE',
        posterId: poster.id,
      });
      await record(trx, request, {
        area: 'posters',
        rowId: poster.id,
        action: liked ? 'LIKE' : 'UNLIKE',
        changes: [{ field: 'liked', old: !liked, new: liked }],
      });
    });
    return { message: liked ? MESSAGES.posterLiked : MESSAGES.posterUnliked, liked };
  }

  app.put(
    APP_PATHS.like(':id'),
    {
      config: user,
      schema: {
        tags: appTags('posters'),
        summary: 'Likes a poster (activity LIKE); liking it again changes nothing',
        params: appPosterParams,
        response: answers(appLike),
      },
    },
    async (request) => setLike(request, request.params.id, true),
  );

  app.delete(
    APP_PATHS.like(':id'),
    {
      config: user,
      schema: {
        tags: appTags('posters'),
        summary: 'Takes a like back (activity UNLIKE); one not there changes nothing',
        params: appPosterParams,
        response: answers(appLike),
      },
    },
    async (request) => setLike(request, request.params.id, false),
  );

  app.post(
    APP_PATHS.share(':id'),
    {
      config: user,
      schema: {
        tags: appTags('posters'),
        summary: 'Tells that the user shared a poster (activity SHARED)',
        description: '`to` says where (whatsapp, instagram …), at most 40 characters.',
        params: appPosterParams,
        body: appShareBody,
        response: answers(appMessage),
      },
    },
    async (request) => {
      const poster = await livePoster(request, request.params.id);
      const to = request.body.to ?? null;
      await inTransaction(db, request.log, async (trx) => {
        await noteActivity(trx, request, {
          accountId: request.appUser.id,
          activity: 'SHARED',
          posterId: poster.id,
          detail: to,
        });
        await record(trx, request, {
          area: 'posters',
          rowId: poster.id,
          action: 'SHARE',
          changes: [{ field: 'sharedTo', old: null, new: to }],
        });
      });
      return { message: MESSAGES.posterShared };
    },
  );

  app.get(
    APP_PATHS.myNotifications,
    {
      config: user,
      schema: {
        tags: appTags('me'),
        summary: 'The user’s notifications: their own and the app’s to everyone, newest first',
        description:
          '`read` says whether this user has read it. `nextCursor` asks for the next page.',
        querystring: feedQuery,
        response: answers(feed(appNotification)),
      },
    },
    async (request) => {
      const { limit, cursor } = request.query;
      const { id: accountId } = request.appUser;
      const after: Position | undefined =
        cursor === undefined
          ? undefined
          : cursors.decode(NOTIFICATIONS_FEED, NEWEST_FIRST, cursor, 1);
      let query = db
        .selectFrom('notifications as n')
        .leftJoin('notificationReads as r', (join) =>
          join.onRef('r.notificationId', '=', 'n.id').on('r.accountId', '=', accountId),
        )
        .select([
          'n.id',
          'n.title',
          'n.desc',
          'n.type',
          'n.logo',
          'n.accountId',
          'n.createdAt',
          'r.readAt',
        ])
        .where('n.masterAppId', '=', request.appId)
        .where((eb) => eb.or([eb('n.accountId', 'is', null), eb('n.accountId', '=', accountId)]));
      if (after) {
        const at = String(after.keys[0]);
        query = query.where((eb) =>
          eb.or([
            eb('n.createdAt', '<', at),
            eb.and([eb('n.createdAt', '=', at), eb('n.id', '<', after.id)]),
          ]),
        );
      }
      const rows = await query
        .orderBy('n.createdAt', 'desc')
        .orderBy('n.id', 'desc')
        .limit(limit + 1)
        .execute();
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      return {
        result: page.map((n) => ({
          id: n.id,
          title: n.title,
          desc: n.desc,
          type: n.type,
          logo: media.url(n.logo),
          personal: n.accountId !== null,
          read: n.readAt !== null,
          createdAt: n.createdAt,
        })),
        nextCursor:
          rows.length > limit && last
            ? cursors.encode(NOTIFICATIONS_FEED, NEWEST_FIRST, {
                keys: [last.createdAt],
                id: last.id,
              })
            : null,
      };
    },
  );

  app.put(
    APP_PATHS.notificationRead(':id'),
    {
      config: user,
      schema: {
        tags: appTags('me'),
        summary: 'Marks a notification read by the user',
        description: 'Once: reading it again changes nothing. One that is not the user’s: 404.',
        params: appPosterParams,
        response: answers(appMessage),
      },
    },
    async (request) => {
      const { id: accountId } = request.appUser;
      const notification = await db
        .selectFrom('notifications')
        .select(['id', 'accountId'])
        .where('id', '=', request.params.id)
        .where('masterAppId', '=', request.appId)
        .where((eb) => eb.or([eb('accountId', 'is', null), eb('accountId', '=', accountId)]))
        .executeTakeFirst();
      if (!notification) throw notFound(MESSAGES.notificationNotFound);
      await inTransaction(db, request.log, async (trx) => {
        const inserted = await trx
          .insertInto('notificationReads')
          .values({ notificationId: notification.id, accountId, readAt: now() })
          .onConflict((oc) => oc.columns(['notificationId', 'accountId']).doNothing())
          .executeTakeFirst();
        if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) {
          await markChange(trx, request);
          return;
        }
        // Counts, not edits: the row's version stays.
        await sql`update notifications set read_count = read_count + 1, read = ${sql.lit(true)} where id = ${notification.id} and account_id = ${accountId}`.execute(
          trx,
        );
        await sql`update notifications set read_count = read_count + 1 where id = ${notification.id} and account_id is null`.execute(
          trx,
        );
        await record(trx, request, {
          area: 'notifications',
          rowId: notification.id,
          action: 'READ',
          changes: [{ field: 'readBy', old: null, new: accountId }],
        });
      });
      return { message: MESSAGES.notificationRead };
    },
  );

  app.get(
    APP_PATHS.myWallet,
    {
      config: user,
      schema: {
        tags: appTags('me'),
        summary: 'The user’s reward history, newest first (read only)',
        description: '`nextCursor` asks for the next page.',
        querystring: feedQuery,
        response: answers(feed(appWalletRow)),
      },
    },
    async (request) => {
      const page = await lists.page(WALLETS_LIST, {
        ...request.query,
        offset: 0,
        accountId: request.appUser.id,
      });
      return { result: page.result, nextCursor: page.nextCursor };
    },
  );

  app.post(
    APP_PATHS.contactUs,
    {
      config: {
        ...user,
        rateLimit: {
          max: config.contactRatePerHour,
          timeWindow: '1 hour',
          keyGenerator: (request) => `app-contact:${request.appUser?.id ?? request.ip}`,
        },
      },
      schema: {
        tags: appTags('me'),
        summary: 'Sends an enquiry from the user',
        description: `At most CONTACT_RATE_PER_HOUR (now ${config.contactRatePerHour}) an hour per user, then 429.`,
        body: appContactUsBody,
        response: answers(appMessage),
      },
    },
    async (request) => {
      await inTransaction(db, request.log, async (trx) => {
        await saveEnquiry(trx, request.body);
        await markChange(trx, request);
      });
      return { message: MESSAGES.contactReceived };
    },
  );
};

export default meRoutes;
