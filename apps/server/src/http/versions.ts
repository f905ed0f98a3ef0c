/**
 * No silent overwrite (API.md, "Versions"). A change call may say which version of its row it was
 * based on (`If-Match: "<version>"`, or a bulk body's `versions`); the audit log's one way in
 * (audit/record.ts) compares that with the row as it was read under the change's row lock, in the
 * change's own transaction, so a stale change rolls back whole and two changes based on the same
 * version cannot both pass. The check reads nothing more: the log already reads the row before
 * every change. The 409 says what the row is now and who changed it last (the log knows).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { IF_MATCH, type AuditArea, type ChangedBy } from '@master-admin/contract';
import type { Db } from '../db/connect.ts';
import type { Database } from '../db/schema.ts';
import { displayName } from '../events/presence.ts';
import { HttpError, invalidField } from './errors.ts';

/** How a conflict names an area's row, and how it reads the row as a list shows it. */
export type VersionedArea = {
  /** "Poster": the start of "Poster was changed by Asha since you opened it". */
  thing: string;
  /** Its plural, for a bulk call's conflict ("3 posters were changed …"). */
  things: string;
  /** The row as a list shows it (undefined or a 404 when it is gone). */
  read: (id: number) => Promise<unknown>;
};

/** The table holding each area's version (a user's and a staff member's: their account). */
export const AREA_VERSION_TABLES = {
  masterApps: 'masterApps',
  banners: 'banners',
  blogs: 'blogs',
  pages: 'pages',
  faqs: 'faqs',
  categories: 'categories',
  specialDays: 'specialDays',
  settings: 'settings',
  notifications: 'notifications',
  posters: 'posters',
  videos: 'videos',
  users: 'accounts',
  userImages: 'userImages',
  staff: 'accounts',
  menus: 'menus',
} as const satisfies Partial<Record<AuditArea, keyof Database>>;

declare module 'fastify' {
  interface FastifyInstance {
    /** Each versioned area's reader for a conflict's `current` (`registerVersioned`). */
    versionedAreas: Map<AuditArea, VersionedArea>;
  }
  interface FastifyRequest {
    /**
     * The versions this call was based on, by row id (`If-Match` for the path's row, or a bulk
     * body's `versions`); undefined when the call gave none. Parsed once (`expectedVersions`).
     */
    expected: Map<number, number> | null | undefined;
  }
}

/** Called by each area once: how its rows are named and read in a 409. */
export function registerVersioned(app: FastifyInstance, area: AuditArea, spec: VersionedArea) {
  app.versionedAreas.set(area, spec);
}

/**
 * The version an `If-Match` header names (IF_MATCH, the pattern the API document states); `*`
 * (any version) and absence check nothing.
 */
export function parseIfMatch(header: string | string[] | undefined): number | undefined {
  if (header === undefined) return undefined;
  const value = Array.isArray(header) ? header.join(',') : header;
  const match = IF_MATCH.exec(value);
  if (!match) {
    throw invalidField('If-Match', 'Must be one version in quotes, as the ETag gave it: "3"');
  }
  const digits = match[1] ?? match[2];
  return digits === undefined ? undefined : Number(digits);
}

/** The row a single-row call changes: the path's `id`, else its `accountId`. */
function pathRowId(request: FastifyRequest): number | undefined {
  const params = (request.params ?? {}) as Record<string, unknown>;
  const id = params.id ?? params.accountId;
  return typeof id === 'number' ? id : undefined;
}

/** The versions `request` was based on (see `FastifyRequest.expected`). */
export function expectedVersions(request: FastifyRequest): Map<number, number> | undefined {
  if (request.expected !== undefined) return request.expected ?? undefined;
  let expected: Map<number, number> | null = null;
  const body = request.body as { versions?: Record<string, number> } | undefined;
  if (body && typeof body === 'object' && body.versions) {
    expected = new Map(Object.entries(body.versions).map(([id, v]) => [Number(id), v]));
  } else {
    const version = parseIfMatch(request.headers['if-match']);
    const id = pathRowId(request);
    if (version !== undefined && id !== undefined) expected = new Map([[id, version]]);
  }
  request.expected = expected;
  return expected ?? undefined;
}

/** A row as the conflict compares it: its id and version before the change. */
export type VersionedRow = { area: AuditArea; rowId: number; version: unknown };

/**
 * Throws the 409 when any of `rows` (read under the change's lock) is not at the version the
 * call expected. The error handler completes it (`VersionConflict.describe`) once the change's
 * transaction has rolled back.
 */
export function checkVersions(request: FastifyRequest, rows: readonly VersionedRow[]): void {
  const expected = expectedVersions(request);
  if (!expected) return;
  const stale = rows.filter((r) => {
    const want = expected.get(r.rowId);
    if (want === undefined) return false;
    if (typeof r.version !== 'number') {
      throw new Error(`${r.area} ${r.rowId}: its snapshot has no version to compare`);
    }
    return r.version !== want;
  });
  if (stale.length === 0) return;
  const bulk =
    typeof request.body === 'object' && request.body !== null && 'versions' in request.body;
  throw new VersionConflict(
    stale[0]!.area,
    stale.map((r) => r.rowId),
    bulk,
  );
}

/** A change based on a stale version: a 409 whose answer says what the rows are now. */
export class VersionConflict extends HttpError {
  readonly area: AuditArea;
  readonly ids: readonly number[];
  readonly bulk: boolean;
  constructor(area: AuditArea, ids: readonly number[], bulk: boolean) {
    super(409, 'Changed since you opened it');
    this.area = area;
    this.ids = ids;
    this.bulk = bulk;
  }

  /** The answer: the rows as they are now (read after the rollback), who changed them, when. */
  override async describe(request: FastifyRequest): Promise<HttpError> {
    const spec = request.server.versionedAreas.get(this.area);
    if (!spec) throw new Error(`${this.area}: no reader registered for a version conflict`);
    const { db } = request.server.ctx;
    // A row deleted since reads as null: the conflict still answers.
    const current = await Promise.all(
      this.ids.map((id) =>
        spec.read(id).then(
          (row) => row ?? null,
          () => null,
        ),
      ),
    );
    if (this.bulk) {
      const ids = this.ids;
      const message =
        ids.length === 1
          ? `${spec.thing} ${ids[0]} was changed since you opened it`
          : `${ids.length} ${spec.things} were changed since you opened them: ${ids.join(', ')}`;
      return new HttpError(409, message, {
        details: ids.map((id) => ({
          path: `versions.${id}`,
          message: 'Changed since you opened it',
        })),
        extra: { current, stale: ids },
      });
    }
    const { changedBy, changedAt } = await lastChange(db, this.area, this.ids[0]!);
    const message = changedBy
      ? `${spec.thing} was changed by ${changedBy.name} since you opened it`
      : `${spec.thing} was changed since you opened it`;
    return new HttpError(409, message, { extra: { current: current[0], changedBy, changedAt } });
  }
}

async function lastChange(db: Db, area: AuditArea, rowId: number) {
  const entry = await db
    .selectFrom('auditLog as l')
    .leftJoin('accounts as a', 'a.id', 'l.accountId')
    .select(['l.accountId', 'l.createdAt', 'a.name', 'a.email', 'a.phoneNumber'])
    .where('l.area', '=', area)
    .where('l.rowId', '=', rowId)
    .orderBy('l.createdAt', 'desc')
    .orderBy('l.id', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!entry) return { changedBy: null, changedAt: null };
  // Named as the event stream names who changed a row.
  const changedBy: ChangedBy = {
    id: entry.accountId,
    name: displayName({ ...entry, id: entry.accountId }),
  };
  return { changedBy, changedAt: entry.createdAt };
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** `false`: the path's id names a row without a version (a permission row): no If-Match. */
    ifMatch?: false;
  }
}

const IF_MATCH_HELP =
  'The version this change is based on, as the row\'s ETag gave it ("3"; also taken weak, ' +
  '`W/"3"`, or bare, `3`; `*` checks nothing). When the row has changed since, nothing ' +
  'changes and the answer is 409 with the row as it is now, who changed it and when. Without ' +
  'it the change is made whatever the version. Anything else → 400 naming If-Match.';

/** Whether a route changes one versioned row named by its path (and so takes If-Match). */
function takesIfMatch(method: string, url: string, config: { ifMatch?: false } | undefined) {
  if (method === 'GET' || method === 'HEAD' || method === 'POST') return false;
  if (config?.ifMatch === false) return false;
  return /\/:(id|accountId)(\/|$)/.test(url);
}

/**
 * Every single-row GET answers its row's version as a strong `ETag` (a row carries `version`
 * at its top level; lists and mutation answers carry theirs inside `result`). A change of one
 * row takes `If-Match` (documented on each such route); any other call refuses it (400), as it
 * refuses a malformed one, before doing anything.
 */
export function registerVersions(app: FastifyInstance) {
  app.decorate('versionedAreas', new Map<AuditArea, VersionedArea>());
  app.decorateRequest('expected', undefined);
  app.addHook('onRoute', (route) => {
    const methods = [route.method].flat();
    if (!methods.some((m) => takesIfMatch(m, route.url, route.config))) return;
    if (!route.url.startsWith('/api/')) return;
    route.schema = {
      ...route.schema,
      headers: z.looseObject({
        // Checked by parseIfMatch, which names the header as clients write it (`If-Match`).
        'if-match': z
          .string()
          .optional()
          .meta({ description: IF_MATCH_HELP, pattern: IF_MATCH.source }),
      }),
    };
  });
  app.addHook('preHandler', async (request) => {
    if (request.headers['if-match'] === undefined || request.method === 'GET') return;
    const { url = '', config } = request.routeOptions;
    if (!takesIfMatch(request.method, url, config)) {
      throw invalidField(
        'If-Match',
        'This call takes no If-Match: it creates rows or changes several (a bulk call takes ' +
          '`versions` in its body)',
      );
    }
    expectedVersions(request);
  });
  app.addHook('preSerialization', async (request, reply, payload) => {
    if (request.method !== 'GET' || reply.statusCode !== 200) return payload;
    const version = (payload as { version?: unknown } | null)?.version;
    if (typeof version === 'number' && !('result' in (payload as object))) {
      void reply.header('etag', `"${version}"`);
    }
    return payload;
  });
}
