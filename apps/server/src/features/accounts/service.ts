/**
 * Creating back-office accounts and their per-menu permissions. Used by first start, the CLI and
 * tests; the staff area's calls build on it.
 */
import { PostgresAdapter, sql } from 'kysely';
import type { PermissionKind, Role } from '@master-admin/contract';
import type { Db } from '../../db/connect.ts';
import { inTransaction } from '../../db/transaction.ts';
import { now } from '../../db/dialect.ts';
import { generatedPassword, hashPassword } from '../../auth/passwords.ts';
import { passwordStrength } from '@master-admin/contract/password-strength';
import { ConfigError } from '../../config.ts';

export type NewBackOfficeAccount = {
  role: Extract<Role, 'SUPER_ADMIN' | 'STAFF'>;
  email: string;
  password: string;
  name?: string;
  phoneNumber?: string;
  /** A staff account's job title ("Editor"). */
  roles?: string;
};

/** A grant: the menu's name and the kinds allowed on it. */
export type Grants = Record<string, PermissionKind[]>;

export async function createBackOfficeAccount(
  db: Db,
  input: NewBackOfficeAccount,
  grants: Grants = {},
): Promise<number> {
  const passwordHash = await hashPassword(input.password);
  return inTransaction(db, async (trx) => {
    const at = now();
    const { id } = await trx
      .insertInto('accounts')
      .values({
        role: input.role,
        email: input.email.trim(),
        name: input.name ?? null,
        phoneNumber: input.phoneNumber ?? null,
        roles: input.roles ?? null,
        passwordHash,
        status: 'ACTIVE',
        masterAppId: null,
        dateLimit: null,
        createdAt: at,
        updatedAt: at,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (input.role === 'STAFF') await createPermissionRows(trx, id, grants);
    return id;
  });
}

/**
 * Within a transaction, holds off every other transaction that adds staff or menus until this one
 * ends, so a staff account made while a menu is made still gets that menu's rows (PostgreSQL reads
 * what was committed when each statement began; SQLite's writers take turns already).
 */
export async function lockStaffAndMenus(trx: Db) {
  if (trx.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`lock table menus in share row exclusive mode`.execute(trx);
  }
}

/**
 * One user-permission row per (menu, kind) for a staff account: the grants true, others false.
 * Runs within the transaction that creates the account.
 */
export async function createPermissionRows(db: Db, accountId: number, grants: Grants = {}) {
  await lockStaffAndMenus(db);
  const menus = await db.selectFrom('menus').select(['id', 'name']).execute();
  const kinds = await db.selectFrom('permissions').select(['id', 'name']).execute();
  const at = now();
  const rows = menus.flatMap((menu) =>
    kinds.map((kind) => ({
      accountId,
      menuId: menu.id,
      permissionId: kind.id,
      status: (grants[menu.name] ?? []).includes(kind.name),
      updatedAt: at,
    })),
  );
  if (rows.length > 0) await db.insertInto('userPermissions').values(rows).execute();
}

export async function setPassword(db: Db, accountId: number, password: string) {
  const passwordHash = await hashPassword(password);
  await db
    .updateTable('accounts')
    .set({ passwordHash, updatedAt: now() })
    .where('id', '=', accountId)
    .execute();
}

/**
 * On first start, when no SUPER_ADMIN exists, creates one from ADMIN_EMAIL/ADMIN_PASSWORD, or
 * admin@example.com with a random password that the caller prints once. Never touches an
 * existing admin. An ADMIN_PASSWORD too easy to guess stops the start (ConfigError), as the API
 * refuses a weak new password; it is not checked once the admin exists.
 */
export async function ensureFirstAdmin(
  db: Db,
  admin: { email: string | undefined; password: string | undefined },
): Promise<{ email: string; password: string | undefined } | undefined> {
  const existing = await db
    .selectFrom('accounts')
    .select('id')
    .where('role', '=', 'SUPER_ADMIN')
    .executeTakeFirst();
  if (existing) return undefined;
  const email = admin.email ?? 'admin@example.com';
  if (admin.password !== undefined) {
    const { ok, reason } = await passwordStrength(admin.password, { email, name: 'Admin' });
    if (!ok) {
      throw new ConfigError(
        `Invalid configuration:\n  ADMIN_PASSWORD: ${reason ?? 'too easy to guess'}`,
      );
    }
  }
  const password = admin.password ?? (await generatedPassword());
  try {
    await createBackOfficeAccount(db, { role: 'SUPER_ADMIN', email, password, name: 'Admin' });
  } catch (err) {
    // Another instance starting at the same moment created it first.
    const again = await db
      .selectFrom('accounts')
      .select('id')
      .where('role', '=', 'SUPER_ADMIN')
      .executeTakeFirst();
    if (again) return undefined;
    throw err;
  }
  return { email, password: admin.password ? undefined : password };
}
