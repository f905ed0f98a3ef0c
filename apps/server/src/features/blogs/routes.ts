import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  BLOG_COLUMNS,
  MESSAGES,
  PATHS,
  blog,
  blogCreateBody,
  blogList,
  blogListQuery,
  blogMutation,
  blogPopularBody,
  blogUpdateBody,
  deleteResponse,
  idParams,
  statusBody,
  type Blog,
  BLOG_SORTS,
} from '@master-admin/contract';
import { access } from '../../http/access.ts';
import { registerListExport } from '../../http/list-export.ts';
import { registerVersioned } from '../../http/versions.ts';
import { audited, auditedCreate, updateAudited } from '../audit/record.ts';
import { moveToTrash } from '../trash/service.ts';
import { answers } from '../../http/schemas.ts';
import { invalidField, notFound } from '../../http/errors.ts';
import { hasVisibleContent, mediaPrefixes, sanitizeRichText } from '../../http/rich-text.ts';
import { now } from '../../db/dialect.ts';
import type { Db } from '../../db/connect.ts';
import { defineList } from '../../db/lists.ts';
import { upload } from '../../media/uploads.ts';

const FOLDER = 'blogs';
const COLUMNS = [
  'id',
  'version',
  'title',
  'author',
  'popular',
  'shortDesc',
  'image',
  'desc',
  'date',
  'status',
  'createdAt',
  'updatedAt',
] as const;

const selectBlogs = (d: Db) => d.selectFrom('blogs').select(COLUMNS);
type Row = Awaited<ReturnType<ReturnType<typeof selectBlogs>['executeTakeFirstOrThrow']>>;

export const BLOGS_LIST = defineList({
  name: 'blogs',
  table: 'blogs',
  alias: 'blogs',
  filters: { status: 'status' },
  counts: [['status']],
  search: ['title', 'author', 'shortDesc'],
  sorts: BLOG_SORTS,
  caseless: ['title'],
  rows: (db, ids) => selectBlogs(db).where('id', 'in', ids),
});

const blogRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, lists, media } = app.ctx;
  const prefixes = mediaPrefixes(media.store);

  const toBlog = ({ image, popular, ...row }: Row): Blog => ({
    ...row,
    popular: Boolean(popular),
    image: media.url(image),
  });

  async function findBlog(id: number): Promise<Blog> {
    const row = await selectBlogs(db).where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound(MESSAGES.blogNotFound);
    return toBlog(row);
  }
  registerVersioned(app, 'blogs', { thing: 'Blog', things: 'blogs', read: findBlog });

  /** The blog text as stored: sanitised, and still showing something. */
  function cleanDesc(html: string): string {
    const desc = sanitizeRichText(html, prefixes);
    if (!hasVisibleContent(desc)) throw invalidField('desc', 'Required');
    return desc;
  }

  app.post(
    PATHS.blogCreate,
    {
      config: {
        access: access.menu('blogs', 'CREATE'),
        uploads: { image: { kind: 'image', optional: true } },
      },
      schema: {
        tags: ['blogs'],
        summary: 'Creates a blog; the optional image comes as the multipart file `image`',
        description:
          '`desc` is rich text (at most 100000 characters), stored sanitised to a safe HTML ' +
          'subset; a `desc` that shows nothing once sanitised is refused (400 naming `desc`).',
        body: blogCreateBody,
        response: answers(blogMutation),
      },
    },
    async (request) => {
      const { title, author, shortDesc, date, status, popular } = request.body;
      const desc = cleanDesc(request.body.desc);
      const file = upload(request, 'image');
      const image = file ? await media.saveImage(file, FOLDER) : null;
      const at = now();
      let id: number;
      try {
        ({ id } = await auditedCreate(
          db,
          request,
          { area: 'blogs', table: 'blogs', action: 'CREATE' },
          (trx) =>
            trx
              .insertInto('blogs')
              .values({
                title,
                author,
                shortDesc,
                desc,
                image,
                date: date ?? null,
                popular,
                status,
                createdAt: at,
                updatedAt: at,
              })
              .returning('id')
              .executeTakeFirstOrThrow(),
        ));
      } catch (err) {
        await media.release([image]);
        throw err;
      }
      return { message: MESSAGES.blogCreated, result: await findBlog(id) };
    },
  );

  app.get(
    PATHS.blogList,
    {
      config: { access: access.menu('blogs', 'VIEW'), listPage: true },
      schema: {
        tags: ['blogs'],
        summary: 'Lists blogs, newest first; keyword searches title, author and short description',
        querystring: blogListQuery,
        response: answers(blogList),
      },
    },
    async (request) => {
      const page = await lists.page(BLOGS_LIST, request.query);
      return { ...page, result: page.result.map(toBlog) };
    },
  );

  registerListExport(app, {
    list: BLOGS_LIST,
    path: PATHS.blogList,
    file: 'blogs',
    access: access.menu('blogs', 'VIEW'),
    tags: ['blogs'],
    what: 'blogs',
    querystring: blogListQuery,
    response: blogList,
    titles: BLOG_COLUMNS,
    map: toBlog,
  });

  app.get(
    PATHS.blog(':id'),
    {
      config: { access: access.menu('blogs', 'VIEW') },
      schema: {
        tags: ['blogs'],
        summary: 'One blog, whole (the blog detail screen)',
        params: idParams,
        response: answers(blog),
      },
    },
    async (request) => findBlog(request.params.id),
  );

  app.patch(
    PATHS.blog(':id'),
    {
      config: { access: access.menu('blogs', 'UPDATE') },
      schema: {
        tags: ['blogs'],
        summary: 'Changes any of a blog’s title, author, short description, text and date',
        description:
          'At least one field. `date` sent empty (or null) clears the date; `desc` is stored ' +
          'sanitised and must show something.',
        params: idParams,
        body: blogUpdateBody,
        response: answers(blogMutation),
      },
    },
    async (request) => {
      const { title, author, shortDesc, date } = request.body;
      const desc = request.body.desc === undefined ? undefined : cleanDesc(request.body.desc);
      const found = await updateAudited(
        db,
        request,
        { area: 'blogs', table: 'blogs', action: 'UPDATE', id: request.params.id },
        { title, author, shortDesc, desc, date },
      );
      if (!found) throw notFound(MESSAGES.blogNotFound);
      return { message: MESSAGES.blogUpdated, result: await findBlog(request.params.id) };
    },
  );

  app.put(
    PATHS.blogImage(':id'),
    {
      config: { access: access.menu('blogs', 'UPDATE'), uploads: { image: 'image' } },
      schema: {
        tags: ['blogs'],
        summary: 'Sets or replaces a blog’s image with the multipart image `image`',
        params: idParams,
        response: answers(blogMutation),
      },
    },
    async (request) => {
      const file = upload(request, 'image', true);
      const old = await db
        .selectFrom('blogs')
        .select('image')
        .where('id', '=', request.params.id)
        .executeTakeFirst();
      if (!old) throw notFound(MESSAGES.blogNotFound);
      const image = await media.saveImage(file, FOLDER);
      const { numUpdatedRows } = await audited(
        db,
        request,
        { area: 'blogs', table: 'blogs', action: 'FILE', ids: [request.params.id] },
        (trx) =>
          trx
            .updateTable('blogs')
            .set({ image, updatedAt: now() })
            .where('id', '=', request.params.id)
            .executeTakeFirst(),
      );
      if (numUpdatedRows === 0n) {
        // Deleted meanwhile: the new file may now be unused.
        await media.release([image]);
        throw notFound(MESSAGES.blogNotFound);
      }
      if (old.image !== image) await media.release([old.image]);
      return { message: MESSAGES.imageUpdated, result: await findBlog(request.params.id) };
    },
  );

  app.put(
    PATHS.blogStatus(':id'),
    {
      config: { access: access.menu('blogs', 'UPDATE') },
      schema: {
        tags: ['blogs'],
        summary: 'Changes a blog’s status',
        params: idParams,
        body: statusBody,
        response: answers(blogMutation),
      },
    },
    async (request) => {
      const found = await updateAudited(
        db,
        request,
        { area: 'blogs', table: 'blogs', action: 'STATUS', id: request.params.id },
        { status: request.body.status },
      );
      if (!found) throw notFound(MESSAGES.blogNotFound);
      return { message: MESSAGES.statusUpdated, result: await findBlog(request.params.id) };
    },
  );

  app.put(
    PATHS.blogPopular(':id'),
    {
      config: { access: access.menu('blogs', 'UPDATE') },
      schema: {
        tags: ['blogs'],
        summary: 'Marks a blog popular or not',
        params: idParams,
        body: blogPopularBody,
        response: answers(blogMutation),
      },
    },
    async (request) => {
      const found = await updateAudited(
        db,
        request,
        { area: 'blogs', table: 'blogs', action: 'UPDATE', id: request.params.id },
        { popular: request.body.popular },
      );
      if (!found) throw notFound(MESSAGES.blogNotFound);
      return { message: MESSAGES.successfullyUpdated, result: await findBlog(request.params.id) };
    },
  );

  app.delete(
    PATHS.blogRemove(':id'),
    {
      config: { access: access.menu('blogs', 'DELETE') },
      schema: {
        tags: ['blogs'],
        summary: 'Moves a blog, with its images, to the trash',
        params: idParams,
        response: answers(deleteResponse),
      },
    },
    async (request) => {
      const row = await audited(
        db,
        request,
        { area: 'blogs', table: 'blogs', action: 'DELETE', ids: [request.params.id] },
        async (trx) => (await moveToTrash(trx, request, 'blogs', [request.params.id]))[0],
      );
      if (!row) throw notFound(MESSAGES.blogNotFound);
      return { message: MESSAGES.blogDeleted, result: { id: request.params.id } };
    },
  );
};
export default blogRoutes;
