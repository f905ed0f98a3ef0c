/**
 * End users (accounts of role USER): register, list, edit, date limit, status, top and bottom
 * banners, delete (status DELETED: the files stay, so a status change restores the account);
 * their wallet, and login history (a user's, and the caller's own).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  LOGIN_HISTORY_COLUMNS,
  ACTIVITY_COLUMNS,
  USER_COLUMNS,
  WALLET_COLUMNS,
  MESSAGES,
  PATHS,
  USER_SORTS,
  accountIdParams,
  bulkResponse,
  dateLimitBody,
  activityList,
  activityListQuery,
  deleteResponse,
  idParams,
  loginHistoryList,
  loginHistoryQuery,
  statusBody,
  user as userSchema,
  userBulkStatusBody,
  userCreateBody,
  userList,
  userListQuery,
  userMutation,
  userUpdateBody,
  walletList,
  walletListQuery,
  type User,
  type AuditAction,
} from '@master-admin/contract';
import { access } from '../../http/access.ts';
import { requireAll } from '../../http/bulk.ts';
import { registerListExport } from '../../http/list-export.ts';
import { answers } from '../../http/schemas.ts';
import { HttpError, conflict, forbidden, notFound } from '../../http/errors.ts';
import { isUniqueViolation, now } from '../../db/dialect.ts';
import { defineList, type Lists, type ListSpec, type PageQuery } from '../../db/lists.ts';
import { arg, precompile } from '../../db/precompiled.ts';
import type { Db } from '../../db/connect.ts';
import { lockRows } from '../../db/transaction.ts';
import { revokeSessionsOf } from '../../auth/sessions.ts';
import { upload } from '../../media/uploads.ts';
import type { FastifyRequest } from 'fastify';
import { audited, snapshots, type AuditRow, type AuditTarget } from '../audit/record.ts';
import { registerVersioned } from '../../http/versions.ts';

const FOLDER = 'users';
const MENU = 'users';

/** Users as the list and every answer show them. */
export const selectUsers = (d: Db) =>
  d
    .selectFrom('accounts as a')
    .innerJoin('masterApps as m', 'm.id', 'a.masterAppId')
    .leftJoin('userDetails as d', 'd.accountId', 'a.id')
    .select([
      'a.id',
      'a.version',
      'a.phoneNumber',
      'a.status',
      'a.dateLimit',
      'a.masterAppId',
      'a.createdAt',
      'a.updatedAt',
      'a.name',
      'a.email',
      'd.id as detailId',
      'd.designation',
      'd.adminAssignName',
      'd.profile',
      'd.top',
      'd.bottom',
      'm.name as appName',
    ]);
type Row = Awaited<ReturnType<ReturnType<typeof selectUsers>['executeTakeFirstOrThrow']>>;

export const USERS_LIST = defineList({
  name: 'users',
  table: 'accounts',
  alias: 'a',
  filters: { role: 'role', status: 'status', masterAppId: 'masterAppId' },
  counts: [['role', 'status', 'masterAppId']],
  search: ['name', 'email', 'phoneNumber'],
  // DELETED users leave the list unless asked for (API.md, Conventions).
  hidden: { filter: 'status', value: 'DELETED' },
  // The structure holds the users the list shows unless asked otherwise (0016): a keyword's total
  // is counted there alone. DELETED users and every other account are in its rest.
  searchWhere: [
    { column: 'role', op: '=', value: 'USER' },
    { column: 'status', op: '<>', value: 'DELETED' },
  ],
  sorts: USER_SORTS,
  caseless: ['name', 'email'],
  rows: (db, ids) => selectUsers(db).where('a.id', 'in', ids),
});

export const WALLETS_LIST = defineList({
  name: 'wallets',
  table: 'wallets',
  alias: 'w',
  filters: { accountId: 'accountId' },
  counts: [['accountId']],
  search: ['feed'],
  rows: (db, ids) =>
    db
      .selectFrom('wallets as w')
      .select(['w.id', 'w.reward', 'w.depositFor', 'w.status', 'w.feed', 'w.createdAt'])
      .where('w.id', 'in', ids),
});

export const LOGIN_HISTORY_LIST = defineList({
  name: 'login_history',
  table: 'loginHistory',
  alias: 'h',
  filters: { accountId: 'accountId' },
  counts: [['accountId']],
  search: ['ip'],
  rows: (db, ids) =>
    db
      .selectFrom('loginHistory as h')
      .select(['h.id', 'h.ip', 'h.latitude', 'h.longitude', 'h.status', 'h.device', 'h.createdAt'])
      .where('h.id', 'in', ids),
});

/** What an end user did in the content app (apps API), newest first. */
export const ACTIVITIES_LIST = defineList({
  name: 'user_activities',
  table: 'userActivities',
  alias: 'ua',
  filters: { accountId: 'accountId' },
  counts: [['accountId']],
  search: [],
  rows: (db, ids) =>
    db
      .selectFrom('userActivities as ua')
      .select([
        'ua.id',
        'ua.activity',
        'ua.posterId',
        'ua.detail',
        'ua.ip',
        'ua.device',
        'ua.createdAt',
      ])
      .where('ua.id', 'in', ids),
});

/** A 404 that names the field whose id has no row, so a form can mark it. */
const missing = (field: string, message: string) =>
  new HttpError(404, message, { details: [{ path: field, message }] });

const phoneTaken = () => conflict(MESSAGES.phoneTaken, 'phoneNumber');

/**
 * A page of what an account owns (its wallet, images, login history) and the account's role, read
 * in one batch (`Lists.pageWithin`): no round trip to check the account before the list. The
 * role is undefined when there is no such account. An account's role never changes once it is
 * created (and accounts are never removed), so a role once read is kept: most calls then read the
 * page alone (on PostgreSQL, two statements instead of three).
 */
export function ownedLists(db: Db, lists: Lists) {
  const role = precompile(
    db.selectFrom('accounts').select('role').where('id', '=', arg<number>(0)),
  );
  const roles = new Map<number, string>();
  const MAX_ROLES = 10_000;
  return async <O>(
    spec: ListSpec<string, O>,
    accountId: number,
    query: PageQuery & Readonly<Record<string, unknown>>,
  ) => {
    const kept = roles.get(accountId);
    if (kept !== undefined) {
      return { page: await lists.page(spec, { ...query, accountId }), role: kept };
    }
    const { page, alongside } = await lists.pageWithin(spec, { ...query, accountId }, [
      role.fill([accountId]),
    ]);
    const found = alongside[0]?.[0]?.role as string | undefined;
    if (found !== undefined) {
      if (roles.size >= MAX_ROLES) roles.delete(roles.keys().next().value!);
      roles.set(accountId, found);
    }
    return { page, role: found };
  };
}

/** The USER account `id`, or a 404 (none, or not a user). */
export async function requireUser(db: Db, id: number) {
  const row = await db
    .selectFrom('accounts')
    .select(['id', 'status', 'masterAppId'])
    .where('id', '=', id)
    .where('role', '=', 'USER')
    .executeTakeFirst();
  if (!row) throw notFound(MESSAGES.userNotFound);
  return row;
}

/** A user's audited state: the account's columns and its details'. */
const userRows: AuditTarget['table'] = async (trx, ids) => {
  const accounts = await snapshots(trx, 'accounts', ids);
  if (accounts.size === 0) return accounts;
  const details = await trx
    .selectFrom('userDetails')
    .select(['accountId', 'designation', 'adminAssignName', 'profile', 'top', 'bottom'])
    .where('accountId', 'in', [...accounts.keys()])
    .execute();
  const rows = new Map<number, AuditRow>(accounts);
  for (const { accountId, ...detail } of details) {
    rows.set(accountId, { ...accounts.get(accountId), ...detail });
  }
  return rows;
};

/**
 * A new end user, ACTIVE, with their (empty) details: the one way users are made, by the
 * back-office's register and by a first sign-in through the apps API.
 */
export async function insertUser(
  trx: Db,
  user: {
    name: string | null;
    email: string | null;
    phoneNumber: string;
    masterAppId: number;
    dateLimit: string | null;
    designation: string | null;
    adminAssignName: string | null;
  },
): Promise<{ id: number; createdAt: string }> {
  const at = now();
  const { id } = await trx
    .insertInto('accounts')
    .values({
      role: 'USER',
      name: user.name,
      email: user.email,
      phoneNumber: user.phoneNumber,
      passwordHash: null,
      status: 'ACTIVE',
      masterAppId: user.masterAppId,
      dateLimit: user.dateLimit,
      createdAt: at,
      updatedAt: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await trx
    .insertInto('userDetails')
    .values({
      accountId: id,
      designation: user.designation,
      adminAssignName: user.adminAssignName,
      profile: null,
      top: null,
      bottom: null,
      createdAt: at,
      updatedAt: at,
    })
    .execute();
  return { id, createdAt: at };
}

/** What a change of users records: the account and its details, the account's row locked. */
export const userAuditTarget = (action: AuditAction, id?: number) =>
  ({
    area: 'users',
    table: userRows,
    lock: (trx: Db, ids: readonly number[]) => lockRows(trx, 'accounts', ids),
    action,
    ids: id === undefined ? [] : [id],
  }) as const;

const userRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, lists, media } = app.ctx;
  const owned = ownedLists(db, lists);

  const toUser = (row: Row): User => ({
    id: row.id,
    version: row.version,
    phoneNumber: row.phoneNumber ?? '',
    status: row.status,
    dateLimit: row.dateLimit,
    masterAppId: row.masterAppId!,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    userDetail: {
      id: row.detailId ?? row.id,
      userId: row.id,
      name: row.name,
      email: row.email,
      profile: media.url(row.profile ?? null),
      top: media.url(row.top ?? null),
      bottom: media.url(row.bottom ?? null),
      designation: row.designation ?? null,
      adminAssignName: row.adminAssignName ?? null,
    },
    masterApp: { id: row.masterAppId!, name: row.appName },
  });

  async function findUser(id: number): Promise<User> {
    const row = await selectUsers(db)
      .where('a.id', '=', id)
      .where('a.role', '=', 'USER')
      .executeTakeFirst();
    if (!row) throw notFound(MESSAGES.userNotFound);
    return toUser(row);
  }
  registerVersioned(app, 'users', { thing: 'User', things: 'users', read: findUser });

  async function requireApp(trx: Db, id: number) {
    const found = await trx
      .selectFrom('masterApps')
      .select('id')
      .where('id', '=', id)
      .executeTakeFirst();
    if (!found) throw missing('masterAppId', MESSAGES.appNotFound);
  }

  /** Runs `write`; a phone number taken in the app (the unique index said so) is a 409. */
  async function uniquePhone<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (err) {
      if (isUniqueViolation(err)) throw phoneTaken();
      throw err;
    }
  }

  /** A user as the log compares it: the account with its details. */
  app.post(
    PATHS.userRegister,
    {
      config: { access: access.menu(MENU, 'CREATE') },
      schema: {
        tags: ['users'],
        summary: 'Registers an end user of a master app',
        description:
          'The phone number is unique within the master app among users that are not DELETED ' +
          '(409 otherwise); the same number in another app is allowed. A user has no password ' +
          'and can never sign in to the back-office.',
        body: userCreateBody,
        response: answers(userMutation),
      },
    },
    async (request) => {
      const body = request.body;
      const create = { ...userAuditTarget('CREATE'), ids: (id: number) => [id] };
      const id = await uniquePhone(() =>
        audited<number>(db, request, create, async (trx) => {
          await requireApp(trx, body.masterAppId);
          const { id } = await insertUser(trx, {
            name: body.name,
            email: body.email ?? null,
            phoneNumber: body.phoneNumber,
            masterAppId: body.masterAppId,
            dateLimit: body.dateLimit ?? null,
            designation: body.designation ?? null,
            adminAssignName: body.adminAssignName ?? null,
          });
          return id;
        }),
      );
      return { message: MESSAGES.userCreated, result: await findUser(id) };
    },
  );

  app.get(
    PATHS.userList,
    {
      config: { access: access.menu(MENU, 'VIEW'), listPage: true },
      schema: {
        tags: ['users'],
        summary:
          'Lists users, newest first; keyword searches name, email and phone number. DELETED ' +
          'users are left out unless status=DELETED is asked for',
        querystring: userListQuery,
        response: answers(userList),
      },
    },
    async (request) => {
      const page = await lists.page(USERS_LIST, { ...request.query, role: 'USER' });
      return { ...page, result: page.result.map(toUser) };
    },
  );

  registerListExport(app, {
    list: USERS_LIST,
    path: PATHS.userList,
    file: 'users',
    access: access.menu(MENU, 'VIEW'),
    tags: ['users'],
    what: 'users',
    querystring: userListQuery,
    response: userList,
    titles: USER_COLUMNS,
    scope: () => ({ role: 'USER' }),
    map: toUser,
  });

  app.get(
    PATHS.user(':accountId'),
    {
      config: { access: access.menu(MENU, 'VIEW') },
      schema: {
        tags: ['users'],
        summary: 'One user, as the list shows it (DELETED ones too)',
        params: accountIdParams,
        response: answers(userSchema),
      },
    },
    async (request) => findUser(request.params.accountId),
  );

  /** Updates the user's account and detail columns in one transaction; answers the row. */
  async function update(
    request: FastifyRequest,
    id: number,
    account: Record<string, unknown>,
    detail: Record<string, unknown> = {},
  ) {
    await requireUser(db, id);
    await uniquePhone(() =>
      audited(db, request, userAuditTarget('UPDATE', id), async (trx) => {
        const at = now();
        if (account.masterAppId !== undefined) await requireApp(trx, account.masterAppId as number);
        await trx
          .updateTable('accounts')
          .set({ ...account, updatedAt: at })
          .where('id', '=', id)
          .execute();
        if (Object.keys(detail).length > 0) {
          await trx
            .updateTable('userDetails')
            .set({ ...detail, updatedAt: at })
            .where('accountId', '=', id)
            .execute();
        }
      }),
    );
    return findUser(id);
  }

  app.patch(
    PATHS.userEdit(':accountId'),
    {
      config: { access: access.menu(MENU, 'UPDATE') },
      schema: {
        tags: ['users'],
        summary: 'Changes any of a user’s details (at least one)',
        description:
          'An empty text field counts as absent; an empty dateLimit clears it. Moving the user ' +
          'to another app or changing the phone number keeps the number unique in the app (409).',
        params: accountIdParams,
        body: userUpdateBody,
        response: answers(userMutation),
      },
    },
    async (request) => {
      const { designation, adminAssignName, dateLimit, ...account } = request.body;
      const detail: Record<string, unknown> = {};
      if (designation !== undefined) detail.designation = designation;
      if (adminAssignName !== undefined) detail.adminAssignName = adminAssignName;
      const set: Record<string, unknown> = Object.fromEntries(
        Object.entries(account).filter(([, v]) => v !== undefined),
      );
      if (dateLimit !== undefined) set.dateLimit = dateLimit;
      const result = await update(request, request.params.accountId, set, detail);
      return { message: MESSAGES.userUpdated, result };
    },
  );

  app.patch(
    PATHS.userDateLimit(':accountId'),
    {
      config: { access: access.menu(MENU, 'UPDATE') },
      schema: {
        tags: ['users'],
        summary: 'Sets a user’s date limit, or clears it with an empty value',
        params: accountIdParams,
        body: dateLimitBody,
        response: answers(userMutation),
      },
    },
    async (request) => {
      const result = await update(request, request.params.accountId, {
        dateLimit: request.body.dateLimit ?? null,
      });
      return { message: MESSAGES.dateLimitUpdated, result };
    },
  );

  /** Sets the status; any but ACTIVE ends the account's sessions (API.md, Conventions). */
  async function setStatus(
    request: FastifyRequest,
    action: 'STATUS' | 'DELETE',
    id: number,
    status: User['status'],
  ) {
    await requireUser(db, id);
    await uniquePhone(() =>
      audited(db, request, userAuditTarget(action, id), async (trx) => {
        await trx
          .updateTable('accounts')
          .set({ status, updatedAt: now() })
          .where('id', '=', id)
          .execute();
        if (status !== 'ACTIVE') await revokeSessionsOf(trx, id);
      }),
    );
  }

  app.put(
    PATHS.userStatus(':id'),
    {
      config: { access: access.menu(MENU, 'UPDATE') },
      schema: {
        tags: ['users'],
        summary: 'Changes a user’s status (a DELETED user is restored by setting another)',
        description:
          'Restoring a DELETED user whose phone number another user of the app has taken since ' +
          'answers 409.',
        params: idParams,
        body: statusBody,
        response: answers(userMutation),
      },
    },
    async (request) => {
      await setStatus(request, 'STATUS', request.params.id, request.body.status);
      return { message: MESSAGES.statusUpdated, result: await findUser(request.params.id) };
    },
  );

  app.put(
    PATHS.userBulkStatus,
    {
      config: { access: access.menu(MENU, 'UPDATE') },
      schema: {
        tags: ['users'],
        summary:
          'Changes the status of 1..500 users, all or nothing: an id with no user is a 404 ' +
          'naming it, and nothing changes',
        description:
          'DELETED is not a choice (delete is its own call). Any status but ACTIVE ends the ' +
          'users’ sessions. Restoring a DELETED user whose phone number another user of the ' +
          'app has taken since answers 409, and nothing changes.',
        body: userBulkStatusBody,
        response: answers(bulkResponse),
      },
    },
    async (request) => {
      const { ids, status } = request.body;
      await uniquePhone(() =>
        audited(db, request, { ...userAuditTarget('STATUS'), ids }, async (trx) => {
          const updated = await trx
            .updateTable('accounts')
            .set({ status, updatedAt: now() })
            .where('id', 'in', ids)
            .where('role', '=', 'USER')
            .returning('id')
            .execute();
          requireAll('user', ids, updated);
          if (status !== 'ACTIVE') await revokeSessionsOf(trx, ids);
        }),
      );
      return { message: MESSAGES.statusUpdated, result: { ids, count: ids.length } };
    },
  );

  /** Replaces the user's banner in `column` with the multipart image `file`. */
  async function replaceBanner(request: FastifyRequest, id: number, column: 'top' | 'bottom') {
    const file = upload(request, 'file', true);
    await requireUser(db, id);
    const key = await media.saveImage(file, FOLDER);
    const old = await db
      .selectFrom('userDetails')
      .select(column)
      .where('accountId', '=', id)
      .executeTakeFirst();
    const at = now();
    await audited(db, request, userAuditTarget('FILE', id), async (trx) => {
      if (old) {
        await trx
          .updateTable('userDetails')
          .set({ [column]: key, updatedAt: at })
          .where('accountId', '=', id)
          .execute();
      } else {
        await trx
          .insertInto('userDetails')
          .values({
            accountId: id,
            designation: null,
            adminAssignName: null,
            profile: null,
            top: column === 'top' ? key : null,
            bottom: column === 'bottom' ? key : null,
            createdAt: at,
            updatedAt: at,
          })
          .execute();
      }
    });
    if (old && old[column] !== key) await media.release([old[column]]);
    return findUser(id);
  }

  app.put(
    PATHS.userTopBanner(':accountId'),
    {
      config: { access: access.menu(MENU, 'UPDATE'), uploads: { file: 'image' } },
      schema: {
        tags: ['users'],
        summary: 'Sets the user’s top banner from the multipart image `file`',
        params: accountIdParams,
        response: answers(userMutation),
      },
    },
    async (request) => ({
      message: MESSAGES.topBannerUpdated,
      result: await replaceBanner(request, request.params.accountId, 'top'),
    }),
  );

  app.put(
    PATHS.userBottomBanner(':accountId'),
    {
      config: { access: access.menu(MENU, 'UPDATE'), uploads: { file: 'image' } },
      schema: {
        tags: ['users'],
        summary: 'Sets the user’s bottom banner from the multipart image `file`',
        params: accountIdParams,
        response: answers(userMutation),
      },
    },
    async (request) => ({
      message: MESSAGES.bottomBannerUpdated,
      result: await replaceBanner(request, request.params.accountId, 'bottom'),
    }),
  );

  app.delete(
    PATHS.userDelete(':id'),
    {
      config: { access: access.menu(MENU, 'DELETE') },
      schema: {
        tags: ['users'],
        summary:
          'Deletes a user: status DELETED (the files stay, so setting another status restores it)',
        params: idParams,
        response: answers(deleteResponse),
      },
    },
    async (request) => {
      await setStatus(request, 'DELETE', request.params.id, 'DELETED');
      return { message: MESSAGES.userDeleted, result: { id: request.params.id } };
    },
  );

  app.get(
    PATHS.wallets(':accountId'),
    {
      config: { access: access.menu(MENU, 'VIEW'), listPage: true },
      schema: {
        tags: ['users'],
        summary: 'A user’s wallet (reward history), newest first; keyword searches the feed',
        description:
          '`depositFor` is the activity the reward was for, `status` the kind of transaction ' +
          '(DEPOSIT, WITHDRAW, FINED). Rows are written by the content app.',
        params: accountIdParams,
        querystring: walletListQuery,
        response: answers(walletList),
      },
    },
    async (request) => {
      const { page, role } = await owned(WALLETS_LIST, request.params.accountId, request.query);
      if (role !== 'USER') throw notFound(MESSAGES.userNotFound);
      return page;
    },
  );

  registerListExport(app, {
    list: WALLETS_LIST,
    path: PATHS.wallets(':accountId'),
    file: 'wallet',
    access: access.menu(MENU, 'VIEW'),
    tags: ['users'],
    what: 'wallet rows of a user',
    params: accountIdParams,
    querystring: walletListQuery,
    response: walletList,
    titles: WALLET_COLUMNS,
    scope: async ({ accountId }) => {
      await requireUser(db, accountId);
      return { accountId };
    },
  });

  /**
   * The export's check of the account whose history it reads (the list checks the same in its
   * batch, `owned`): a USER's needs the users menu (the route's rule), another's SUPER_ADMIN.
   */
  async function requireHistoryAccess(accountId: number, caller: { role: string }) {
    const account = await db
      .selectFrom('accounts')
      .select('role')
      .where('id', '=', accountId)
      .executeTakeFirst();
    if (!account) throw notFound(MESSAGES.accountNotFound);
    if (account.role !== 'USER' && caller.role !== 'SUPER_ADMIN') throw forbidden();
  }

  app.get(
    PATHS.userActivities(':accountId'),
    {
      config: { access: access.menu(MENU, 'VIEW'), listPage: true },
      schema: {
        tags: ['users'],
        summary: 'What a user did in the content app, newest first',
        description:
          'Sign-ups, sign-ins, likes and shares through the apps API (`posterId`: the poster; ' +
          '`detail`: where it was shared), with the address and the device the app named.',
        params: accountIdParams,
        querystring: activityListQuery,
        response: answers(activityList),
      },
    },
    async (request) => {
      const { page, role } = await owned(ACTIVITIES_LIST, request.params.accountId, request.query);
      if (role !== 'USER') throw notFound(MESSAGES.userNotFound);
      return page;
    },
  );

  registerListExport(app, {
    list: ACTIVITIES_LIST,
    path: PATHS.userActivities(':accountId'),
    file: 'activity',
    access: access.menu(MENU, 'VIEW'),
    tags: ['users'],
    what: 'what a user did in the content app',
    params: accountIdParams,
    querystring: activityListQuery,
    response: activityList,
    titles: ACTIVITY_COLUMNS,
    scope: async ({ accountId }) => {
      await requireUser(db, accountId);
      return { accountId };
    },
  });

  app.get(
    PATHS.loginHistory(':accountId'),
    {
      config: { access: access.menu(MENU, 'VIEW'), listPage: true },
      schema: {
        tags: ['login history'],
        summary: 'An account’s sign-ins and sign-outs, newest first; keyword searches the IP',
        description:
          'A USER’s history needs VIEW on the users menu; a STAFF or admin account’s is open ' +
          'to SUPER_ADMIN only (403 otherwise).',
        params: accountIdParams,
        querystring: loginHistoryQuery,
        response: answers(loginHistoryList),
      },
    },
    async (request) => {
      const { accountId } = request.params;
      const { page, role } = await owned(LOGIN_HISTORY_LIST, accountId, request.query);
      if (role === undefined) throw notFound(MESSAGES.accountNotFound);
      if (role !== 'USER' && request.account.role !== 'SUPER_ADMIN') throw forbidden();
      return page;
    },
  );

  registerListExport(app, {
    list: LOGIN_HISTORY_LIST,
    path: PATHS.loginHistory(':accountId'),
    file: 'login-history',
    access: access.menu(MENU, 'VIEW'),
    tags: ['login history'],
    what: 'sign-ins and sign-outs of an account (a STAFF or admin account’s: SUPER_ADMIN only)',
    params: accountIdParams,
    querystring: loginHistoryQuery,
    response: loginHistoryList,
    titles: LOGIN_HISTORY_COLUMNS,
    scope: async ({ accountId }, request) => {
      await requireHistoryAccess(accountId, request.account);
      return { accountId };
    },
  });

  app.get(
    PATHS.loginHistoryOwn,
    {
      config: { access: access.signedIn },
      schema: {
        tags: ['login history'],
        summary: 'The caller’s own sign-ins and sign-outs, newest first; keyword searches the IP',
        querystring: loginHistoryQuery,
        response: answers(loginHistoryList),
      },
    },
    async (request) =>
      lists.page(LOGIN_HISTORY_LIST, { ...request.query, accountId: request.account.id }),
  );

  registerListExport(app, {
    list: LOGIN_HISTORY_LIST,
    path: PATHS.loginHistoryOwn,
    file: 'login-history',
    access: access.signedIn,
    tags: ['login history'],
    what: 'caller’s own sign-ins and sign-outs',
    querystring: loginHistoryQuery,
    response: loginHistoryList,
    titles: LOGIN_HISTORY_COLUMNS,
    scope: (_params, request) => ({ accountId: request.account.id }),
  });
};

export default userRoutes;
