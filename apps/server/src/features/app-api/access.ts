/**
 * Who calls the apps API (API.md "Apps API"): every route declares `config.app`, `'key'` (the
 * app's key is enough) or `'user'` (the key and a signed-in end user's access token), and this
 * one check enforces it before anything else runs. A route under the apps API that declares
 * nothing is refused at start.
 *
 * An end user's access token is a JWT carrying the session's id, signed with a key derived from
 * the server's secret for this API alone: a back-office token never works here, nor an app's
 * token in the back-office. The session row, read on every call, decides: a sign-out, a status
 * change, a delete or a passed date limit is seen by the very next call, on every instance.
 */
import { createHmac } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { APP_API_BASE, APP_KEY_HEADER, MESSAGES } from '@master-admin/contract';
import type { Db } from '../../db/connect.ts';
import { now } from '../../db/dialect.ts';
import { TokenReader, signToken } from '../../auth/tokens.ts';
import type { SignedIn } from '../../auth/sessions.ts';
import { HttpError, forbidden, unauthorized } from '../../http/errors.ts';
import { AppKeys } from './keys.ts';

export type AppAccess = 'key' | 'user';

/** The end user behind an app call. */
export type AppUserAccount = {
  id: number;
  name: string | null;
  email: string | null;
  phoneNumber: string;
  masterAppId: number;
  dateLimit: string | null;
  createdAt: string;
  sessionId: string;
};

declare module 'fastify' {
  interface FastifyContextConfig {
    /** An apps API route: who may call it (`key`: any caller with the app's key). */
    app?: AppAccess;
  }
  interface FastifyRequest {
    /** The master app an apps API call's key names. */
    appId: number;
    /** The signed-in end user, on `app: 'user'` routes. */
    appUser: AppUserAccount;
  }
}

/** Seconds an access token works; the refresh token gets the next one. */
export const ACCESS_TOKEN_SECONDS = 15 * 60;
/** Days an app session lasts without a refresh; each refresh starts them again. */
export const APP_SESSION_DAYS = 90;

/** The key app tokens are signed with: the server's secret, derived for this API alone. */
export function appTokenSecret(secret: Uint8Array): Uint8Array {
  return new Uint8Array(
    createHmac('sha256', secret).update('master-admin apps API tokens').digest(),
  );
}

export function issueAccessToken(secret: Uint8Array, sessionId: string, accountId: number) {
  const expiresAt = new Date(Date.now() + ACCESS_TOKEN_SECONDS * 1000);
  return signToken(appTokenSecret(secret), { sessionId, accountId }, expiresAt);
}

/** Why an end user may not use the app now (403), or undefined when they may. */
export function refusalOf(account: {
  status: string;
  dateLimit: string | null;
}): string | undefined {
  if (account.status === 'DELETED') return MESSAGES.appAccountDeleted;
  if (account.status !== 'ACTIVE') return MESSAGES.appAccountInactive;
  if (account.dateLimit !== null && account.dateLimit < now().slice(0, 10)) {
    return `${MESSAGES.appAccountDateLimit} ${account.dateLimit}`;
  }
  return undefined;
}

/** The live app session `sessionId` of app `masterAppId` and its user, as the check reads it. */
export function appSessionRow(db: Db, sessionId: string, masterAppId: number) {
  return db
    .selectFrom('sessions as s')
    .innerJoin('accounts as a', 'a.id', 's.accountId')
    .select([
      'a.id',
      'a.name',
      'a.email',
      'a.phoneNumber',
      'a.status',
      'a.dateLimit',
      'a.createdAt',
    ])
    .select(['s.masterAppId', 's.expiresAt', 's.revokedAt'])
    .where('s.id', '=', sessionId)
    .where('s.masterAppId', '=', masterAppId)
    .where('a.role', '=', 'USER')
    .executeTakeFirst();
}

export function registerAppAccess(app: FastifyInstance, db: Db, secret: Uint8Array) {
  app.decorateRequest('appId', 0);
  app.decorateRequest('appUser', null as unknown as AppUserAccount);
  const keys = new AppKeys(db);
  app.decorate('appKeys', keys);
  const tokens = new TokenReader(appTokenSecret(secret));

  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith(APP_API_BASE)) return;
    if (!route.config?.app) {
      throw new Error(
        `Route ${[route.method].flat().join(',')} ${route.url} does not declare app access`,
      );
    }
  });

  app.addHook('onRequest', async (request) => {
    const rule = request.routeOptions.config.app;
    if (!rule) return;
    request.appId = await appOfRequest(request, keys);
    if (rule === 'user') await admitUser(request, db, tokens);
  });
}

declare module 'fastify' {
  interface FastifyInstance {
    appKeys: AppKeys;
  }
}

async function appOfRequest(request: FastifyRequest, keys: AppKeys): Promise<number> {
  const key = request.headers[APP_KEY_HEADER];
  if (typeof key !== 'string' || key === '') throw unauthorized(MESSAGES.appKeyMissing);
  if (key.length > 64 || !/^[\x21-\x7e]+$/.test(key)) throw unauthorized(MESSAGES.appKeyUnknown);
  const masterAppId = await keys.appOf(key);
  if (masterAppId === undefined) throw unauthorized(MESSAGES.appKeyUnknown);
  return masterAppId;
}

async function admitUser(request: FastifyRequest, db: Db, tokens: TokenReader) {
  const header = request.headers.authorization;
  if (!header) throw unauthorized(MESSAGES.notSignedIn);
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  const sessionId = match?.[1] ? await tokens.sessionOf(match[1]) : undefined;
  if (!sessionId) throw unauthorized(MESSAGES.sessionExpired);
  const row = await appSessionRow(db, sessionId, request.appId);
  if (!row || row.revokedAt !== null || row.expiresAt <= now()) {
    throw unauthorized(MESSAGES.sessionExpired);
  }
  const refusal = refusalOf(row);
  if (refusal) throw forbidden(refusal);
  request.appUser = {
    id: row.id,
    name: row.name,
    email: row.email,
    phoneNumber: row.phoneNumber ?? '',
    masterAppId: request.appId,
    dateLimit: row.dateLimit,
    createdAt: row.createdAt,
    sessionId,
  };
  // The account the shared mechanisms name (Idempotency-Key's owner, the audit log's actor).
  request.account = asSignedIn(request.appUser);
}

/** An end user as the back-office's mechanisms see an actor. */
export function asSignedIn(
  user: Pick<AppUserAccount, 'id' | 'name' | 'email' | 'sessionId'>,
): SignedIn {
  return {
    id: user.id,
    role: 'USER',
    name: user.name,
    email: user.email,
    sessionId: user.sessionId,
    enrolmentOnly: false,
    provedAt: now(),
  };
}

/** An end user's 401 for a bad refresh token (one sentence for every way it can be bad). */
export const badRefreshToken = () => new HttpError(401, MESSAGES.refreshTokenInvalid);
