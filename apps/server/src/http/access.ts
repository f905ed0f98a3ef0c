/**
 * Authorization: every route declares who may call it (`config.access`), and this one check
 * enforces API.md's "Roles and permissions" for all of them. A route under the API that declares
 * nothing is refused at start, so nothing is ever open by accident.
 *
 * A session that may only enrol a second factor (the owner requires one, API.md "The owner's
 * security setting") is let through only to the routes that declare `config.enrolment: true`
 * (own profile, enrolment, sign-out); any other answers 403 "A second factor is required".
 *
 * A route that would let someone keep or take an account (adding or removing a factor, ending
 * other sessions …: API.md "Proof of presence") declares `config.recentProof: true`: the session
 * must have proved who it is within REAUTH_WINDOW_SECONDS (its sign-in, or `auth/reauth`), else
 * 403 `{ reauth: true }`. A handler whose need depends on its body calls `requireRecentProof`.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { API_BASE, MESSAGES, type PermissionKind } from '@master-admin/contract';
import type { Db } from '../db/connect.ts';
import type { ReadPool } from '../db/reads.ts';
import type { ChangeWatch } from '../db/changes.ts';
import { SessionLookup, type SignedIn } from '../auth/sessions.ts';
import { TokenReader } from '../auth/tokens.ts';
import { HttpError, forbidden, unauthorized } from './errors.ts';

export type Access =
  | { kind: 'public' }
  | { kind: 'signedIn' }
  | { kind: 'superAdmin' }
  | { kind: 'menu'; menu: string; action: PermissionKind };

export const access = {
  /** No token needed (login, health, /public). */
  public: { kind: 'public' } as Access,
  /** Any signed-in account: own profile, password, login history. */
  signedIn: { kind: 'signedIn' } as Access,
  /** Staff, menus and permissions management. */
  superAdmin: { kind: 'superAdmin' } as Access,
  /** SUPER_ADMIN, or STAFF holding `action` on `menu`. */
  menu: (menu: string, action: PermissionKind): Access => ({ kind: 'menu', menu, action }),
};

/**
 * A route under the API with the access it declared (`streaming`: its answer stays open;
 * `enrolment`: open to a session that may only enrol a second factor).
 */
export type DeclaredRoute = {
  method: string;
  url: string;
  access: Access;
  streaming?: true;
  enrolment?: true;
  recentProof?: true;
};

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
    /**
     * `true`: open to a session that may only enrol a second factor (own profile, second-factor
     * enrolment, sign-out). Every other route refuses such a session.
     */
    enrolment?: true;
    /** `true`: the session must have proved who it is recently (`requireRecentProof`). */
    recentProof?: true;
  }
  interface FastifyInstance {
    /** Every API route and its access rule, for the authorization matrix test and the docs. */
    declaredRoutes: DeclaredRoute[];
    /**
     * The access check's session and grant lookup, for a route whose need depends on its body
     * (presence: VIEW on the area it names).
     */
    sessionLookup: SessionLookup;
  }
  interface FastifyRequest {
    /** The signed-in account; set on every route that is not public. */
    account: SignedIn;
  }
}

/** What a refused change answers: prove with `POST auth/reauth`, then send it again. */
export const reauthRequired = () =>
  new HttpError(403, MESSAGES.reauthRequired, { extra: { reauth: true } });

/** Until when `account`'s last proof counts (ISO), given the window in seconds. */
export function proofUntil(account: Pick<SignedIn, 'provedAt'>, windowSeconds: number): string {
  return new Date(Date.parse(account.provedAt) + windowSeconds * 1000).toISOString();
}

/**
 * Refuses (403, `reauth: true`) unless the caller's session proved who it is within the window
 * (REAUTH_WINDOW_SECONDS): for a handler whose need depends on what it is asked to change.
 */
export function requireRecentProof(request: FastifyRequest) {
  const windowSeconds = request.server.ctx.config.reauthWindowSeconds;
  if (proofUntil(request.account, windowSeconds) <= new Date().toISOString()) {
    throw reauthRequired();
  }
}

export function registerAccessCheck(
  app: FastifyInstance,
  database: { db: Db; lookups: ReadPool; changes: ChangeWatch | undefined },
  secret: Uint8Array,
) {
  app.decorateRequest('account', null as unknown as SignedIn);
  const declared: DeclaredRoute[] = [];
  app.decorate('declaredRoutes', declared);

  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith(API_BASE)) return;
    const rule = route.config?.access;
    if (!rule)
      throw new Error(
        `Route ${[route.method].flat().join(',')} ${route.url} does not declare its access`,
      );
    for (const method of [route.method].flat()) {
      if (method === 'HEAD') continue;
      const streaming = route.config?.streaming ? { streaming: true as const } : {};
      const enrolment = route.config?.enrolment ? { enrolment: true as const } : {};
      const proof = route.config?.recentProof ? { recentProof: true as const } : {};
      declared.push({ method, url: route.url, access: rule, ...streaming, ...enrolment, ...proof });
    }
  });

  const tokens = new TokenReader(secret);
  const sessions = new SessionLookup(database.db, database.lookups, database.changes);
  app.decorate('sessionLookup', sessions);

  // One signature check per token (remembered), one indexed statement per call.
  app.addHook('onRequest', async (request) => {
    const rule = request.routeOptions.config.access;
    if (!rule || rule.kind === 'public') return;
    const header = request.headers.authorization;
    if (!header) throw unauthorized(MESSAGES.notSignedIn);
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    const sessionId = match?.[1] ? await tokens.sessionOf(match[1]) : undefined;
    const need = rule.kind === 'menu' ? rule : undefined;
    const found = sessionId ? await sessions.find(sessionId, need) : undefined;
    if (!found) throw unauthorized(MESSAGES.sessionExpired);
    const { account } = found;
    request.account = account;
    if (account.enrolmentOnly && !request.routeOptions.config.enrolment) {
      throw forbidden(MESSAGES.secondFactorRequired);
    }
    if (account.role !== 'SUPER_ADMIN' && rule.kind !== 'signedIn') {
      if (rule.kind === 'superAdmin' || !found.granted) throw forbidden();
    }
    if (request.routeOptions.config.recentProof) requireRecentProof(request);
  });
}
