/**
 * Menus (the permission units) and the per-menu permissions of staff accounts: SUPER_ADMIN only,
 * whatever the grants, so no staff account can raise its own rights or reach another's. The
 * access check (http/access.ts) reads the same rows on every call.
 */
import { sql } from 'kysely';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  MESSAGES,
  PATHS,
  accountIdParams,
  deleteResponse,
  idParams,
  menuAccountParams,
  menuCreateBody,
  menuList,
  menuListQuery,
  menuMutation,
  menuPermissions,
  menuUpdateBody,
  permissionBulkBody,
  permissionBulkResponse,
  permissionMutation,
  permissionStatusBody,
  userPermissions,
  type AuditAction,
} from '@master-admin/contract';
import { access } from '../../http/access.ts';
import { answers } from '../../http/schemas.ts';
import { HttpError, conflict, notFound } from '../../http/errors.ts';
import { requireAll } from '../../http/bulk.ts';
import { isUniqueViolation, now } from '../../db/dialect.ts';
import type { Db } from '../../db/connect.ts';
import { lockRows } from '../../db/transaction.ts';
import { lockStaffAndMenus } from '../accounts/service.ts';
import type { FastifyRequest } from 'fastify';
import { audited, auditedCreate, type AuditRow, type RowsReader } from '../audit/record.ts';
import { permissionGroups, selectEntries, toEntry } from './permissions.ts';
import { registerVersioned } from '../../http/versions.ts';

const menuRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, dialect } = app.ctx;

  async function uniqueName<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict(MESSAGES.menuNameTaken, 'name');
      throw err;
    }
  }

  /** A staff account's grants as the log compares them: `permissions.<menu>` → kinds held. */
  const grantRows: RowsReader = async (trx, ids) => {
    const rows = await trx
      .selectFrom('userPermissions as up')
      .innerJoin('menus as m', 'm.id', 'up.menuId')
      .innerJoin('permissions as p', 'p.id', 'up.permissionId')
      .select(['up.accountId', 'm.name as menu', 'p.name as kind', 'up.status'])
      .where('up.accountId', 'in', ids)
      .orderBy('m.name')
      .orderBy('p.id')
      .execute();
    // Each account's version too: a change of grants moves it (audit/record.ts).
    const accounts = await trx
      .selectFrom('accounts')
      .select(['id', 'version'])
      .where('id', 'in', ids)
      .execute();
    const grants = new Map<number, AuditRow>(accounts.map((a) => [a.id, { version: a.version }]));
    for (const row of rows) {
      const held = grants.get(row.accountId) ?? {};
      grants.set(row.accountId, held);
      const field = `permissions.${row.menu}`;
      const kinds = (held[field] ??= []) as string[];
      if (row.status) kinds.push(row.kind);
    }
    return grants;
  };
  const grantsOf = (accountId: number) =>
    ({
      area: 'staff',
      table: grantRows,
      // The account's permission rows, all of them: what a grant change writes.
      lock: (trx: Db, ids: readonly number[]) =>
        lockRows(trx, 'userPermissions', ids, { column: 'accountId' }),
      action: 'PERMISSIONS',
      ids: [accountId],
    }) as const;
  const menuTarget = (action: AuditAction, id?: number) =>
    ({ area: 'menus', table: 'menus', action, ids: id === undefined ? [] : [id] }) as const;
  registerVersioned(app, 'menus', {
    thing: 'Menu',
    things: 'menus',
    read: (id) =>
      db
        .selectFrom('menus')
        .select(['id', 'version', 'name', 'title'])
        .where('id', '=', id)
        .executeTakeFirst(),
  });

  async function requireStaff(accountId: number) {
    const row = await db
      .selectFrom('accounts')
      .select('id')
      .where('id', '=', accountId)
      .where('role', '=', 'STAFF')
      .executeTakeFirst();
    if (!row) throw notFound(MESSAGES.staffNotFound);
  }

  app.post(
    PATHS.menuCreate,
    {
      config: { access: access.superAdmin },
      schema: {
        tags: ['menus'],
        summary: 'Creates a menu (name unique)',
        description:
          'Adds, in the same transaction, one permission row per kind for every staff account, ' +
          'all false.',
        body: menuCreateBody,
        response: answers(menuMutation),
      },
    },
    async (request) => {
      const { name, title } = request.body;
      const row = await uniqueName(() =>
        auditedCreate(db, request, menuTarget('CREATE'), async (trx) => {
          await lockStaffAndMenus(trx);
          const at = now();
          const menu = await trx
            .insertInto('menus')
            .values({ name, title, builtIn: false, createdAt: at, updatedAt: at })
            .returning(['id', 'version', 'name', 'title'])
            .executeTakeFirstOrThrow();
          await trx
            .insertInto('userPermissions')
            .columns(['accountId', 'menuId', 'permissionId', 'status', 'updatedAt'])
            .expression(
              trx
                .selectFrom('accounts as a')
                .crossJoin('permissions as p')
                .select([
                  'a.id as accountId',
                  sql.lit(menu.id).as('menuId'),
                  'p.id as permissionId',
                  sql.lit(false).as('status'),
                  sql.val(at).as('updatedAt'),
                ])
                .where('a.role', '=', 'STAFF'),
            )
            .execute();
          return menu;
        }),
      );
      return { message: MESSAGES.menuCreated, result: row };
    },
  );

  app.get(
    PATHS.menuList,
    {
      config: { access: access.superAdmin },
      schema: {
        tags: ['menus'],
        summary: 'Lists menus by id: a bare array (kept from the spec), 100 by default',
        description: 'keyword: case-insensitive substring of the name or the title.',
        querystring: menuListQuery,
        response: answers(menuList),
      },
    },
    async (request) => {
      const { limit, offset, keyword } = request.query;
      let q = db.selectFrom('menus').select(['id', 'version', 'name', 'title']);
      if (keyword) {
        const pattern = dialect.containsPattern(keyword);
        q = q.where((eb) =>
          eb.or([dialect.contains('name', pattern), dialect.contains('title', pattern)]),
        );
      }
      return q.orderBy('id').limit(limit).offset(offset).execute();
    },
  );

  app.patch(
    PATHS.menu(':id'),
    {
      config: { access: access.superAdmin },
      schema: {
        tags: ['menus'],
        summary: 'Renames or retitles a menu (name unique)',
        description: `A built-in menu keeps its name, which the server's access rules use (409 "${MESSAGES.menuBuiltInName}"); its title may change.`,
        params: idParams,
        body: menuUpdateBody,
        response: answers(menuMutation),
      },
    },
    async (request) => {
      const { id } = request.params;
      const { name, title } = request.body;
      const before = await db
        .selectFrom('menus')
        .select(['name', 'builtIn'])
        .where('id', '=', id)
        .executeTakeFirst();
      if (!before) throw notFound(MESSAGES.menuNotFound);
      if (before.builtIn && name !== undefined && name !== before.name) {
        throw conflict(MESSAGES.menuBuiltInName, 'name');
      }
      const row = await uniqueName(() =>
        audited(db, request, menuTarget('UPDATE', id), (trx) =>
          trx
            .updateTable('menus')
            .set({
              ...(name !== undefined ? { name } : {}),
              ...(title !== undefined ? { title } : {}),
              updatedAt: now(),
            })
            .where('id', '=', id)
            .returning(['id', 'version', 'name', 'title'])
            .executeTakeFirst(),
        ),
      );
      if (!row) throw notFound(MESSAGES.menuNotFound);
      return { message: MESSAGES.menuUpdated, result: row };
    },
  );

  app.delete(
    PATHS.menuRemove(':id'),
    {
      config: { access: access.superAdmin },
      schema: {
        tags: ['menus'],
        summary: 'Deletes a menu added by the owner, with its permission rows',
        description: `Built-in menus answer 409 "${MESSAGES.menuBuiltIn}".`,
        params: idParams,
        response: answers(deleteResponse),
      },
    },
    async (request) => {
      const { id } = request.params;
      const row = await audited(db, request, menuTarget('DELETE', id), async (trx) => {
        const menu = await trx
          .selectFrom('menus')
          .select(['id', 'builtIn'])
          .where('id', '=', id)
          .executeTakeFirst();
        if (!menu) throw notFound(MESSAGES.menuNotFound);
        if (menu.builtIn) throw conflict(MESSAGES.menuBuiltIn);
        await lockRows(trx, 'userPermissions', [id], { column: 'menuId', mode: 'update' });
        await trx.deleteFrom('userPermissions').where('menuId', '=', id).execute();
        return trx.deleteFrom('menus').where('id', '=', id).returning('id').executeTakeFirst();
      });
      if (!row) throw notFound(MESSAGES.menuNotFound);
      return { message: MESSAGES.menuDeleted, result: { id: row.id } };
    },
  );

  app.get(
    PATHS.menuPermissions(':menuId', ':accountId'),
    {
      config: { access: access.superAdmin },
      schema: {
        tags: ['permissions'],
        summary: 'One staff account’s permissions on one menu, by kind',
        params: menuAccountParams,
        response: answers(menuPermissions),
      },
    },
    async (request) => {
      const { menuId, accountId } = request.params;
      const menu = await db
        .selectFrom('menus')
        .select('id')
        .where('id', '=', menuId)
        .executeTakeFirst();
      if (!menu) throw notFound(MESSAGES.menuNotFound);
      await requireStaff(accountId);
      const rows = await selectEntries(db)
        .where('up.accountId', '=', accountId)
        .where('up.menuId', '=', menuId)
        .execute();
      return { result: rows.map(toEntry) };
    },
  );

  /** Sets one permission row's status; both status paths of the spec do the same. */
  async function setStatus(request: FastifyRequest, id: number, status: boolean) {
    const owner = await db
      .selectFrom('userPermissions')
      .select('accountId')
      .where('id', '=', id)
      .executeTakeFirst();
    if (!owner) throw notFound(MESSAGES.permissionNotFound);
    const updated = await audited(db, request, grantsOf(owner.accountId), (trx) =>
      trx
        .updateTable('userPermissions')
        .set({ status, updatedAt: now() })
        .where('id', '=', id)
        .returning('id')
        .executeTakeFirst(),
    );
    if (!updated) throw notFound(MESSAGES.permissionNotFound);
    // Read after the commit: a call deleting its menu or account meanwhile has removed it.
    const row = await selectEntries(db).where('up.id', '=', id).executeTakeFirst();
    if (!row) throw notFound(MESSAGES.permissionNotFound);
    return { message: MESSAGES.statusUpdated, result: toEntry(row) };
  }

  for (const path of [PATHS.permissionStatus(':id'), PATHS.userPermissionStatus(':id')]) {
    app.put(
      path,
      {
        // The path names a permission row, which has no version (its staff member's has).
        config: { access: access.superAdmin, ifMatch: false },
        schema: {
          tags: ['permissions'],
          summary: 'Grants (true) or revokes (false) one permission row',
          description: 'Takes effect on the account’s very next call.',
          params: idParams,
          body: permissionStatusBody,
          response: answers(permissionMutation),
        },
      },
      async (request) => setStatus(request, request.params.id, request.body.status),
    );
  }

  app.get(
    PATHS.userPermissionList(':accountId'),
    {
      config: { access: access.superAdmin },
      schema: {
        tags: ['permissions'],
        summary: 'A staff account’s permissions: one group per menu, by menu id',
        params: accountIdParams,
        response: answers(userPermissions),
      },
    },
    async (request) => {
      await requireStaff(request.params.accountId);
      return { perms: await permissionGroups(db, request.params.accountId) };
    },
  );

  app.put(
    PATHS.userPermissionBulk(':accountId'),
    {
      config: { access: access.superAdmin, jsonBody: true },
      schema: {
        tags: ['permissions'],
        summary: 'Sets many permission rows of one staff account at once: all or nothing',
        description:
          '1..500 distinct row ids (JSON body). An id with no row answers 404 naming it; a row ' +
          'of another account answers 400 naming it; either way nothing changes. Answers the ' +
          'account’s permissions as user-permissions/list does.',
        params: accountIdParams,
        body: permissionBulkBody,
        response: answers(permissionBulkResponse),
      },
    },
    async (request) => {
      const { accountId } = request.params;
      const { items } = request.body;
      await requireStaff(accountId);
      const ids = items.map((i) => i.id);
      await audited(db, request, grantsOf(accountId), async (trx) => {
        const found = await trx
          .selectFrom('userPermissions')
          .select(['id', 'accountId'])
          .where('id', 'in', ids)
          .execute();
        requireAll('permission', ids, found, 'items');
        const foreign = found.filter((r) => r.accountId !== accountId).map((r) => r.id);
        if (foreign.length > 0) {
          const message = `Not a permission of account ${accountId}: ${foreign.join(', ')}`;
          throw new HttpError(400, message, { details: [{ path: 'items', message }] });
        }
        const at = now();
        for (const status of [true, false]) {
          const these = items.filter((i) => i.status === status).map((i) => i.id);
          if (these.length === 0) continue;
          await trx
            .updateTable('userPermissions')
            .set({ status, updatedAt: at })
            .where('id', 'in', these)
            .where('accountId', '=', accountId)
            .execute();
        }
      });
      return {
        message: MESSAGES.successfullyUpdated,
        perms: await permissionGroups(db, accountId),
      };
    },
  );
};
export default menuRoutes;
