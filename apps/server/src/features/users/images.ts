/**
 * A user's numbered images: top, self (with the side it suits) and bottom. One number per kind
 * per user, held by the unique index on (account, kind, number), so two racing uploads of the
 * same number cannot both win: the loser answers 409 and its file is let go.
 */
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Insertable } from 'kysely';
import {
  USER_IMAGE_COLUMNS,
  IMAGE_KINDS,
  MESSAGES,
  PATHS,
  accountIdParams,
  defNumBody,
  deleteResponse,
  idParams,
  imageCreateBody,
  imageList,
  imageListQuery,
  imageMutation,
  positionBody,
  selfImageCreateBody,
  selfImageListQuery,
  type ImageKind,
  type UserImage,
} from '@master-admin/contract';
import { access } from '../../http/access.ts';
import { registerListExport } from '../../http/list-export.ts';
import { audited, auditedCreate } from '../audit/record.ts';
import { answers } from '../../http/schemas.ts';
import { conflict, invalidField, notFound } from '../../http/errors.ts';
import { isUniqueViolation, now } from '../../db/dialect.ts';
import { defineList } from '../../db/lists.ts';
import type { Db } from '../../db/connect.ts';
import type { UserImageTable } from '../../db/schema.ts';
import { upload } from '../../media/uploads.ts';
import { ownedLists, requireUser } from './routes.ts';
import { registerVersioned } from '../../http/versions.ts';

const FOLDER = 'user-images';
const MENU = 'users';

const selectImages = (d: Db) =>
  d
    .selectFrom('userImages as i')
    .select([
      'i.id',
      'i.version',
      'i.accountId',
      'i.kind',
      'i.defNum',
      'i.position',
      'i.image',
      'i.createdAt',
      'i.updatedAt',
    ]);
type Row = Awaited<ReturnType<ReturnType<typeof selectImages>['executeTakeFirstOrThrow']>>;

/** Records a new numbered image of a user (audited CREATE); answers its id. */
export async function createUserImage(
  db: Db,
  request: FastifyRequest,
  image: Omit<Insertable<UserImageTable>, 'createdAt' | 'updatedAt'>,
): Promise<number> {
  const at = now();
  const row = await auditedCreate(
    db,
    request,
    { area: 'userImages', table: 'userImages', action: 'CREATE' },
    (trx) =>
      trx
        .insertInto('userImages')
        .values({ ...image, createdAt: at, updatedAt: at })
        .returning('id')
        .executeTakeFirstOrThrow(),
  );
  return row.id;
}

export const USER_IMAGES_LIST = defineList({
  name: 'user_images',
  table: 'userImages',
  alias: 'i',
  filters: { accountId: 'accountId', kind: 'kind', position: 'position' },
  counts: [['accountId', 'kind', 'position']],
  search: [],
  // By number (API.md), ties impossible: the number is unique per user and kind.
  order: [
    ['defNum', 'asc'],
    ['id', 'asc'],
  ],
  rows: (db, ids) => selectImages(db).where('i.id', 'in', ids),
});

const messages = (kind: ImageKind) => ({
  uploaded: MESSAGES[`${kind}ImageUploaded`],
  updated: MESSAGES[`${kind}ImageUpdated`],
  deleted: MESSAGES[`${kind}ImageDeleted`],
});

const numberTaken = () => conflict(MESSAGES.defNumTaken, 'defNum');

const imageRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, lists, media } = app.ctx;
  const owned = ownedLists(db, lists);

  const toImage = (row: Row): UserImage => {
    const { kind, position, image, ...rest } = row;
    return {
      ...rest,
      image: media.url(image),
      ...(kind === 'self' ? { position: position ?? 'LEFT' } : {}),
    };
  };

  async function findImage(kind: ImageKind, id: number) {
    const row = await selectImages(db)
      .where('i.id', '=', id)
      .where('i.kind', '=', kind)
      .executeTakeFirst();
    if (!row) throw notFound(MESSAGES.imageNotFound);
    return row;
  }
  registerVersioned(app, 'userImages', {
    thing: 'Image',
    things: 'images',
    read: async (id) => {
      const row = await selectImages(db).where('i.id', '=', id).executeTakeFirst();
      return row && toImage(row);
    },
  });

  /** Runs `write`; a number the user already has for the kind is a 409. */
  async function uniqueNumber<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (err) {
      if (isUniqueViolation(err)) throw numberTaken();
      throw err;
    }
  }

  for (const kind of IMAGE_KINDS) {
    const tags = ['user images'];
    const { uploaded, updated, deleted } = messages(kind);
    const self = kind === 'self';

    app.post(
      PATHS.imageCreate(kind, ':accountId'),
      {
        config: { access: access.menu(MENU, 'CREATE'), uploads: { file: 'image' } },
        schema: {
          tags,
          summary: `Uploads a ${kind} image of a user (multipart image \`file\`) with its default number${self ? ' and side' : ''}`,
          description:
            'A number the user already has for this kind answers 409; an account that is not ' +
            'a USER, or none, 404.',
          params: accountIdParams,
          body: self ? selfImageCreateBody : imageCreateBody,
          response: answers(imageMutation),
        },
      },
      async (request) => {
        const file = upload(request, 'file', true);
        const { accountId } = request.params;
        await requireUser(db, accountId);
        const body = request.body as { defNum: number; position?: 'LEFT' | 'RIGHT' };
        const taken = await db
          .selectFrom('userImages')
          .select('id')
          .where('accountId', '=', accountId)
          .where('kind', '=', kind)
          .where('defNum', '=', body.defNum)
          .executeTakeFirst();
        if (taken) throw numberTaken();
        const key = await media.saveImage(file, FOLDER);
        let id: number;
        try {
          id = await uniqueNumber(async () => {
            return createUserImage(db, request, {
              accountId,
              kind,
              defNum: body.defNum,
              position: self ? (body.position ?? 'LEFT') : null,
              image: key,
            });
          });
        } catch (err) {
          await media.release([key]);
          throw err;
        }
        return { message: uploaded, result: toImage(await findImage(kind, id)) };
      },
    );

    app.get(
      PATHS.imageList(kind, ':accountId'),
      {
        config: { access: access.menu(MENU, 'VIEW'), listPage: true },
        schema: {
          tags,
          summary: `Lists a user’s ${kind} images by default number`,
          params: accountIdParams,
          querystring: self ? selfImageListQuery : imageListQuery,
          response: answers(imageList),
        },
      },
      async (request) => {
        const query = { ...request.query, kind };
        const { page, role } = await owned(USER_IMAGES_LIST, request.params.accountId, query);
        if (role !== 'USER') throw notFound(MESSAGES.userNotFound);
        return { ...page, result: page.result.map(toImage) };
      },
    );

    registerListExport(app, {
      list: USER_IMAGES_LIST,
      path: PATHS.imageList(kind, ':accountId'),
      file: `${kind}-images`,
      access: access.menu(MENU, 'VIEW'),
      tags,
      what: `${kind} images of a user`,
      params: accountIdParams,
      querystring: self ? selfImageListQuery : imageListQuery,
      response: imageList,
      titles: USER_IMAGE_COLUMNS,
      scope: async ({ accountId }) => {
        await requireUser(db, accountId);
        return { accountId, kind };
      },
      map: toImage,
    });

    app.put(
      PATHS.imageFile(kind, ':id'),
      {
        config: { access: access.menu(MENU, 'UPDATE'), uploads: { file: 'image' } },
        schema: {
          tags,
          summary: `Replaces the file of a ${kind} image with the multipart image \`file\``,
          params: idParams,
          response: answers(imageMutation),
        },
      },
      async (request) => {
        const file = upload(request, 'file', true);
        const { id } = request.params;
        await findImage(kind, id);
        const key = await media.saveImage(file, FOLDER);
        const old = await db
          .selectFrom('userImages')
          .select('image')
          .where('id', '=', id)
          .executeTakeFirst();
        if (!old) {
          await media.release([key]);
          throw notFound(MESSAGES.imageNotFound);
        }
        await audited(
          db,
          request,
          { area: 'userImages', table: 'userImages', action: 'FILE', ids: [id] },
          (trx) =>
            trx
              .updateTable('userImages')
              .set({ image: key, updatedAt: now() })
              .where('id', '=', id)
              .execute(),
        );
        if (old.image !== key) await media.release([old.image]);
        return { message: updated, result: toImage(await findImage(kind, id)) };
      },
    );

    app.patch(
      PATHS.imageDefNum(kind, ':id'),
      {
        config: { access: access.menu(MENU, 'UPDATE') },
        schema: {
          tags,
          summary: `Changes the default number of a ${kind} image`,
          description:
            '`accountId`, when given, must be the image’s owner (400 otherwise). A number the ' +
            'user already has for this kind answers 409.',
          params: idParams,
          body: defNumBody,
          response: answers(imageMutation),
        },
      },
      async (request) => {
        const { id } = request.params;
        const image = await findImage(kind, id);
        const { defNum, accountId } = request.body;
        if (accountId !== undefined && accountId !== image.accountId) {
          throw invalidField('accountId', MESSAGES.notImageOwner);
        }
        const target = {
          area: 'userImages',
          table: 'userImages',
          action: 'UPDATE',
          ids: [id],
        } as const;
        await uniqueNumber(() =>
          audited(db, request, target, (trx) =>
            trx
              .updateTable('userImages')
              .set({ defNum, updatedAt: now() })
              .where('id', '=', id)
              .execute(),
          ),
        );
        return { message: updated, result: toImage(await findImage(kind, id)) };
      },
    );

    app.delete(
      PATHS.imageRemove(kind, ':id'),
      {
        config: { access: access.menu(MENU, 'DELETE') },
        schema: {
          tags,
          summary: `Deletes a ${kind} image and, when no other row uses it, its file`,
          params: idParams,
          response: answers(deleteResponse),
        },
      },
      async (request) => {
        const { id } = request.params;
        const row = await audited(
          db,
          request,
          { area: 'userImages', table: 'userImages', action: 'DELETE', ids: [id] },
          (trx) =>
            trx
              .deleteFrom('userImages')
              .where('id', '=', id)
              .where('kind', '=', kind)
              .returning('image')
              .executeTakeFirst(),
        );
        if (!row) throw notFound(MESSAGES.imageNotFound);
        await media.release([row.image]);
        return { message: deleted, result: { id } };
      },
    );
  }

  app.patch(
    PATHS.selfPosition(':id'),
    {
      config: { access: access.menu(MENU, 'UPDATE') },
      schema: {
        tags: ['user images'],
        summary: 'Changes the side of the poster a self image suits',
        params: idParams,
        body: positionBody,
        response: answers(imageMutation),
      },
    },
    async (request) => {
      const { id } = request.params;
      await findImage('self', id);
      await audited(
        db,
        request,
        { area: 'userImages', table: 'userImages', action: 'UPDATE', ids: [id] },
        (trx) =>
          trx
            .updateTable('userImages')
            .set({ position: request.body.position, updatedAt: now() })
            .where('id', '=', id)
            .execute(),
      );
      return {
        message: MESSAGES.selfPositionUpdated,
        result: toImage(await findImage('self', id)),
      };
    },
  );
};

export default imageRoutes;
