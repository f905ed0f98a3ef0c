import { randomBytes } from 'node:crypto';
import type { PermissionKind, Role } from '@master-admin/contract';
import type { Db } from '../db/connect.ts';
import { now } from '../db/dialect.ts';
import { arg, precompile } from '../db/precompiled.ts';
import { KeptWhileUnchanged, type ChangeWatch } from '../db/changes.ts';
import type { ReadPool } from '../db/reads.ts';

/** The account behind a request, as the access check and the handlers see it. */
export type SignedIn = { id: number; role: Role; email: string | null; sessionId: string };

export async function startSession(
  db: Db,
  input: { accountId: number; ip: string; userAgent: string | undefined; ttlHours: number },
): Promise<{ sessionId: string; expiresAt: Date }> {
  const sessionId = randomBytes(24).toString('base64url');
  const expiresAt = new Date(Date.now() + input.ttlHours * 3_600_000);
  await db
    .insertInto('sessions')
    .values({
      id: sessionId,
      accountId: input.accountId,
      ip: input.ip.slice(0, 64),
      userAgent: input.userAgent?.slice(0, 512) ?? null,
      createdAt: now(),
      expiresAt: expiresAt.toISOString(),
      revokedAt: null,
    })
    .execute();
  return { sessionId, expiresAt };
}

/**
 * Finds the signed-in account behind a session, and a STAFF account's grants, with statements
 * compiled once and run on `lookups`. What it read is kept while `changes` says that sessions,
 * accounts and grants are unchanged everywhere (db/changes.ts): a sign-out, a password change, a
 * status change or a new grant is seen on the very next call, on every instance.
 */
export class SessionLookup {
  readonly #lookups: ReadPool;
  readonly #session;
  readonly #grant;
  readonly #sessions: KeptWhileUnchanged<string, { account: SignedIn; expiresAt: string }>;
  readonly #grants: KeptWhileUnchanged<string, boolean>;

  /** `db` compiles the statements, `lookups` runs them (connect.ts). */
  constructor(db: Db, lookups: ReadPool, changes: ChangeWatch) {
    this.#lookups = lookups;
    this.#sessions = new KeptWhileUnchanged(changes);
    this.#grants = new KeptWhileUnchanged(changes);
    this.#session = precompile(
      db
        .selectFrom('sessions as s')
        .innerJoin('accounts as a', 'a.id', 's.accountId')
        .select(['a.id', 'a.role', 'a.email', 'a.status', 's.expiresAt', 's.revokedAt'])
        .where('s.id', '=', arg(0)),
    );
    this.#grant = precompile(
      db
        .selectFrom('userPermissions as up')
        .innerJoin('menus as m', 'm.id', 'up.menuId')
        .innerJoin('permissions as p', 'p.id', 'up.permissionId')
        .select('up.id')
        .where('up.accountId', '=', arg<number>(0))
        .where('m.name', '=', arg(1))
        .where('p.name', '=', arg<PermissionKind>(2))
        .where('up.status', '=', true)
        .limit(1),
    );
  }

  /**
   * The account of a live session: not revoked, not expired, the account ACTIVE and allowed into
   * the back-office; undefined for anything else.
   */
  async find(sessionId: string): Promise<SignedIn | undefined> {
    const { value: kept, version } = this.#sessions.lookup(sessionId);
    if (kept) return kept.expiresAt > now() ? kept.account : undefined;
    const [rows = []] = await this.#lookups.run([this.#session.fill([sessionId])]);
    const row = rows[0] as
      | {
          id: number;
          role: Role;
          email: string | null;
          status: string;
          expires_at: string;
          revoked_at: string | null;
        }
      | undefined;
    if (!row || row.revoked_at !== null || row.expires_at <= now()) return undefined;
    if (row.status !== 'ACTIVE' || row.role === 'USER') return undefined;
    const account: SignedIn = { id: row.id, role: row.role, email: row.email, sessionId };
    this.#sessions.keep(sessionId, { account, expiresAt: row.expires_at }, version);
    return account;
  }

  /** Whether the account holds `action` on `menu` (a STAFF account's grant). */
  async holds(accountId: number, menu: string, action: PermissionKind): Promise<boolean> {
    const key = `${accountId}:${menu}:${action}`;
    const { value: kept, version } = this.#grants.lookup(key);
    if (kept !== undefined) return kept;
    const [rows = []] = await this.#lookups.run([this.#grant.fill([accountId, menu, action])]);
    const granted = rows.length > 0;
    this.#grants.keep(key, granted, version);
    return granted;
  }
}

export async function revokeSession(db: Db, sessionId: string): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ revokedAt: now() })
    .where('id', '=', sessionId)
    .where('revokedAt', 'is', null)
    .execute();
}

/** Ends every session of an account (but `keep`, the caller's own, when given). */
export async function revokeSessionsOf(db: Db, accountId: number, keep?: string): Promise<void> {
  let q = db
    .updateTable('sessions')
    .set({ revokedAt: now() })
    .where('accountId', '=', accountId)
    .where('revokedAt', 'is', null);
  if (keep) q = q.where('id', '<>', keep);
  await q.execute();
}
