import { randomBytes } from 'node:crypto';
import type { PermissionKind, Role } from '@master-admin/contract';
import type { Db } from '../db/connect.ts';
import { now } from '../db/dialect.ts';
import { arg, precompile } from '../db/precompiled.ts';
import type { ChangeWatch } from '../db/changes.ts';
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
 * Finds the signed-in account behind a session, and whether it holds a permission, in one indexed
 * statement compiled once: it runs on every call.
 */
const MAX_KEPT = 10_000;

/**
 * Finds the signed-in account behind a session, and a STAFF account's grants, with statements
 * compiled once and run on `lookups`. What it read is kept while `changes` says that sessions,
 * accounts and grants are unchanged everywhere (db/changes.ts): a sign-out, a password change, a
 * status change or a new grant is seen on the very next call, on every instance.
 */
export class SessionLookup {
  readonly #lookups: ReadPool;
  readonly #changes: ChangeWatch;
  readonly #session;
  readonly #grant;
  #keptAt: number | undefined;
  readonly #sessions = new Map<string, { account: SignedIn; expiresAt: string }>();
  readonly #grants = new Map<string, boolean>();

  /** `db` compiles the statements, `lookups` runs them (connect.ts). */
  constructor(db: Db, lookups: ReadPool, changes: ChangeWatch) {
    this.#lookups = lookups;
    this.#changes = changes;
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

  /** The version what is kept was read at, after dropping it if anything changed since. */
  #fresh(): number | undefined {
    const version = this.#changes.version();
    if (version === undefined || version !== this.#keptAt) {
      this.#sessions.clear();
      this.#grants.clear();
      this.#keptAt = version;
    }
    return version;
  }

  #keep<V>(map: Map<string, V>, key: string, value: V, version: number | undefined) {
    // Kept only if nothing changed while it was being read.
    if (version === undefined || this.#changes.version() !== version) return;
    if (map.size >= MAX_KEPT) map.delete(map.keys().next().value!);
    map.set(key, value);
  }

  /**
   * The account of a live session: not revoked, not expired, the account ACTIVE and allowed into
   * the back-office; undefined for anything else.
   */
  async find(sessionId: string): Promise<SignedIn | undefined> {
    const version = this.#fresh();
    const kept = this.#sessions.get(sessionId);
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
    this.#keep(this.#sessions, sessionId, { account, expiresAt: row.expires_at }, version);
    return account;
  }

  /** Whether the account holds `action` on `menu` (a STAFF account's grant). */
  async holds(accountId: number, menu: string, action: PermissionKind): Promise<boolean> {
    const version = this.#fresh();
    const key = `${accountId}:${menu}:${action}`;
    const kept = this.#grants.get(key);
    if (kept !== undefined) return kept;
    const [rows = []] = await this.#lookups.run([this.#grant.fill([accountId, menu, action])]);
    const granted = rows.length > 0;
    this.#keep(this.#grants, key, granted, version);
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
