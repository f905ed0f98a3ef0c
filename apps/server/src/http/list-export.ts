/**
 * CSV export of a list: `GET <list path>/export` beside every list call, answering every row that
 * matches the list's filters, keyword and sort (no paging, no row cap) as CSV, with the list's
 * own access rule. The rows come from `Lists.walk` a chunk at a time and are written as the
 * client takes them: a Readable pulls the next chunk only when the response has drained, so
 * memory stays flat at a million rows, and a client that goes away ends the walk.
 */
import { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PATHS, errorResponse } from '@master-admin/contract';
import type { ListSpec } from '../db/lists.ts';
import type { Access } from './access.ts';
import { BOM, csvHeader, csvLines, titledColumns } from './csv.ts';

/** A list call's query: the contract's `listQuery` extended with the area's filters and sort. */
type ListQuerySchema = z.ZodObject<
  { limit: z.ZodType; offset: z.ZodType; cursor: z.ZodType } & z.ZodRawShape
>;

export type ListExport<O, P extends z.ZodObject | undefined> = {
  /** The list's rows (its `defineList`). */
  list: ListSpec<string, O>;
  /** The list call's path; the export is `PATHS.listExport(path)`. */
  path: string;
  /** The file's name before its date: `<file>-YYYY-MM-DD.csv`. */
  file: string;
  access: Access;
  tags: string[];
  /** What the rows are, for the document: "posters", "wallet rows of a user". */
  what: string;
  params?: P;
  /** The list call's query schema: the export takes it without limit and offset. */
  querystring: ListQuerySchema;
  /** The list call's answer (`{ result, total }`): its row's fields are the file's columns. */
  response: z.ZodObject<{ result: z.ZodArray<z.ZodType> }>;
  /** The columns' titles, as the screen heads them (the contract's `*_COLUMNS`). */
  titles: Readonly<Record<string, string | null>>;
  /**
   * Values the list call adds to the query from the route, after its own checks (an account it
   * names must exist, a role it lists): throws as the list call does.
   */
  scope?: (
    params: P extends z.ZodObject ? z.output<P> : undefined,
    request: FastifyRequest,
  ) => Promise<Record<string, unknown>> | Record<string, unknown>;
  /** The row as the list answers it, when the list call maps its rows (file keys to URLs …). */
  map?: (row: O) => unknown;
};

export function registerListExport<O, P extends z.ZodObject | undefined = undefined>(
  app: Parameters<FastifyPluginAsyncZod>[0],
  options: ListExport<O, P>,
) {
  const { lists, config } = app.ctx;
  const columns = titledColumns(options.response.shape.result.element, options.titles);
  const { map, list } = options;

  app.get(
    PATHS.listExport(options.path),
    {
      config: { access: options.access },
      schema: {
        tags: options.tags,
        summary: `Exports the ${options.what} as CSV: every row the list answers for the same filters, keyword and sort`,
        description:
          'Takes the list call’s query without `limit`, `offset` and `cursor`, and answers all the ' +
          'matching rows in the list’s order, streamed (no row limit): UTF-8 with a byte-order ' +
          `mark, a header row of the columns' titles (${Object.values(options.titles)
            .filter((t) => t !== null)
            .join(', ')}), ` +
          'RFC 4180 quoting; text starting with = + - @, a tab or a carriage return gets a ' +
          'leading apostrophe so that spreadsheets do not run it as a formula. Same access as ' +
          'the list.',
        ...(options.params ? { params: options.params } : {}),
        querystring: options.querystring.omit({ limit: true, offset: true, cursor: true }),
        response: {
          200: {
            description: `The rows as CSV, an attachment named ${options.file}-YYYY-MM-DD.csv`,
            content: { 'text/csv': { schema: z.string() } },
          },
          '4xx': errorResponse,
          '5xx': errorResponse,
        },
      },
    },
    async (request: FastifyRequest, reply) => {
      const params = request.params as P extends z.ZodObject ? z.output<P> : undefined;
      const scope = (await options.scope?.(params, request)) ?? {};
      const query = { ...(request.query as Record<string, unknown>), ...scope };
      const chunks = lists.walk(list, query, config.exportChunkRows);
      // The first chunk is read before answering, so a failing read is a proper error answer
      // rather than a file cut short.
      let next = await chunks.next();
      async function* csv() {
        try {
          yield BOM + csvHeader(columns);
          while (!next.done) {
            yield csvLines(columns, map ? next.value.map(map) : next.value);
            next = await chunks.next();
          }
        } finally {
          await chunks.return();
        }
      }
      const day = new Date().toISOString().slice(0, 10);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${options.file}-${day}.csv"`)
        .header('cache-control', 'no-store')
        .send(Readable.from(csv(), { objectMode: false }));
    },
  );
}
