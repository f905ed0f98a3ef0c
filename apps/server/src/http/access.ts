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
import { SessionLookup, type Found, type SignedIn } from '../auth/sessions.ts';
import { withRider, type Rider } from '../db/rider.ts';
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
    /**
     * `true`: a GET whose handler reads a list page (`lists.page`) before it needs the caller's
     * account: the access check's statement rides with the page's first read (db/rider.ts).
     */
    listPage?: true;
  }
  interface FastifyInstance {
    /** Every API route and its access rule, for the authorization matrix test and the docs. */
    declaredRoutes: DeclaredRoute[];
    /**
     * The access check's session and grant lookup, for a route whose need depends on its body
     * (presence: VIEW on the area it names).
     */
    sessionLookup: SessionLookup;
    /**
     * A list call's access check, if it still waits for the list's read (the request failed
     * before it, or answered without it): read and judged now, throwing 401 or 403.
     */
    settleDeferredAccess(request: FastifyRequest): Promise<void>;
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

  /** Lets `request` in on `found` (its session's account and grant), or throws 401 or 403. */
  const admit = (request: FastifyRequest, rule: Access, found: Found | undefined) => {
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
  };

  /**
   * One signature check per token (remembered), one indexed statement per call; on a list call
   * (`config.listPage`) the statement rides with the list's first read (db/rider.ts) and the
   * request is let in or refused once it has been read, before anything is answered.
   */
  const check = async (request: FastifyRequest): Promise<Rider | undefined> => {
    const rule = request.routeOptions.config.access;
    if (!rule || rule.kind === 'public') return undefined;
    const header = request.headers.authorization;
    if (!header) throw unauthorized(MESSAGES.notSignedIn);
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    const sessionId = match?.[1] ? await tokens.sessionOf(match[1]) : undefined;
    if (!sessionId) throw unauthorized(MESSAGES.sessionExpired);
    const need = rule.kind === 'menu' ? rule : undefined;
    const kept = sessions.kept(sessionId, need);
    if (kept.hit) {
      admit(request, rule, kept.found);
      return undefined;
    }
    if (!request.routeOptions.config.listPage) {
      const [rows = []] = await database.lookups.run([kept.read]);
      admit(request, rule, kept.judge(rows[0]));
      return undefined;
    }
    const deferred = {
      read: kept.read,
      settle: (row: Record<string, unknown> | undefined) => {
        if (deferredAccess.get(request) !== deferred) return;
        deferredAccess.delete(request);
        admit(request, rule, kept.judge(row));
      },
    };
    deferredAccess.set(request, deferred);
    return deferred;
  };

  app.addHook('onRequest', (request, _reply, done) => {
    check(request).then(
      (rider) => (rider ? withRider(rider, () => done()) : done()),
      (err: unknown) => done(err as Error),
    );
  });

  // A list call whose handler answered without reading its list: checked now, before it answers.
  app.addHook('onRoute', (route) => {
    if (!route.config?.listPage) return;
    const handler = route.handler;
    route.handler = async function (this: FastifyInstance, request, reply) {
      const answer: unknown = await handler.call(this, request, reply);
      await settleDeferredAccess(request);
      return answer;
    };
  });

  app.decorate('settleDeferredAccess', settleDeferredAccess);
  async function settleDeferredAccess(request: FastifyRequest) {
    const deferred = deferredAccess.get(request);
    if (!deferred) return;
    const [rows = []] = await database.lookups.run([deferred.read]);
    deferred.settle(rows[0]);
  }
}

/** A list call's access check waiting for the list's first read, by request. */
const deferredAccess = new WeakMap<FastifyRequest, Rider>();
