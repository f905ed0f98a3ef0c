/**
 * Sessions one can see and end (API.md "Second factors, passkeys, sessions, device tokens"): the
 * caller's own, and, for the owner (SUPER_ADMIN), any back-office account's. A session is shown
 * and ended by its public number; its `id` is the secret its token carries and never leaves the
 * server. Each session ended is an audit entry (SESSION_ENDED) naming the session.
 */
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  MESSAGES,
  PATHS,
  accountIdParams,
  bulkResponse,
  deleteResponse,
  sessionList,
  sessionParams,
  staffSessionParams,
  type AuditArea,
  type SessionRow,
} from '@master-admin/contract';
import type { Db } from '../../db/connect.ts';
import { now } from '../../db/dialect.ts';
import { inTransaction } from '../../db/transaction.ts';
import { deviceLabel } from '../../auth/device.ts';
import { revokeSession } from '../../auth/sessions.ts';
import { access, requireRecentProof } from '../../http/access.ts';
import { invalidField, notFound } from '../../http/errors.ts';
import { answers } from '../../http/schemas.ts';
import { record } from '../audit/record.ts';

type LiveSession = {
  id: string;
  publicId: number;
  userAgent: string | null;
  deviceName: string | null;
  platform: string | null;
  ip: string | null;
  createdAt: string;
  lastSeenAt: string | null;
  signInMethod: string | null;
};

/** The live sessions (not ended, not expired) of `accountId`; with `publicId`, that one only. */
function liveSessions(db: Db, accountId: number, publicId?: number) {
  let query = db
    .selectFrom('sessions')
    .select([
      'id',
      'publicId',
      'userAgent',
      'deviceName',
      'platform',
      'ip',
      'createdAt',
      'lastSeenAt',
    ])
    .select('signInMethod')
    .where('accountId', '=', accountId)
    .where('revokedAt', 'is', null)
    .where('expiresAt', '>', now());
  if (publicId !== undefined) query = query.where('publicId', '=', publicId);
  return query;
}

/** A session as its list shows it; `current` when it is the one `request` came with. */
function shown(session: LiveSession, request: FastifyRequest): SessionRow {
  return {
    id: session.publicId,
    device: sessionDevice(session),
    ip: session.ip,
    createdAt: session.createdAt,
    lastSeenAt: session.lastSeenAt,
    current: session.id === request.account.sessionId,
    method: session.signInMethod,
  };
}

/** The device a session came from: the one an app named at sign-in, else its user agent's. */
function sessionDevice(
  session: Pick<LiveSession, 'deviceName' | 'platform' | 'userAgent'>,
): string {
  return session.deviceName !== null
    ? `${session.deviceName} (${session.platform ?? 'other'})`
    : deviceLabel(session.userAgent);
}

/** The current session first, then the most recently seen. */
function byRecency(a: SessionRow, b: SessionRow): number {
  if (a.current !== b.current) return a.current ? -1 : 1;
  const seen = (b.lastSeenAt ?? '').localeCompare(a.lastSeenAt ?? '');
  return seen || b.createdAt.localeCompare(a.createdAt) || b.id - a.id;
}

/**
 * Ends `sessions` (read in `trx`) and records one SESSION_ENDED entry each, on the row of `area`
 * (the account's). Answers the public numbers of those it ended (one ended meanwhile is skipped).
 */
async function endSessions(
  trx: Db,
  request: FastifyRequest,
  target: { area: AuditArea; accountId: number },
  sessions: readonly LiveSession[],
): Promise<number[]> {
  const ended: LiveSession[] = [];
  for (const session of sessions) {
    if (await revokeSession(trx, session.id)) ended.push(session);
  }
  await record(
    trx,
    request,
    ended.map((session) => ({
      area: target.area,
      rowId: target.accountId,
      action: 'SESSION_ENDED' as const,
      changes: [
        {
          field: 'session',
          old: `#${session.publicId}: ${sessionDevice(session)}, ${session.ip ?? 'unknown address'}`,
          new: null,
        },
      ],
    })),
  );
  return ended.map((s) => s.publicId);
}

const sessionRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.ctx;

  async function listOf(request: FastifyRequest, accountId: number) {
    const rows = await liveSessions(db, accountId).execute();
    return { result: rows.map((row) => shown(row, request)).sort(byRecency) };
  }

  /** Ends the session `publicId` of `accountId` (404 when it is not a live one of that account). */
  async function endOne(
    request: FastifyRequest,
    target: { area: AuditArea; accountId: number },
    publicId: number,
    options: { proofForOthers?: boolean } = {},
  ) {
    await inTransaction(db, request.log, async (trx) => {
      const session = await liveSessions(trx, target.accountId, publicId).executeTakeFirst();
      // Ending one's own current session is signing out; ending another needs a recent proof.
      if (options.proofForOthers && session && session.id !== request.account.sessionId) {
        requireRecentProof(request);
      }
      const ended = session ? await endSessions(trx, request, target, [session]) : [];
      if (ended.length === 0) throw notFound(MESSAGES.sessionNotFound);
    });
    return { message: MESSAGES.sessionEnded, result: { id: publicId } };
  }

  /** A back-office account (STAFF or SUPER_ADMIN, not deleted); 404 otherwise. */
  async function requireBackOffice(accountId: number) {
    const row = await db
      .selectFrom('accounts')
      .select('id')
      .where('id', '=', accountId)
      .where('role', '<>', 'USER')
      .where('status', '<>', 'DELETED')
      .executeTakeFirst();
    if (!row) throw notFound(MESSAGES.staffNotFound);
  }

  /**
   * The router ignores a trailing slash: `sessions/` is one session's path without its number,
   * and must not list or end every other session.
   */
  const refuseMissingNumber = async (request: FastifyRequest) => {
    if (request.url.split('?')[0]!.endsWith('/')) throw invalidField('id', 'Required');
  };

  const SESSION_FIELDS =
    '`id` is the session’s number (its token is never shown), `device` the browser and system ' +
    'its user agent names, `method` how it signed in (password, totp, recovery or passkey). ' +
    'Live sessions only (not ended, not expired): the current one first, then the most recently ' +
    'seen (`lastSeenAt` moves at most once a minute).';

  app.get(
    PATHS.mySessions,
    {
      config: { access: access.signedIn },
      onRequest: refuseMissingNumber,
      schema: {
        tags: ['auth'],
        summary: 'The caller’s signed-in sessions',
        description: SESSION_FIELDS,
        response: answers(sessionList),
      },
    },
    async (request) => listOf(request, request.account.id),
  );

  app.delete(
    PATHS.mySession(':id'),
    {
      // A session has no version: nothing to compare an If-Match with.
      config: { access: access.signedIn, ifMatch: false },
      schema: {
        tags: ['auth'],
        summary: 'Ends one of the caller’s sessions',
        description:
          'Its token stops working at once. Ending the current one signs out; ending another ' +
          'needs a recent proof of presence (403 with `reauth: true` otherwise: API.md "Proof ' +
          'of presence"). A session of another account, or one already ended, answers 404.',
        params: sessionParams,
        response: answers(deleteResponse),
      },
    },
    async (request) =>
      endOne(request, { area: 'auth', accountId: request.account.id }, request.params.id, {
        proofForOthers: true,
      }),
  );

  app.delete(
    PATHS.mySessions,
    {
      config: { access: access.signedIn, recentProof: true },
      onRequest: refuseMissingNumber,
      schema: {
        tags: ['auth'],
        summary: 'Ends every session of the caller but the current one',
        description: 'Answers the numbers of the sessions ended (none: an empty list).',
        response: answers(bulkResponse),
      },
    },
    async (request) => {
      const me = request.account;
      const ids = await inTransaction(db, request.log, async (trx) => {
        const others = await liveSessions(trx, me.id).where('id', '<>', me.sessionId).execute();
        return endSessions(trx, request, { area: 'auth', accountId: me.id }, others);
      });
      return { message: MESSAGES.otherSessionsEnded, result: { ids, count: ids.length } };
    },
  );

  /** A USER account (not DELETED); 404 otherwise. */
  async function requireEndUser(accountId: number) {
    const row = await db
      .selectFrom('accounts')
      .select('id')
      .where('id', '=', accountId)
      .where('role', '=', 'USER')
      .executeTakeFirst();
    if (!row) throw notFound(MESSAGES.userNotFound);
  }

  app.get(
    PATHS.userSessions(':accountId'),
    {
      config: { access: access.menu('users', 'VIEW') },
      schema: {
        tags: ['users'],
        summary: 'An end user’s signed-in sessions in the content app',
        description:
          '`device` is the name and platform the app gave at sign-in, `method` otp. Live ' +
          'sessions only, the most recently seen first (`lastSeenAt` moves with each refresh).',
        params: accountIdParams,
        response: answers(sessionList),
      },
    },
    async (request) => {
      await requireEndUser(request.params.accountId);
      return listOf(request, request.params.accountId);
    },
  );

  app.delete(
    PATHS.userSession(':accountId', ':id'),
    {
      config: { access: access.menu('users', 'UPDATE'), ifMatch: false },
      schema: {
        tags: ['users'],
        summary: 'Ends an end user’s session',
        description:
          'Its access and refresh tokens stop working at once, on every instance; the app must ' +
          'sign in again. A session that is not that user’s, or one already ended, answers 404. ' +
          'Recorded on the user’s history.',
        params: staffSessionParams,
        response: answers(deleteResponse),
      },
    },
    async (request) => {
      const { accountId, id } = request.params;
      await requireEndUser(accountId);
      return endOne(request, { area: 'users', accountId }, id);
    },
  );

  app.get(
    PATHS.staffSessions(':accountId'),
    {
      config: { access: access.superAdmin },
      schema: {
        tags: ['staff'],
        summary: 'A back-office account’s signed-in sessions',
        description: `${SESSION_FIELDS} An account that is not a back-office one answers 404.`,
        params: accountIdParams,
        response: answers(sessionList),
      },
    },
    async (request) => {
      await requireBackOffice(request.params.accountId);
      return listOf(request, request.params.accountId);
    },
  );

  app.delete(
    PATHS.staffSession(':accountId', ':id'),
    {
      config: { access: access.superAdmin, ifMatch: false },
      schema: {
        tags: ['staff'],
        summary: 'Ends a session of a back-office account',
        description:
          'Its token stops working at once. A session that is not that account’s, or one ' +
          'already ended, answers 404. Recorded on the staff member’s history. Another of the ' +
          'caller’s own sessions needs a recent proof of presence, as through ' +
          '`account/me/sessions/{id}`.',
        params: staffSessionParams,
        response: answers(deleteResponse),
      },
    },
    async (request) => {
      const { accountId, id } = request.params;
      await requireBackOffice(accountId);
      // The owner's own sessions, reached through here, are the owner's other sessions still.
      return endOne(request, { area: 'staff', accountId }, id, {
        proofForOthers: accountId === request.account.id,
      });
    },
  );
};
export default sessionRoutes;
