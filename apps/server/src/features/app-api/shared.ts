/** What the apps API's routes share: tags, activities, change marks and the content answers' cache. */
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { eventAreaOf, type Activity, type EventArea } from '@master-admin/contract';
import type { Db } from '../../db/connect.ts';
import { now } from '../../db/dialect.ts';
import type { EventBus } from '../../events/bus.ts';
import { markCommitted } from '../../http/idempotency.ts';

/** The apps API's routes are tagged apart from the back-office's (the docs group by tag). */
export const appTags = (tag: string) => [`app: ${tag}`];

/** Records what an end user did (the back-office's Activity list on the user's page). */
export async function noteActivity(
  trx: Db,
  request: FastifyRequest,
  entry: {
    accountId: number;
    activity: Activity;
    posterId?: number;
    detail?: string | null;
    device?: string;
  },
) {
  await trx
    .insertInto('userActivities')
    .values({
      accountId: entry.accountId,
      activity: entry.activity,
      posterId: entry.posterId ?? null,
      detail: entry.detail ?? null,
      ip: request.ip.slice(0, 64),
      device: entry.device ?? (await sessionDevice(trx, request)),
      createdAt: now(),
    })
    .execute();
}

/** The device the request's session named at sign-in. */
async function sessionDevice(trx: Db, request: FastifyRequest): Promise<string | null> {
  const sessionId = request.appUser?.sessionId;
  if (!sessionId) return null;
  const row = await trx
    .selectFrom('sessions')
    .select(['deviceName', 'platform'])
    .where('id', '=', sessionId)
    .executeTakeFirst();
  return row?.deviceName ? `${row.deviceName} (${row.platform ?? 'other'})` : null;
}

/** Marks the request's Idempotency-Key committed with a change that writes no audit entry. */
export function markChange(trx: Db, request: FastifyRequest): Promise<void> {
  return markCommitted(trx, request);
}

/** The back-office areas whose changes change what the content calls answer. */
const CONTENT_AREAS: ReadonlySet<EventArea> = new Set<EventArea>([
  'banner',
  'blogs',
  'pages',
  'faqs',
  'category',
  'specialDay',
  'settings',
  'poster',
  'video',
  'masterApp',
]);

/** How long a kept answer may be served at most, whatever the bus says. */
const KEPT_MS = 60_000;
const MAX_KEPT = 5_000;

type Kept = { etag: string; body: string; until: number };

/**
 * The content calls' answers, kept per instance by app and URL until a change of content is
 * heard on the event bus (from any instance) or KEPT_MS pass: a repeat, and an `If-None-Match`
 * that still matches (304), is answered without reading a row.
 */
export class ContentAnswers {
  readonly #kept = new Map<string, Kept>();

  constructor(bus: EventBus) {
    bus.subscribe({
      message: (message) => {
        if (message.kind !== 'changes') return;
        const touched = message.changes.some((c) => {
          const area = eventAreaOf(c.area);
          return area !== undefined && CONTENT_AREAS.has(area);
        });
        if (touched) this.#kept.clear();
      },
      gap: () => this.#kept.clear(),
    });
  }

  /**
   * Answers the content call: its kept answer, or `read`'s, kept. With an ETag (a hash of the
   * body) and the cache header; 304 when If-None-Match names it.
   */
  async answer(request: FastifyRequest, reply: FastifyReply, read: () => Promise<unknown>) {
    const key = `${request.appId} ${request.url}`;
    const at = Date.now();
    let kept = this.#kept.get(key);
    if (!kept || kept.until <= at) {
      const body = JSON.stringify(await read());
      const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
      kept = { etag, body, until: at + KEPT_MS };
      if (this.#kept.size >= MAX_KEPT) this.#kept.delete(this.#kept.keys().next().value!);
      this.#kept.set(key, kept);
    }
    void reply
      .header('etag', kept.etag)
      .header('cache-control', 'public, max-age=60, stale-while-revalidate=600')
      .header('vary', 'x-app-key');
    if (matches(request.headers['if-none-match'], kept.etag)) return reply.code(304).send();
    return reply
      .type('application/json; charset=utf-8')
      .serializer((b) => b as string)
      .send(kept.body);
  }
}

/** Whether an If-None-Match header names `etag` (weak or strong, or `*`). */
function matches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header
    .split(',')
    .map((t) => t.trim().replace(/^W\//, ''))
    .some((t) => t === etag || t === '*');
}

/**
 * The apps API's flood guards (429 with Retry-After past them), besides each call's own: per app
 * key and address for the key-only calls, per signed-in session for the user's own.
 */
export const PER_ADDRESS_LIMIT = {
  max: 600,
  timeWindow: '1 minute',
  keyGenerator: (request: FastifyRequest) =>
    `app:${String(request.headers['x-app-key'])}:${request.ip}`,
};
export const PER_USER_LIMIT = {
  max: 300,
  timeWindow: '1 minute',
  keyGenerator: (request: FastifyRequest) =>
    `app-user:${createHash('sha256')
      .update(String(request.headers.authorization ?? request.ip))
      .digest('base64url')}`,
};
