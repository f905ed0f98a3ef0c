/**
 * End users sign in by phone (API.md "Apps API"): a one-time code asked for and verified, then an
 * access token (ACCESS_TOKEN_SECONDS) and a refresh token that is used once: each refresh answers
 * a new pair, and a refresh token sent a second time ends its whole session (it was copied).
 * Refresh tokens are `<session number>.<43 random characters>`, kept only as SHA-256 hashes.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import {
  APP_PATHS,
  MESSAGES,
  OTP_MAX_TRIES,
  OTP_PER_ADDRESS_PER_HOUR,
  OTP_PER_NUMBER_PER_HOUR,
  OTP_RESEND_SECONDS,
  OTP_TTL_SECONDS,
  appMessage,
  errorResponse,
  otpRequestBody,
  otpRequested,
  otpVerifyBody,
  refreshBody,
  tokenPair,
  type AppUser,
  type Status,
} from '@master-admin/contract';
import type { Db } from '../../db/connect.ts';
import { isUniqueViolation, now } from '../../db/dialect.ts';
import { inTransaction } from '../../db/transaction.ts';
import { revokeSession, startSession } from '../../auth/sessions.ts';
import { deviceLabel } from '../../auth/device.ts';
import { HttpError, forbidden, tooManyRequests, unauthorized } from '../../http/errors.ts';
import { answers } from '../../http/schemas.ts';
import { record } from '../audit/record.ts';
import { insertUser } from '../users/routes.ts';
import {
  ACCESS_TOKEN_SECONDS,
  APP_SESSION_DAYS,
  asSignedIn,
  badRefreshToken,
  issueAccessToken,
  refusalOf,
} from './access.ts';
import { codeHash, newCode, otpSender, sameHash } from './otp.ts';
import { PER_ADDRESS_LIMIT, PER_USER_LIMIT, appTags, markChange, noteActivity } from './shared.ts';

const HOUR_MS = 3_600_000;

const later = (ms: number, from = Date.now()) => new Date(from + ms).toISOString();
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** The device a sign-in names, as the back-office shows it. */
export function deviceOf(
  request: FastifyRequest,
  device: { name: string; platform: string } | undefined,
): string {
  return device
    ? `${device.name} (${device.platform})`
    : deviceLabel(request.headers['user-agent']);
}

const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, secret, config } = app.ctx;
  const sender = otpSender(config.otp, app.log);

  /** A new refresh token for `sessionId` (numbered `publicId`), its hash stored in `trx`. */
  async function newRefreshToken(trx: Db, sessionId: string, publicId: number) {
    const secretPart = randomBytes(32).toString('base64url');
    await trx
      .insertInto('appRefreshTokens')
      .values({ tokenHash: sha256(secretPart), sessionId, createdAt: now(), usedAt: null })
      .execute();
    return `${publicId}.${secretPart}`;
  }

  app.post(
    APP_PATHS.otpRequest,
    {
      config: { app: 'key', rateLimit: PER_ADDRESS_LIMIT },
      schema: {
        tags: appTags('sign-in'),
        summary: 'Sends a one-time sign-in code to a phone number',
        description:
          `Answers 202 whether or not the number has an account. The code has 6 digits and works ` +
          `for ${OTP_TTL_SECONDS / 60} minutes, until ${OTP_MAX_TRIES} wrong tries or a newer ` +
          `code. At most one code per ${OTP_RESEND_SECONDS} s and ${OTP_PER_NUMBER_PER_HOUR} an ` +
          `hour per number, ${OTP_PER_ADDRESS_PER_HOUR} an hour per address: 429 with ` +
          'Retry-After past them. A gateway that does not take the code: 503, nothing kept.',
        body: otpRequestBody,
        response: { 202: otpRequested, '4xx': errorResponse, '5xx': errorResponse },
      },
    },
    async (request, reply) => {
      const { phoneNumber } = request.body;
      const masterAppId = request.appId;
      const code = newCode();
      const at = Date.now();
      const id = await inTransaction(db, request.log, async (trx) => {
        // One number's requests one after another (on SQLite every write is): the counts below
        // cannot both pass for two racing requests.
        if (app.ctx.dialect.kind === 'postgres') {
          await sql`select pg_advisory_xact_lock(hashtext(${`otp:${masterAppId}:${phoneNumber}`}))`.execute(
            trx,
          );
        }
        const mine = await trx
          .selectFrom('otpCodes')
          .select(['createdAt'])
          .where('masterAppId', '=', masterAppId)
          .where('phoneNumber', '=', phoneNumber)
          .where('createdAt', '>', later(-HOUR_MS, at))
          .orderBy('createdAt', 'asc')
          .execute();
        const last = mine.at(-1);
        if (last && Date.parse(last.createdAt) > at - OTP_RESEND_SECONDS * 1000) {
          const wait = Math.ceil(
            (Date.parse(last.createdAt) + OTP_RESEND_SECONDS * 1000 - at) / 1000,
          );
          throw tooManyRequests(MESSAGES.otpTooSoon, Math.max(1, wait));
        }
        if (mine.length >= OTP_PER_NUMBER_PER_HOUR) {
          const wait = Math.ceil((Date.parse(mine[0]!.createdAt) + HOUR_MS - at) / 1000);
          throw tooManyRequests(MESSAGES.otpTooMany, Math.max(1, wait));
        }
        const fromHere = await trx
          .selectFrom('otpCodes')
          .select(['createdAt'])
          .where('ip', '=', request.ip)
          .where('createdAt', '>', later(-HOUR_MS, at))
          .orderBy('createdAt', 'asc')
          .limit(OTP_PER_ADDRESS_PER_HOUR)
          .execute();
        if (fromHere.length >= OTP_PER_ADDRESS_PER_HOUR) {
          const wait = Math.ceil((Date.parse(fromHere[0]!.createdAt) + HOUR_MS - at) / 1000);
          throw tooManyRequests(MESSAGES.otpTooMany, Math.max(1, wait));
        }
        // Only the newest code works.
        await trx
          .updateTable('otpCodes')
          .set({ usedAt: now() })
          .where('masterAppId', '=', masterAppId)
          .where('phoneNumber', '=', phoneNumber)
          .where('usedAt', 'is', null)
          .execute();
        const row = await trx
          .insertInto('otpCodes')
          .values({
            masterAppId,
            phoneNumber,
            codeHash: codeHash(secret, masterAppId, phoneNumber, code),
            ip: request.ip.slice(0, 64),
            tries: 0,
            createdAt: new Date(at).toISOString(),
            expiresAt: later(OTP_TTL_SECONDS * 1000, at),
            usedAt: null,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        return row.id;
      });
      const appRow = await db
        .selectFrom('masterApps')
        .select(['id', 'name'])
        .where('id', '=', masterAppId)
        .executeTakeFirstOrThrow();
      try {
        await sender.send({ phoneNumber, code, app: appRow });
      } catch (err) {
        // Not sent: not kept, so it counts against no limit and a retry is not refused.
        await db.deleteFrom('otpCodes').where('id', '=', id).execute();
        throw err;
      }
      return reply.code(202).send({ message: MESSAGES.otpSent, retryAfter: OTP_RESEND_SECONDS });
    },
  );

  app.post(
    APP_PATHS.otpVerify,
    {
      config: {
        app: 'key',
        keepAnswer: false,
        rateLimit: { max: 60, timeWindow: '1 minute' },
      },
      schema: {
        tags: appTags('sign-in'),
        summary: 'Signs in with the code sent to a phone number',
        description:
          'Answers the access token, the refresh token and the user. The first sign-in of a ' +
          'number in an app creates its user (ACTIVE; activity REGISTER); every sign-in records ' +
          'activity LOGIN and a login-history entry with the address and `device`. A wrong, ' +
          'used, ended or expired code answers 401, one sentence for all; a user who is not ' +
          'ACTIVE, or whose date limit has passed, 403 saying why.',
        body: otpVerifyBody,
        response: answers(tokenPair),
      },
    },
    async (request) => {
      const { phoneNumber, code, device } = request.body;
      const masterAppId = request.appId;
      const wrong = () => unauthorized(MESSAGES.otpWrong);
      const stamp = now();
      const latest = await db
        .selectFrom('otpCodes')
        .select(['id', 'codeHash', 'tries'])
        .where('masterAppId', '=', masterAppId)
        .where('phoneNumber', '=', phoneNumber)
        .where('usedAt', 'is', null)
        .where('expiresAt', '>', stamp)
        .orderBy('createdAt', 'desc')
        .executeTakeFirst();
      if (!latest || latest.tries >= OTP_MAX_TRIES) throw wrong();
      if (!sameHash(latest.codeHash, codeHash(secret, masterAppId, phoneNumber, code))) {
        // A wrong try counts; the last one ends the code.
        await db
          .updateTable('otpCodes')
          .set({
            tries: sql<number>`tries + 1`,
            usedAt: latest.tries + 1 >= OTP_MAX_TRIES ? stamp : null,
          })
          .where('id', '=', latest.id)
          .execute();
        throw wrong();
      }
      const deviceText = deviceOf(request, device);
      const answer = await inTransaction(db, request.log, async (trx) => {
        // Used once: of two racing verifications of one code, one signs in.
        const used = await trx
          .updateTable('otpCodes')
          .set({ usedAt: now() })
          .where('id', '=', latest.id)
          .where('usedAt', 'is', null)
          .executeTakeFirst();
        if (used.numUpdatedRows !== 1n) throw wrong();
        const found = await findAppUser(trx, masterAppId, phoneNumber);
        const registered = found === undefined;
        const user: UserRow = found ?? (await registerAppUser(trx, masterAppId, phoneNumber));
        const refusal = refusalOf(user);
        if (refusal) throw forbidden(refusal);
        const session = await startSession(trx, {
          accountId: user.id,
          ip: request.ip,
          userAgent: request.headers['user-agent'],
          ttlHours: APP_SESSION_DAYS * 24,
          method: 'otp',
          app: {
            masterAppId,
            deviceName: device?.name ?? null,
            platform: device?.platform ?? null,
          },
        });
        request.account = asSignedIn({ ...user, sessionId: session.sessionId });
        const at = now();
        await trx
          .insertInto('loginHistory')
          .values({
            accountId: user.id,
            ip: request.ip.slice(0, 64),
            latitude: null,
            longitude: null,
            status: 'IN',
            device: deviceText,
            createdAt: at,
          })
          .execute();
        if (registered)
          await noteActivity(trx, request, {
            accountId: user.id,
            activity: 'REGISTER',
            device: deviceText,
          });
        await noteActivity(trx, request, {
          accountId: user.id,
          activity: 'LOGIN',
          device: deviceText,
        });
        if (registered) {
          await record(trx, request, {
            area: 'users',
            rowId: user.id,
            action: 'CREATE',
            after: { phoneNumber, status: 'ACTIVE', masterAppId, version: 1 },
          });
        }
        const refreshToken = await newRefreshToken(trx, session.sessionId, session.publicId);
        return { user, sessionId: session.sessionId, refreshToken };
      });
      return {
        accessToken: await issueAccessToken(secret, answer.sessionId, answer.user.id),
        refreshToken: answer.refreshToken,
        expiresIn: ACCESS_TOKEN_SECONDS,
        user: shownUser(answer.user),
      };
    },
  );

  app.post(
    APP_PATHS.refresh,
    {
      config: { app: 'key', keepAnswer: false, rateLimit: { max: 120, timeWindow: '1 minute' } },
      schema: {
        tags: appTags('sign-in'),
        summary: 'Trades a refresh token for a new pair',
        description:
          'A refresh token works once: the answer holds the next one. One sent again ends its ' +
          'whole session (401): whoever holds either copy must sign in again. A token of another ' +
          'app, of an ended session, or unknown answers 401; a user who may no longer sign in, 403.',
        body: refreshBody,
        response: answers(tokenPair),
      },
    },
    async (request) => {
      const [number, secretPart] = request.body.refreshToken.split('.') as [string, string];
      const found = await db
        .selectFrom('appRefreshTokens as t')
        .innerJoin('sessions as s', 's.id', 't.sessionId')
        .select([
          't.tokenHash',
          't.usedAt',
          's.id',
          's.publicId',
          's.masterAppId',
          's.revokedAt',
          's.expiresAt',
          's.accountId',
        ])
        .where('t.tokenHash', '=', sha256(secretPart))
        .executeTakeFirst();
      if (!found || found.masterAppId !== request.appId || String(found.publicId) !== number) {
        throw badRefreshToken();
      }
      if (found.revokedAt !== null || found.expiresAt <= now()) throw badRefreshToken();
      const reused = async () => {
        await revokeSession(db, found.id);
        request.log.warn(
          { session: found.publicId },
          'a used refresh token came again: session ended',
        );
        return new HttpError(401, MESSAGES.refreshTokenReused);
      };
      if (found.usedAt !== null) throw await reused();
      const answer = await inTransaction(db, request.log, async (trx) => {
        const used = await trx
          .updateTable('appRefreshTokens')
          .set({ usedAt: now() })
          .where('tokenHash', '=', found.tokenHash)
          .where('usedAt', 'is', null)
          .executeTakeFirst();
        if (used.numUpdatedRows !== 1n) return undefined;
        const user = await trx
          .selectFrom('accounts as a')
          .leftJoin('userDetails as d', 'd.accountId', 'a.id')
          .select([...USER_COLUMNS, 'd.designation'])
          .where('a.id', '=', found.accountId)
          .executeTakeFirstOrThrow();
        const refusal = refusalOf(user);
        if (refusal) throw forbidden(refusal);
        await trx
          .updateTable('sessions')
          .set({ expiresAt: later(APP_SESSION_DAYS * 24 * HOUR_MS), lastSeenAt: now() })
          .where('id', '=', found.id)
          .execute();
        return { user, refreshToken: await newRefreshToken(trx, found.id, found.publicId) };
      });
      // Used meanwhile by a racing request: a second use all the same.
      if (!answer) throw await reused();
      return {
        accessToken: await issueAccessToken(secret, found.id, found.accountId),
        refreshToken: answer.refreshToken,
        expiresIn: ACCESS_TOKEN_SECONDS,
        user: shownUser(answer.user),
      };
    },
  );

  app.post(
    APP_PATHS.logout,
    {
      config: { app: 'user', rateLimit: PER_USER_LIMIT },
      schema: {
        tags: appTags('sign-in'),
        summary: 'Signs out: ends the session of the access token',
        description:
          'Its access and refresh tokens stop working at once; a login-history entry OUT is kept.',
        response: answers(appMessage),
      },
    },
    async (request) => {
      const user = request.appUser;
      await inTransaction(db, request.log, async (trx) => {
        const session = await trx
          .selectFrom('sessions')
          .select(['deviceName', 'platform', 'userAgent'])
          .where('id', '=', user.sessionId)
          .executeTakeFirstOrThrow();
        await revokeSession(trx, user.sessionId);
        await trx
          .insertInto('loginHistory')
          .values({
            accountId: user.id,
            ip: request.ip.slice(0, 64),
            latitude: null,
            longitude: null,
            status: 'OUT',
            device:
              session.deviceName !== null
                ? `${session.deviceName} (${session.platform ?? 'other'})`
                : deviceLabel(session.userAgent),
            createdAt: now(),
          })
          .execute();
        await markChange(trx, request);
      });
      return { message: MESSAGES.signedOut };
    },
  );
};

/** The columns an end user is answered with. */
export const USER_COLUMNS = [
  'a.id',
  'a.name',
  'a.email',
  'a.phoneNumber',
  'a.masterAppId',
  'a.status',
  'a.dateLimit',
  'a.createdAt',
] as const;

type UserRow = {
  id: number;
  name: string | null;
  email: string | null;
  phoneNumber: string | null;
  masterAppId: number | null;
  status: Status;
  dateLimit: string | null;
  createdAt: string;
  designation: string | null;
};

export function shownUser(row: UserRow): AppUser {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    phoneNumber: row.phoneNumber ?? '',
    designation: row.designation,
    masterAppId: row.masterAppId ?? 0,
    dateLimit: row.dateLimit,
    createdAt: row.createdAt,
  };
}

/** The app's user with this number, not DELETED (at most one: the unique index says so). */
function findAppUser(trx: Db, masterAppId: number, phoneNumber: string) {
  return trx
    .selectFrom('accounts as a')
    .leftJoin('userDetails as d', 'd.accountId', 'a.id')
    .select([...USER_COLUMNS, 'd.designation'])
    .where('a.role', '=', 'USER')
    .where('a.masterAppId', '=', masterAppId)
    .where('a.phoneNumber', '=', phoneNumber)
    .where('a.status', '<>', 'DELETED')
    .executeTakeFirst();
}

/** A number's first sign-in in an app: its user, ACTIVE, as the back-office registers one. */
async function registerAppUser(
  trx: Db,
  masterAppId: number,
  phoneNumber: string,
): Promise<UserRow> {
  const user = {
    name: null,
    email: null,
    phoneNumber,
    masterAppId,
    dateLimit: null,
    designation: null,
  };
  try {
    const { id, createdAt } = await insertUser(trx, { ...user, adminAssignName: null });
    return { ...user, id, status: 'ACTIVE', createdAt };
  } catch (err) {
    // Registered meanwhile (by the back-office, or a racing sign-in): sent again, it finds it.
    if (isUniqueViolation(err)) throw new HttpError(409, MESSAGES.tryAgain);
    throw err;
  }
}

export default authRoutes;
