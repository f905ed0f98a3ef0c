import { randomBytes, randomInt } from 'node:crypto';
import type { PermissionKind, Role } from '@master-admin/contract';
import type { Db } from '../db/connect.ts';
import { now } from '../db/dialect.ts';
import { arg, precompile } from '../db/precompiled.ts';
import { KeptWhileUnchanged, type ChangeWatch } from '../db/changes.ts';
import type { ReadPool } from '../db/reads.ts';
import type { CompiledQuery } from 'kysely';

/** The account behind a request, as the access check and the handlers see it. */
export type SignedIn = {
  id: number;
  role: Role;
  /** The account's name (null when it has none): who made a change, in the event stream. */
  name: string | null;
  email: string | null;
  sessionId: string;
  /**
   * The session may only enrol a second factor (the owner requires one and the account has
   * none): the access check lets it call only the routes that say so (`config.enrolment`).
   */
  enrolmentOnly: boolean;
  /** When the session last proved who it is (its sign-in, or `auth/reauth`): ISO. */
  provedAt: string;
};

/** How a session began (sessions.sign_in_method). */
export type SignInMethod = 'password' | 'totp' | 'recovery' | 'passkey' | 'otp';

const MAX_PUBLIC_ID = 2_147_483_647;

export async function startSession(
  db: Db,
  input: {
    accountId: number;
    ip: string;
    userAgent: string | undefined;
    ttlHours: number;
    method: SignInMethod;
    /** May only enrol a second factor (the owner requires one and the account has none). */
    enrolmentOnly?: boolean;
    /** An end user's session of the apps API: its app and the device it named. */
    app?: { masterAppId: number; deviceName: string | null; platform: string | null };
  },
): Promise<{ sessionId: string; expiresAt: Date; publicId: number }> {
  const sessionId = randomBytes(24).toString('base64url');
  const expiresAt = new Date(Date.now() + input.ttlHours * 3_600_000);
  const at = now();
  // The number it is shown by: random (it says nothing about how many sessions there are); a
  // clash with another session's number inserts nothing (no error, which would end a PostgreSQL
  // transaction) and is tried again.
  for (let attempt = 1; attempt <= 5; attempt++) {
    const publicId = randomInt(1, MAX_PUBLIC_ID);
    const inserted = await db
      .insertInto('sessions')
      .values({
        id: sessionId,
        accountId: input.accountId,
        ip: input.ip.slice(0, 64),
        userAgent: input.userAgent?.slice(0, 512) ?? null,
        createdAt: at,
        expiresAt: expiresAt.toISOString(),
        revokedAt: null,
        publicId,
        lastSeenAt: at,
        provedAt: at,
        signInMethod: input.method,
        enrolmentOnly: input.enrolmentOnly ?? false,
        masterAppId: input.app?.masterAppId ?? null,
        deviceName: input.app?.deviceName ?? null,
        platform: input.app?.platform ?? null,
      })
      .onConflict((oc) => oc.column('publicId').doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1)
      return { sessionId, expiresAt, publicId };
  }
  throw new Error('Could not number a new session');
}

/** What a route needs beyond a live session: a STAFF account's grant of `action` on `menu`. */
export type Need = { menu: string; action: PermissionKind };

/**
 * The access check's one statement: the session (value 0), whether it may only enrol a second
 * factor, its account, and whether the account holds the grant of action (value 2) on menu
 * (value 1); null values ask for no grant.
 */
export function accessStatement(db: Db) {
  return precompile(
    db
      .selectFrom('sessions as s')
      .innerJoin('accounts as a', 'a.id', 's.accountId')
      .select(['a.id', 'a.role', 'a.name', 'a.email', 'a.status', 's.expiresAt', 's.revokedAt'])
      .select(['s.enrolmentOnly', 's.provedAt', 's.createdAt'])
      .select((eb) =>
        eb
          .exists(
            eb
              .selectFrom('userPermissions as up')
              .innerJoin('menus as m', 'm.id', 'up.menuId')
              .innerJoin('permissions as p', 'p.id', 'up.permissionId')
              .select('up.id')
              .whereRef('up.accountId', '=', 'a.id')
              .where('m.name', '=', arg(1))
              .where('p.name', '=', arg<PermissionKind>(2))
              .where('up.status', '=', true),
          )
          .as('granted'),
      )
      .where('s.id', '=', arg(0)),
  );
}

/**
 * Finds the signed-in account behind a session and whether it holds the grant a route needs, in
 * one statement compiled once and run on `lookups`. A sign-out, a password change, a status change
 * or a grant change that has answered is seen by the very next call, on every instance: on
 * PostgreSQL every call reads; on SQLite what was read is kept while the database's change counters
 * say nothing changed anywhere (`changes`, db/changes.ts).
 */
export class SessionLookup {
  readonly #lookups: ReadPool;
  readonly #statement;
  readonly #sessions: KeptWhileUnchanged<string, { account: SignedIn; expiresAt: string }>;
  readonly #grants: KeptWhileUnchanged<string, boolean>;

  /** `db` compiles the statement, `lookups` runs it (connect.ts). */
  constructor(db: Db, lookups: ReadPool, changes: ChangeWatch | undefined) {
    this.#lookups = lookups;
    this.#sessions = new KeptWhileUnchanged(changes);
    this.#grants = new KeptWhileUnchanged(changes);
    this.#statement = accessStatement(db);
  }

  /**
   * The account of a live session (not revoked, not expired, the account ACTIVE and allowed into
   * the back-office) and whether it holds `need` (false without one); undefined for anything else.
   */
  async find(sessionId: string, need?: Need): Promise<Found | undefined> {
    const kept = this.kept(sessionId, need);
    if (kept.hit) return kept.found;
    const [rows = []] = await this.#lookups.run([kept.read]);
    return kept.judge(rows[0]);
  }

  /**
   * `find` from what this instance keeps (SQLite, while nothing changed), or else the statement
   * to read and how to judge its row (undefined: no row): for a read that rides with another.
   */
  kept(
    sessionId: string,
    need?: Need,
  ):
    | { hit: true; found: Found | undefined }
    | { hit: false; read: CompiledQuery; judge: (row: Row | undefined) => Found | undefined } {
    const grantKey = (accountId: number) => need && `${accountId}:${need.menu}:${need.action}`;
    const session = this.#sessions.lookup(sessionId);
    if (session.value) {
      const key = grantKey(session.value.account.id);
      const grant = key === undefined ? undefined : this.#grants.lookup(key).value;
      if (key === undefined || grant !== undefined) {
        if (session.value.expiresAt <= now()) return { hit: true, found: undefined };
        return { hit: true, found: { account: session.value.account, granted: grant ?? false } };
      }
    }
    const read = this.#statement.fill([sessionId, need?.menu ?? null, need?.action ?? null]);
    const judge = (found: Row | undefined): Found | undefined => {
      const row = found as AccessRow | undefined;
      if (!row || row.id === null || row.revoked_at !== null || row.expires_at <= now()) {
        return undefined;
      }
      if (row.status !== 'ACTIVE' || row.role === 'USER') return undefined;
      const account: SignedIn = {
        id: row.id,
        role: row.role,
        name: row.name,
        email: row.email,
        sessionId,
        enrolmentOnly: Boolean(row.enrolment_only),
        provedAt: row.proved_at ?? row.created_at,
      };
      const granted = Boolean(row.granted);
      this.#sessions.keep(sessionId, { account, expiresAt: row.expires_at }, session.version);
      const key = grantKey(row.id);
      if (key !== undefined) this.#grants.keep(key, granted, session.version);
      return { account, granted };
    };
    return { hit: false, read, judge };
  }
}

type Row = Record<string, unknown>;
/** A row of the access statement (`id` null: a row of nothing, folded into another statement). */
type AccessRow = {
  id: number | null;
  role: Role;
  name: string | null;
  email: string | null;
  status: string;
  expires_at: string;
  revoked_at: string | null;
  enrolment_only: boolean | number;
  proved_at: string | null;
  created_at: string;
  granted: boolean | number;
};
/** A live session's account, and whether it holds the grant asked about. */
export type Found = { account: SignedIn; granted: boolean };

/** The session has just proved who it is (API.md "Proof of presence"): from now, recent. */
export async function markProved(db: Db, sessionId: string): Promise<string> {
  const at = now();
  await db.updateTable('sessions').set({ provedAt: at }).where('id', '=', sessionId).execute();
  return at;
}

/** Ends one session; true when it was live and this call ended it (not one ended meanwhile). */
export async function revokeSession(db: Db, sessionId: string): Promise<boolean> {
  const result = await db
    .updateTable('sessions')
    .set({ revokedAt: now() })
    .where('id', '=', sessionId)
    .where('revokedAt', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

/** Ends every session of an account or accounts (but `keep`, the caller's own, when given). */
export async function revokeSessionsOf(
  db: Db,
  accountId: number | readonly number[],
  keep?: string,
): Promise<void> {
  let q = db
    .updateTable('sessions')
    .set({ revokedAt: now() })
    .where('accountId', typeof accountId === 'number' ? '=' : 'in', accountId)
    .where('revokedAt', 'is', null);
  if (keep) q = q.where('id', '<>', keep);
  await q.execute();
}

/**
 * An account just gained a second factor: its sessions limited to enrolment (the owner requires
 * a factor) may do everything its grants allow from the very next call.
 */
export async function liftEnrolmentOnly(db: Db, accountId: number): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ enrolmentOnly: false })
    .where('accountId', '=', accountId)
    .where('enrolmentOnly', '=', true)
    .execute();
}
