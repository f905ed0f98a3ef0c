/**
 * `Idempotency-Key` (API.md "Operations"): a change call sent again with the same key and the same
 * request within 24 hours answers the first answer again instead of changing twice, on any
 * instance. One mechanism for every change route under the API (POST, PUT, PATCH, DELETE):
 *
 * - onRequest: a key that is not 1..128 printable ASCII characters → 400 naming the header.
 * - preHandler (the body, multipart included, is parsed and validated by then): the request's
 *   fingerprint (a keyed SHA-256 of method, path and query, If-Match, body and each upload's hash)
 *   claims the key with a 'running' row of `idempotency_keys`, per account (0 without a session).
 *   A key already held: another fingerprint → 422; still running → 409 with Retry-After; done →
 *   its stored answer with `Idempotent-Replayed: true`, the handler not run.
 * - The change's own transaction marks the row 'committed' (`markCommitted`, called by the audit
 *   log's `record`): a rollback leaves it 'running', a commit makes it 'committed' atomically
 *   with the change, so a process that dies after committing never lets the change run again.
 * - onSend: the answer is kept ('done'), unless it says to try again (5xx, 429, a proof of
 *   presence asked for) or cannot be kept (a stream, bytes): then a row still 'running' is
 *   deleted (nothing was done: a retry runs again), and a 'committed' one stays, noting that its
 *   answer was not kept.
 *
 * Routes whose answers hold secrets (`config.keepAnswer: false`: sign-in, TOTP set-up, recovery
 * codes) take the key and ignore it: their answers are never written to the database, and running
 * them again is safe. So do the presence calls: a renewal every few seconds, which a replayed
 * answer would not renew, and which would fill the table.
 */
import { createHmac } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { IDEMPOTENCY_KEY, MESSAGES, errorResponse, isApiPath } from '@master-admin/contract';
import type { Db } from '../db/connect.ts';
import { now } from '../db/dialect.ts';
import { HttpError, invalidField } from './errors.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * `false`: the answer is never written down and an Idempotency-Key is taken and ignored: it
     * holds a secret (a token, a TOTP secret, recovery codes), or a replay would be stale (a
     * presence renewal). Only for calls that are safe to run again.
     */
    keepAnswer?: false;
  }
  interface FastifyRequest {
    /** The key this request holds, once claimed (preHandler) and until its answer is settled. */
    idempotency: Claim | undefined;
  }
}

/** A key held by a request: the row's primary key and when it was claimed (its `createdAt`). */
type Claim = { accountId: number; key: string; claimedAt: string };

const HEADER = 'Idempotency-Key';
const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** How long a key and its answer are kept. */
export const KEY_TTL_MS = 24 * 60 * 60 * 1000;
/**
 * A 'running' row this old belongs to a process that died before committing: no request runs
 * past its deadline (REQUEST_DEADLINE_MS, http/deadline.ts), and twice that leaves room for its
 * answer to be kept. The next request with its key takes it over.
 */
export const abandonedAfter = (deadlineMs: number) => 2 * deadlineMs;
/** How often each instance deletes expired keys. */
const SWEEP_MS = 10 * 60 * 1000;

const KEY_RULE =
  'Must be 1 to 128 printable ASCII characters, without a space at either end (a UUID will do)';

/** The key a change request sent (checked), or undefined when it sent none. */
function keyOf(request: FastifyRequest): string | undefined {
  const value = request.headers['idempotency-key'];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !IDEMPOTENCY_KEY.test(value)) {
    throw invalidField(HEADER, KEY_RULE);
  }
  return value;
}

/** Whether `request` is a change call of the API (`keepAnswer` aside). */
const isChange = (request: FastifyRequest) =>
  MUTATING.has(request.method) && isApiPath(request.routeOptions.url ?? '');

/**
 * JSON with every object's keys sorted: equal values give equal text, whatever the key order (a
 * Map or Set, which JSON would write as `{}`, as its entries).
 */
export function canonicalJson(value: unknown): string {
  return (
    JSON.stringify(value, (_key, v: unknown) => {
      if (v instanceof Map || v instanceof Set) return Array.from(v as Iterable<unknown>);
      if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
      return Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    }) ?? ''
  );
}

/**
 * What makes two requests "the same": method, path and query, If-Match, the parsed body and each
 * upload's field and content hash. Keyed with the server's secret: a body may hold a password
 * (a proof of presence), which a plain hash in the table would expose to a dictionary attack.
 */
function fingerprintOf(request: FastifyRequest, secret: Uint8Array): string {
  const uploads = [...(request.uploads?.values() ?? [])].map((u) => `${u.field}:${u.hash}`).sort();
  const parts = [
    request.method,
    request.url,
    request.headers['if-match'] ?? null,
    canonicalJson(request.body),
    uploads,
  ];
  return createHmac('sha256', secret).update(JSON.stringify(parts)).digest('hex');
}

type Stored = {
  status: number | null;
  contentType: string | null;
  body: string | null;
};

type Outcome =
  | { kind: 'claimed'; claimedAt: string }
  | { kind: 'replay'; answer: Stored }
  | { kind: 'another' }
  | { kind: 'running' }
  | { kind: 'lost' };

const later = (at: string, ms: number) => new Date(Date.parse(at) + ms).toISOString();

/** The rows of `idempotency_keys`: claiming a key, marking and settling it, the sweep. */
export class IdempotencyKeys {
  readonly #db: Db;
  readonly #abandonedMs: number;
  constructor(db: Db, options: { deadlineMs: number }) {
    this.#db = db;
    this.#abandonedMs = abandonedAfter(options.deadlineMs);
  }

  #row(db: Db, accountId: number, key: string) {
    return db
      .updateTable('idempotencyKeys')
      .where('accountId', '=', accountId)
      .where('key', '=', key);
  }

  /**
   * Claims `key` for a request of `fingerprint`, or says why not. Each step is one statement
   * that only one instance can win (an insert on the primary key; an update guarded by what was
   * read), so two instances never both claim a key.
   */
  async claim(accountId: number, key: string, fingerprint: string): Promise<Outcome> {
    const db = this.#db;
    // Three rounds at most: a row may disappear or change between two statements.
    for (let round = 0; round < 3; round++) {
      const at = now();
      const fresh = { fingerprint, state: 'running' as const, createdAt: at };
      const inserted = await db
        .insertInto('idempotencyKeys')
        .values({ accountId, key, ...fresh, expiresAt: later(at, KEY_TTL_MS) })
        .onConflict((oc) => oc.columns(['accountId', 'key']).doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0)
        return { kind: 'claimed', claimedAt: at };

      const row = await db
        .selectFrom('idempotencyKeys')
        .selectAll()
        .where('accountId', '=', accountId)
        .where('key', '=', key)
        .executeTakeFirst();
      // Let go meanwhile (a failure's answer, the sweep): claimed again in the next round.
      if (!row) continue;
      const takeOver = async (guard: 'expired' | 'abandoned') => {
        let update = this.#row(db, accountId, key).set({
          ...fresh,
          status: null,
          contentType: null,
          body: null,
          expiresAt: later(at, KEY_TTL_MS),
        });
        update =
          guard === 'expired'
            ? update.where('expiresAt', '<=', at)
            : update.where('state', '=', 'running').where('createdAt', '=', row.createdAt);
        const { numUpdatedRows } = await update.executeTakeFirst();
        return numUpdatedRows > 0n;
      };
      // A key older than 24 hours is free again, whatever it was used for.
      if (Date.parse(row.expiresAt) <= Date.parse(at)) {
        if (await takeOver('expired')) return { kind: 'claimed', claimedAt: at };
        continue;
      }
      if (row.fingerprint !== fingerprint) return { kind: 'another' };
      if (row.state === 'done') return { kind: 'replay', answer: row };
      const abandoned = Date.parse(row.createdAt) <= Date.parse(at) - this.#abandonedMs;
      if (row.state === 'committed') {
        // Made, and answered with what could not be kept; or its process died before keeping
        // the answer. A young one is most likely being answered now.
        return row.status !== null || abandoned ? { kind: 'lost' } : { kind: 'running' };
      }
      if (!abandoned) return { kind: 'running' };
      // Its process died before committing: nothing was done, this request does it.
      if (await takeOver('abandoned')) return { kind: 'claimed', claimedAt: at };
    }
    return { kind: 'running' };
  }

  /**
   * Marks the request's key 'committed' with `trx`, the transaction of its change. A key taken
   * over meanwhile (this request ran past twice its deadline and another took its place) rolls the
   * change back: the other request is making it.
   */
  async markCommitted(trx: Db, claim: Claim): Promise<void> {
    const { numUpdatedRows } = await this.#row(trx, claim.accountId, claim.key)
      .set({ state: 'committed' })
      .where('createdAt', '=', claim.claimedAt)
      .executeTakeFirst();
    if (numUpdatedRows === 0n) throw stillRunning();
  }

  /** Keeps the answer of the request that held `claim`. */
  async keep(claim: Claim, answer: Stored & { status: number }): Promise<void> {
    await this.#row(this.#db, claim.accountId, claim.key)
      .set({ state: 'done', ...answer })
      .where('createdAt', '=', claim.claimedAt)
      .execute();
  }

  /**
   * Lets the key go after an answer that is not kept: free again when nothing was done; when the
   * change was made, the row stays 'committed' with the status it answered (a retry learns that
   * it was made).
   */
  async release(claim: Claim, status: number): Promise<void> {
    const { numDeletedRows } = await this.#db
      .deleteFrom('idempotencyKeys')
      .where('accountId', '=', claim.accountId)
      .where('key', '=', claim.key)
      .where('createdAt', '=', claim.claimedAt)
      .where('state', '=', 'running')
      .executeTakeFirst();
    if (numDeletedRows > 0n) return;
    await this.#row(this.#db, claim.accountId, claim.key)
      .set({ status })
      .where('createdAt', '=', claim.claimedAt)
      .where('state', '=', 'committed')
      .execute();
  }

  /** Deletes the keys older than 24 hours; answers how many. */
  async sweep(): Promise<number> {
    const { numDeletedRows } = await this.#db
      .deleteFrom('idempotencyKeys')
      .where('expiresAt', '<=', now())
      .executeTakeFirst();
    return Number(numDeletedRows);
  }
}

const stillRunning = () =>
  new HttpError(409, MESSAGES.idempotencyKeyRunning, { headers: { 'retry-after': '1' } });

/** Whether an answer asks for a proof of presence, after which the client sends it again. */
function asksProof(status: number, payload: unknown): boolean {
  return status === 403 && typeof payload === 'string' && /"reauth"\s*:\s*true/.test(payload);
}

/**
 * The record of a change marks its request's key 'committed', in the change's transaction
 * (audit/record.ts). Nothing for a request that holds no key.
 */
export async function markCommitted(trx: Db, request: FastifyRequest): Promise<void> {
  const claim = request.idempotency;
  if (claim) await request.server.idempotencyKeys.markCommitted(trx, claim);
}

declare module 'fastify' {
  interface FastifyInstance {
    idempotencyKeys: IdempotencyKeys;
  }
}

const KEY_HELP =
  'Makes a retry safe: the same key with the same request (method, path and query, If-Match, ' +
  'body and files) within 24 hours answers the first answer again, with `Idempotent-Replayed: ' +
  'true`, without doing anything twice, on any instance. The same key with another request → ' +
  '422; while the first is still being answered → 409 with Retry-After; a change that was made ' +
  'but whose answer could not be kept (it failed after the change) → 409. Keys belong to the ' +
  'signed-in account (one namespace for calls without a session). An answer that says to try ' +
  'again (5xx, 429, a proof of presence asked for) is not kept: the key is free again. ' +
  `${KEY_RULE}; anything else → 400 naming ${HEADER}.`;

const KEY_IGNORED_HELP =
  'Taken and ignored here: this answer is never kept (it holds a secret, or tells what is true ' +
  'now) and calling again is safe. ' +
  `${KEY_RULE}; anything else → 400 naming ${HEADER}.`;

/** What a route whose answer is not kept adds to its description. */
export const ANSWER_NOT_KEPT_NOTE =
  '`Idempotency-Key` is taken and ignored: the answer is never kept (it holds a secret, or tells ' +
  'what is true now) and calling again is safe (a sign-in signs in anew; a TOTP set-up starts ' +
  'again, or answers 409 once confirmed; new recovery codes replace ones never seen; a presence ' +
  'is renewed).';

const REUSED_ANSWER = errorResponse.meta({
  description:
    'The Idempotency-Key was used within 24 hours for another request (another method, path, ' +
    'query, If-Match, body or file): nothing was done.',
});
const RUNNING_ANSWER = errorResponse.meta({
  description:
    'A request with this Idempotency-Key is still being answered (Retry-After), or its change ' +
    'was made and its answer could not be kept.',
});

/** Whether a route is a change call of the API, and so takes the header. */
function takesKey(route: { url: string; method: string | string[] }) {
  return isApiPath(route.url) && [route.method].flat().some((m) => MUTATING.has(m));
}

/**
 * Registers the hooks (after the access check: a key belongs to the caller's account), the
 * header's documentation on every change route, and the sweep of expired keys.
 */
export function registerIdempotency(app: FastifyInstance, options: { secret: Uint8Array }) {
  const keys = new IdempotencyKeys(app.ctx.db, { deadlineMs: app.ctx.config.requestDeadlineMs });
  app.decorate('idempotencyKeys', keys);
  app.decorateRequest('idempotency', undefined);

  app.addHook('onRoute', (route) => {
    if (!takesKey(route)) return;
    const keeps = route.config?.keepAnswer !== false;
    const header = z
      .string()
      .optional()
      .meta({
        description: keeps ? KEY_HELP : KEY_IGNORED_HELP,
        maxLength: 128,
        pattern: IDEMPOTENCY_KEY.source,
      });
    const headers = route.schema?.headers;
    const schema = { ...route.schema };
    schema.headers =
      headers instanceof z.ZodObject
        ? headers.extend({ 'idempotency-key': header })
        : z.looseObject({ 'idempotency-key': header });
    if (!keeps) {
      const text = typeof schema.description === 'string' ? `${schema.description}\n\n` : '';
      schema.description = `${text}${ANSWER_NOT_KEPT_NOTE}`;
    } else if (schema.response && typeof schema.response === 'object') {
      const response = { ...(schema.response as Record<string, unknown>) };
      // A route's own 409 (a version conflict's, a taken name's) keeps its schema: both fit it.
      if (!('409' in response)) response['409'] = RUNNING_ANSWER;
      response['422'] = REUSED_ANSWER;
      schema.response = response;
    }
    route.schema = schema;
  });

  app.addHook('onRequest', async (request) => {
    if (isChange(request)) keyOf(request);
  });

  app.addHook('preHandler', async (request, reply) => {
    if (!isChange(request) || request.routeOptions.config.keepAnswer === false) return;
    const key = keyOf(request);
    if (key === undefined) return;
    // Calls made without a session (the back-office's public ones, the apps API's key-only
    // ones) share account 0.
    const accountId = request.account?.id ?? 0;
    const outcome = await keys.claim(accountId, key, fingerprintOf(request, options.secret));
    switch (outcome.kind) {
      case 'claimed':
        request.idempotency = { accountId, key, claimedAt: outcome.claimedAt };
        return;
      case 'replay':
        return replay(request, reply, outcome.answer);
      case 'another':
        throw new HttpError(422, MESSAGES.idempotencyKeyReused, {
          details: [{ path: HEADER, message: MESSAGES.idempotencyKeyReused }],
        });
      case 'running':
        throw stillRunning();
      case 'lost':
        throw new HttpError(409, MESSAGES.idempotencyAnswerLost);
    }
  });

  // Before the answer goes out: a retry that comes once it has arrived finds it kept.
  app.addHook('onSend', async (request, reply, payload) => {
    const claim = request.idempotency;
    if (!claim) return payload;
    request.idempotency = undefined;
    const status = reply.statusCode;
    // Text, or no body at all; undefined for what cannot be kept as text (bytes, a stream).
    const body =
      typeof payload === 'string'
        ? payload
        : payload === null || payload === undefined
          ? null
          : undefined;
    try {
      if (body === undefined || status >= 500 || status === 429 || asksProof(status, payload)) {
        await keys.release(claim, status);
      } else {
        const type = reply.getHeader('content-type');
        await keys.keep(claim, {
          status,
          contentType: typeof type === 'string' ? type : null,
          body,
        });
      }
    } catch (err) {
      // The answer stands: a change made must not answer a failure. A retry meets the row as it
      // was ('running' or 'committed': 409, until abandoned).
      request.log.warn({ err }, 'the answer of an Idempotency-Key could not be settled');
    }
    return payload;
  });

  const sweep = () =>
    keys.sweep().catch((err: unknown) => app.log.warn({ err }, 'idempotency key sweep failed'));
  const timer = setInterval(() => void sweep(), SWEEP_MS);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));
}

/** The kept answer of the request that first held the key, as it was sent. */
function replay(request: FastifyRequest, reply: FastifyReply, answer: Stored) {
  // What it did was recorded when it was done (the audit guard's evidence).
  request.audited = true;
  void reply.code(answer.status ?? 200).header('idempotent-replayed', 'true');
  if (answer.contentType !== null) void reply.header('content-type', answer.contentType);
  return reply.send(answer.body ?? undefined);
}
