/**
 * Schedules (API.md, "Planning festivals"), the same for posters, videos and banners: the window
 * columns a list filters `live` on, the window a create stores, and the call that changes it.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sql, type SqlBool } from 'kysely';
import type { z } from 'zod';
import { MESSAGES, idParams, scheduleBody, toInstant } from '@master-admin/contract';
import type { LiveSpec } from '../db/lists.ts';
import type { Access } from './access.ts';
import { answers } from './schemas.ts';

/** The schedule of every scheduled list: ACTIVE and inside [liveFrom, liveUntil). */
export const LIVE_WINDOW = {
  from: 'liveFrom',
  until: 'liveUntil',
  status: { filter: 'status', value: 'ACTIVE' },
} as const satisfies LiveSpec<'status'>;

/**
 * A body's window as the columns hold it: instants in UTC (ISO text on SQLite, where they are
 * compared as text, so every value must be written the same way), null for an open end.
 */
export function windowOf(body: {
  liveFrom?: string | null | undefined;
  liveUntil?: string | null | undefined;
}): { liveFrom: string | null; liveUntil: string | null } {
  return {
    liveFrom: body.liveFrom ? toInstant(body.liveFrom) : null,
    liveUntil: body.liveUntil ? toInstant(body.liveUntil) : null,
  };
}

/** `PUT <area>/schedule/{id}`: sets a row's whole window (an end left out or null is open). */
export function registerSchedule(
  app: FastifyInstance,
  options: {
    path: string;
    access: Access;
    tags: string[];
    /** "poster": how the summary names the row. */
    thing: string;
    /** The area's mutation answer (`{ message, result }`). */
    response: z.ZodType;
    /** Writes the columns (audited, 404 when there is no row) and answers the row. */
    update: (
      request: FastifyRequest,
      id: number,
      set: { liveFrom: string | null; liveUntil: string | null },
    ) => Promise<unknown>;
  },
) {
  app.withTypeProvider<ZodTypeProvider>().put(
    options.path,
    {
      config: { access: options.access },
      schema: {
        tags: options.tags,
        summary: `Sets the ${options.thing}’s schedule: live from \`liveFrom\` until \`liveUntil\``,
        description:
          'ISO 8601 date-times with an offset; an end left out, null or blank is open. ' +
          '`liveUntil` must be after `liveFrom`. A row is live when it is ACTIVE and now is ' +
          'inside its window; the apps API shows live rows only.',
        params: idParams,
        body: scheduleBody,
        response: answers(options.response),
      },
    },
    async (request) => {
      const result = await options.update(request, request.params.id, windowOf(request.body));
      return { message: MESSAGES.scheduleUpdated, result };
    },
  );
}

/**
 * "Live at `at`" as a condition on a scheduled table's row (`alias.` before its columns when the
 * query names it so): ACTIVE and inside its window, the same as a list's `live=now`.
 */
export function liveAt(at: string, alias?: string) {
  const ref = (column: string) => sql.ref(alias ? `${alias}.${column}` : column);
  return sql<SqlBool>`(${ref('status')} = 'ACTIVE' and (${ref('liveFrom')} is null or ${ref('liveFrom')} <= ${at}) and (${ref('liveUntil')} is null or ${ref('liveUntil')} > ${at}))`;
}

/** The ACTIVE rows outside their window at `at` (the complement of `liveAt` among ACTIVE rows). */
export function outsideWindowAt(at: string, alias?: string) {
  const ref = (column: string) => sql.ref(alias ? `${alias}.${column}` : column);
  return sql<SqlBool>`(${ref('status')} = 'ACTIVE' and (${ref('liveFrom')} > ${at} or ${ref('liveUntil')} <= ${at}))`;
}
