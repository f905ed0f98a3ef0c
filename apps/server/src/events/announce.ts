import type { FastifyRequest } from 'fastify';
import type { AuditAction, AuditArea } from '@master-admin/contract';
import type { Db } from '../db/connect.ts';
import { displayName } from './presence.ts';
import { eventAction } from './streams.ts';

/** An audit entry just written, as `record` hands it over. */
export type RecordedEntry = {
  id: number;
  area: AuditArea;
  action: AuditAction;
  rowId: number | null;
  version: number | null;
};

/**
 * Publishes the entries `record` wrote with `trx` (audit/record.ts): heard by every instance's
 * streams once `trx` commits, never if it rolls back. Sign-ins announce nothing; sign-outs and
 * password changes go out too, unseen by clients, so the streams check their sessions at once.
 */
export async function announceChanges(
  trx: Db,
  request: FastifyRequest,
  entries: readonly RecordedEntry[],
): Promise<void> {
  const actor = request.account as FastifyRequest['account'] | null;
  const changes = entries.filter((e) => !(e.area === 'auth' && e.action === 'SIGN_IN'));
  // Only a signed-in call records anything else.
  if (!actor || changes.length === 0) return;
  await request.server.ctx.events.publish(trx, {
    kind: 'changes',
    by: { id: actor.id, name: displayName(actor) },
    changes: changes.map((e) => ({ ...e, action: eventAction(e.action) })),
  });
}
