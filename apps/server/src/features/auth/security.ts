/**
 * The owner's security setting (API.md, "The owner's security setting"): whether every STAFF
 * account must have a second factor. While it is on, a STAFF account without one signs in to a
 * session that may only enrol one (auth/sign-in.ts decides; http/access.ts enforces).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql, type SqlBool } from 'kysely';
import {
  MESSAGES,
  PATHS,
  securitySettings,
  securitySettingsBody,
  securitySettingsChanged,
  type SecuritySettings,
} from '@master-admin/contract';
import type { Db } from '../../db/connect.ts';
import { now } from '../../db/dialect.ts';
import { inTransaction, lockRows } from '../../db/transaction.ts';
import { access } from '../../http/access.ts';
import { answers } from '../../http/schemas.ts';
import { hasSecondFactor } from '../../auth/second-factor.ts';
import { record } from '../audit/record.ts';

const TAGS = ['account'];

async function readSettings(db: Db): Promise<SecuritySettings> {
  const row = await db
    .selectFrom('securitySettings')
    .select('requireSecondFactor')
    .where('id', '=', 1)
    .executeTakeFirstOrThrow();
  return { requireSecondFactor: Boolean(row.requireSecondFactor) };
}

const securityRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.ctx;

  app.get(
    PATHS.security,
    {
      config: { access: access.superAdmin },
      schema: {
        tags: TAGS,
        summary: 'The owner’s security settings',
        response: answers(securitySettings),
      },
    },
    async () => readSettings(db),
  );

  app.put(
    PATHS.security,
    {
      // Turning the requirement off opens every staff account to its password alone.
      config: { access: access.superAdmin, recentProof: true },
      schema: {
        tags: TAGS,
        summary: 'Changes the owner’s security settings',
        description:
          '`requireSecondFactor`: while true, a STAFF account without a second factor (an ' +
          'authenticator app or a passkey) that signs in gets a session whose only allowed ' +
          'calls are its own profile, second-factor enrolment and sign-out (others answer 403 "' +
          MESSAGES.secondFactorRequired +
          '"). Turning it on limits the live sessions of such accounts at once; turning it off ' +
          'lifts every such limit. SUPER_ADMIN accounts are never limited.',
        body: securitySettingsBody,
        response: answers(securitySettingsChanged),
      },
    },
    async (request) => {
      const { requireSecondFactor } = request.body;
      await inTransaction(db, request.log, async (trx) => {
        await lockRows(trx, 'securitySettings', [1], { mode: 'noKeyUpdate' });
        const before = await readSettings(trx);
        await trx
          .updateTable('securitySettings')
          .set({ requireSecondFactor, updatedAt: now() })
          .where('id', '=', 1)
          .execute();
        if (requireSecondFactor) {
          // Limited from their next call: the live sessions of STAFF accounts without a factor.
          await trx
            .updateTable('sessions')
            .set({ enrolmentOnly: true })
            .where('enrolmentOnly', '=', false)
            .where('revokedAt', 'is', null)
            .where('expiresAt', '>', now())
            .where('accountId', 'in', (eb) =>
              eb
                .selectFrom('accounts as a')
                .select('a.id')
                .where('a.role', '=', 'STAFF')
                .where(sql<SqlBool>`not ${hasSecondFactor(sql.ref<number>('a.id'))}`),
            )
            .execute();
        } else {
          await trx
            .updateTable('sessions')
            .set({ enrolmentOnly: false })
            .where('enrolmentOnly', '=', true)
            .execute();
        }
        await record(trx, request, {
          area: 'auth',
          rowId: null,
          action: 'SECURITY',
          before,
          after: { requireSecondFactor },
        });
      });
      return { message: MESSAGES.securityUpdated, result: { requireSecondFactor } };
    },
  );
};
export default securityRoutes;
