/**
 * Staff accounts (API.md, "Staff, menus, permissions"): SUPER_ADMIN only, whatever the grants.
 * A staff account signs in with its email (or phone number); its access role is always STAFF and
 * `roles` is a job title. Accounts are never hard-deleted: delete sets DELETED.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  STAFF_COLUMNS,
  MESSAGES,
  PATHS,
  deleteResponse,
  factorsResetAnswer,
  idParams,
  staffCreateBody,
  staffList,
  staffListQuery,
  staffMutation,
  staffPasswordBody,
  staffProfile,
  staffUpdateBody,
  statusBody,
  type Staff,
  type Status,
  type AuditAction,
} from '@master-admin/contract';
import { access, requireRecentProof } from '../../http/access.ts';
import { registerListExport } from '../../http/list-export.ts';
import { registerVersioned } from '../../http/versions.ts';
import { answers } from '../../http/schemas.ts';
import { conflict, notFound } from '../../http/errors.ts';
import { isUniqueViolation, now } from '../../db/dialect.ts';
import { defineList } from '../../db/lists.ts';
import { USERS_LIST } from '../users/routes.ts';
import type { Db } from '../../db/connect.ts';
import { hashPassword, refuseWeakPassword } from '../../auth/passwords.ts';
import { revokeSessionsOf } from '../../auth/sessions.ts';
import { resetFactors } from '../../auth/second-factor.ts';
import { inTransaction } from '../../db/transaction.ts';
import { audited, auditedCreate, record } from '../audit/record.ts';
import { createBackOfficeAccount } from '../accounts/service.ts';
import { permissionGroups } from './permissions.ts';

const TAGS = ['staff'];

const selectStaff = (db: Db) =>
  db
    .selectFrom('accounts as a')
    .select([
      'a.id',
      'a.version',
      'a.phoneNumber',
      'a.roles',
      'a.status',
      'a.createdAt',
      'a.name',
      'a.email',
    ])
    // A confirmed authenticator app or a passkey: what the owner's requirement asks for.
    .select((eb) =>
      eb
        .or([
          eb.exists(
            eb
              .selectFrom('totpFactors as t')
              .select('t.accountId')
              .whereRef('t.accountId', '=', 'a.id')
              .where('t.confirmedAt', 'is not', null),
          ),
          eb.exists(
            eb.selectFrom('passkeys as p').select('p.id').whereRef('p.accountId', '=', 'a.id'),
          ),
        ])
        .as('secondFactor'),
    )
    .where('a.role', '=', 'STAFF');

type StaffRow = {
  id: number;
  version: number;
  phoneNumber: string | null;
  roles: string | null;
  status: Status;
  createdAt: string;
  name: string | null;
  email: string | null;
  /** 0/1 on SQLite. */
  secondFactor: boolean | number;
};

const toStaff = ({ name, email, secondFactor, ...row }: StaffRow): Staff => ({
  ...row,
  secondFactor: Boolean(secondFactor),
  staffDetail: [{ id: row.id, name, email }],
});

/**
 * The staff list: STAFF accounts (the route always filters on the role), newest first, keyword
 * over name, email and phone number; DELETED accounts leave it unless status=DELETED is asked.
 */
export const STAFF_LIST = defineList({
  name: 'staff',
  table: 'accounts',
  alias: 'a',
  filters: { role: 'role', status: 'status' },
  counts: [['role', 'status']],
  hidden: { filter: 'status', value: 'DELETED' },
  search: ['name', 'email', 'phoneNumber'],
  // The users list's structures index every account's name, email and phone (0013); staff are
  // in its rest (0016).
  searchIn: USERS_LIST,
  rows: (db, ids) => selectStaff(db).where('a.id', 'in', ids),
});

const staffRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, lists, throttle } = app.ctx;

  async function findStaff(id: number): Promise<Staff> {
    const row = await selectStaff(db).where('a.id', '=', id).executeTakeFirst();
    if (!row) throw notFound(MESSAGES.staffNotFound);
    return toStaff(row);
  }
  registerVersioned(app, 'staff', {
    thing: 'Staff member',
    things: 'staff members',
    read: findStaff,
  });

  /**
   * Refuses (409, naming the field) an email or phone number that another back-office account
   * that is not DELETED holds: they sign in with it.
   */
  async function checkUnique(values: { email?: string; phoneNumber?: string }, self?: number) {
    const taken = async (field: 'email' | 'phoneNumber', value: string) => {
      let q = db
        .selectFrom('accounts')
        .select('id')
        .where('role', '<>', 'USER')
        .where('status', '<>', 'DELETED');
      q =
        field === 'email'
          ? q.where((eb) => eb(eb.fn('lower', ['email']), '=', value.toLowerCase()))
          : q.where('phoneNumber', '=', value);
      if (self !== undefined) q = q.where('id', '<>', self);
      return (await q.limit(1).executeTakeFirst()) !== undefined;
    };
    if (values.email !== undefined && (await taken('email', values.email))) {
      throw conflict(MESSAGES.emailTaken, 'email');
    }
    if (values.phoneNumber !== undefined && (await taken('phoneNumber', values.phoneNumber))) {
      throw conflict(MESSAGES.phoneNumberTaken, 'phoneNumber');
    }
  }

  /** A write whose unique indexes may still refuse it (a value taken since the check). */
  async function unique<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      const text = err instanceof Error ? err.message : '';
      if (/phone/i.test(text) || (err as { constraint?: string }).constraint?.includes('phone')) {
        throw conflict(MESSAGES.phoneNumberTaken, 'phoneNumber');
      }
      throw conflict(MESSAGES.emailTaken, 'email');
    }
  }

  const target = (action: AuditAction, id?: number) =>
    ({ area: 'staff', table: 'accounts', action, ids: id === undefined ? [] : [id] }) as const;

  const described = (summary: string, description?: string) => ({
    tags: TAGS,
    summary,
    ...(description ? { description } : {}),
  });

  app.post(
    PATHS.staffCreate,
    {
      // A new account with a password of the caller's choosing outlives the caller's session.
      config: { access: access.superAdmin, recentProof: true },
      schema: {
        ...described(
          'Creates a staff account, ACTIVE, with every permission off',
          'The email, and the phone number, must not be held by another staff or admin account ' +
            'that is not DELETED (409 naming the field). The password (8..128 characters) must ' +
            'not be too easy to guess (400 naming `password`, with the reason: not common, nor ' +
            'built from the email, name or phone number) and is stored as an argon2id hash. One ' +
            'permission row per menu and kind is created with the account, all false, in the ' +
            'same transaction.',
        ),
        body: staffCreateBody,
        response: answers(staffMutation),
      },
    },
    async (request) => {
      const { name, email, phoneNumber, password, roles } = request.body;
      await refuseWeakPassword(password, { email, name, phoneNumber }, 'password');
      await checkUnique({ email, phoneNumber });
      const { id } = await unique(() =>
        auditedCreate(db, request, target('CREATE'), async (trx) => ({
          id: await createBackOfficeAccount(trx, {
            role: 'STAFF',
            name,
            email,
            phoneNumber,
            password,
            roles,
          }),
        })),
      );
      return { message: MESSAGES.staffCreated, result: await findStaff(id) };
    },
  );

  app.get(
    PATHS.staffList,
    {
      config: { access: access.superAdmin, listPage: true },
      schema: {
        ...described(
          'Lists staff accounts, newest first; keyword searches name, email and phone number',
          'DELETED accounts are left out unless status=DELETED is asked for.',
        ),
        querystring: staffListQuery,
        response: answers(staffList),
      },
    },
    async (request) => {
      const page = await lists.page(STAFF_LIST, { ...request.query, role: 'STAFF' });
      return { ...page, result: page.result.map(toStaff) };
    },
  );

  registerListExport(app, {
    list: STAFF_LIST,
    path: PATHS.staffList,
    file: 'staff',
    access: access.superAdmin,
    tags: TAGS,
    what: 'staff accounts',
    querystring: staffListQuery,
    response: staffList,
    titles: STAFF_COLUMNS,
    scope: () => ({ role: 'STAFF' }),
    map: toStaff,
  });

  app.get(
    PATHS.staffProfile(':id'),
    {
      config: { access: access.superAdmin },
      schema: {
        ...described('A staff account and its permissions, one group per menu'),
        params: idParams,
        response: answers(staffProfile),
      },
    },
    async (request) => {
      const row = await findStaff(request.params.id);
      return { ...row, perms: await permissionGroups(db, row.id) };
    },
  );

  app.patch(
    PATHS.staffUpdate(':id'),
    {
      config: { access: access.superAdmin },
      schema: {
        ...described(
          'Changes a staff account’s name, email, phone number or job title',
          'Email and phone number stay unique as on create (409 naming the field). A new email or ' +
            'phone number (each signs in) needs a recent proof of presence (403 with ' +
            '`reauth: true` otherwise: API.md "Proof of presence").',
        ),
        params: idParams,
        body: staffUpdateBody,
        response: answers(staffMutation),
      },
    },
    async (request) => {
      const { id } = request.params;
      const { name, email, phoneNumber, roles } = request.body;
      const before = await findStaff(id);
      // A new email or phone number is a new way into the account: both sign in.
      const newEmail = email !== undefined && email !== before.staffDetail[0]?.email;
      const newPhone = phoneNumber !== undefined && phoneNumber !== before.phoneNumber;
      if (newEmail || newPhone) requireRecentProof(request);
      await checkUnique({ email, phoneNumber }, id);
      await unique(() =>
        audited(db, request, target('UPDATE', id), (trx) =>
          trx
            .updateTable('accounts')
            .set({
              ...(name !== undefined ? { name } : {}),
              ...(email !== undefined ? { email } : {}),
              ...(phoneNumber !== undefined ? { phoneNumber } : {}),
              ...(roles !== undefined ? { roles } : {}),
              updatedAt: now(),
            })
            .where('id', '=', id)
            .where('role', '=', 'STAFF')
            .execute(),
        ),
      );
      return { message: MESSAGES.staffUpdated, result: await findStaff(id) };
    },
  );

  app.patch(
    PATHS.staffPassword(':id'),
    {
      config: { access: access.superAdmin, recentProof: true },
      schema: {
        ...described(
          'Sets a staff account’s password (8..128 characters)',
          'A password too easy to guess answers 400 naming `password`, with the reason (not ' +
            'common, nor built from the account’s email, name or phone number). Every session ' +
            'of that account ends at once, and so does every device token of it: it signs in ' +
            'again with the new password (its sign-in locks are lifted).',
        ),
        params: idParams,
        body: staffPasswordBody,
        response: answers(staffMutation),
      },
    },
    async (request) => {
      const { id } = request.params;
      const member = await findStaff(id);
      await refuseWeakPassword(
        request.body.password,
        { ...member.staffDetail[0], phoneNumber: member.phoneNumber },
        'password',
      );
      const passwordHash = await hashPassword(request.body.password);
      await audited(db, request, target('PASSWORD', id), async (trx) => {
        await trx
          .updateTable('accounts')
          .set({ passwordHash, updatedAt: now() })
          .where('id', '=', id)
          .execute();
        await revokeSessionsOf(trx, id);
      });
      // As the operator's reset-password: a member locked out by guesses gets in with the new one.
      await throttle.clearAccount(id);
      return { message: MESSAGES.staffLoginUpdated, result: await findStaff(id) };
    },
  );

  app.put(
    PATHS.staffStatus(':id'),
    {
      config: { access: access.superAdmin },
      schema: {
        ...described(
          'Changes a staff account’s status',
          'Any status but ACTIVE ends every session of the account at once, and it cannot sign ' +
            'in; setting it ACTIVE again does not bring the sessions back. Making a DELETED ' +
            'account ACTIVE again answers 409 when its email or phone number has been reused.',
        ),
        params: idParams,
        body: statusBody,
        response: answers(staffMutation),
      },
    },
    async (request) => {
      const { id } = request.params;
      const { status } = request.body;
      const before = await findStaff(id);
      if (before.status === 'DELETED' && status !== 'DELETED') {
        const row = await db
          .selectFrom('accounts')
          .select(['email', 'phoneNumber'])
          .where('id', '=', id)
          .executeTakeFirstOrThrow();
        await checkUnique(
          { email: row.email ?? undefined, phoneNumber: row.phoneNumber ?? undefined },
          id,
        );
      }
      await unique(() =>
        audited(db, request, target('STATUS', id), async (trx) => {
          await trx
            .updateTable('accounts')
            .set({ status, updatedAt: now() })
            .where('id', '=', id)
            .execute();
          if (status !== 'ACTIVE') await revokeSessionsOf(trx, id);
        }),
      );
      return { message: MESSAGES.statusUpdated, result: await findStaff(id) };
    },
  );

  app.delete(
    PATHS.staffFactors(':id'),
    {
      config: { access: access.superAdmin, recentProof: true, ifMatch: false },
      schema: {
        ...described(
          'Resets a staff account’s second factors',
          'Removes its authenticator app, recovery codes and passkeys, ends all its sessions ' +
            'and lifts its sign-in locks (password and code): the remedy when someone else enrolled a factor on it, or ' +
            'it lost its own. It signs in again with its password, then (when the owner ' +
            'requires one) enrols a factor anew. Answers what was removed; an account without ' +
            'factors answers 200 with nothing removed.',
        ),
        params: idParams,
        response: answers(factorsResetAnswer),
      },
    },
    async (request) => {
      const { id } = request.params;
      const row = await findStaff(id);
      if (row.status === 'DELETED') throw notFound(MESSAGES.staffNotFound);
      const removed = await inTransaction(db, request.log, async (trx) => {
        const result = await resetFactors(trx, id);
        await record(trx, request, {
          area: 'staff',
          rowId: id,
          action: 'FACTORS_RESET',
          changes: [
            { field: 'totp', old: result.totp, new: false },
            { field: 'passkeys', old: result.passkeys, new: 0 },
          ],
        });
        return result;
      });
      await throttle.clearAccount(id);
      return { message: MESSAGES.factorsReset, result: { id, ...removed } };
    },
  );

  app.delete(
    PATHS.staffRemove(':id'),
    {
      config: { access: access.superAdmin },
      schema: {
        ...described(
          'Deletes a staff account: its status becomes DELETED',
          'Its sessions end at once and it cannot sign in; it leaves the staff list, and its ' +
            'email and phone number may be used again. An account already DELETED answers 404.',
        ),
        params: idParams,
        response: answers(deleteResponse),
      },
    },
    async (request) => {
      const { id } = request.params;
      const row = await findStaff(id);
      if (row.status === 'DELETED') throw notFound(MESSAGES.staffNotFound);
      await audited(db, request, target('DELETE', id), async (trx) => {
        await trx
          .updateTable('accounts')
          .set({ status: 'DELETED', updatedAt: now() })
          .where('id', '=', id)
          .execute();
        await revokeSessionsOf(trx, id);
      });
      return { message: MESSAGES.staffDeleted, result: { id } };
    },
  );
};
export default staffRoutes;
