/**
 * When each session was last seen (sessions.last_seen_at, shown in the sessions list), written at
 * most once a minute per session and never on a call's way in: the access check reads and writes
 * nothing more (its cost is measured), and the write goes out after the answer, without waiting.
 * Each instance remembers when it last wrote a session's time; the statement itself also skips a
 * session another instance wrote within the minute.
 */
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/connect.ts';
import type { SignedIn } from './sessions.ts';

export const LAST_SEEN_EVERY_MS = 60_000;
/** Sessions remembered per instance; past it the longest-unwritten is forgotten first. */
const REMEMBERED = 10_000;

export function registerLastSeen(app: FastifyInstance, db: Db) {
  const writtenAt = new Map<string, number>();
  const pending = new Set<Promise<unknown>>();
  let closing = false;
  // The database closes after this: writes under way finish first, and no more start.
  app.addHook('preClose', async () => {
    closing = true;
    await Promise.all(pending);
  });
  app.addHook('onResponse', async (request) => {
    // Set by the access check once it found a live session (null on public calls).
    const account = request.account as SignedIn | null;
    if (!account || closing) return;
    const at = Date.now();
    const last = writtenAt.get(account.sessionId);
    if (last !== undefined && at - last < LAST_SEEN_EVERY_MS) return;
    writtenAt.delete(account.sessionId);
    if (writtenAt.size >= REMEMBERED) writtenAt.delete(writtenAt.keys().next().value!);
    writtenAt.set(account.sessionId, at);
    const write = db
      .updateTable('sessions')
      .set({ lastSeenAt: new Date(at).toISOString() })
      .where('id', '=', account.sessionId)
      .where('revokedAt', 'is', null)
      .where((eb) =>
        eb.or([
          eb('lastSeenAt', 'is', null),
          eb('lastSeenAt', '<=', new Date(at - LAST_SEEN_EVERY_MS).toISOString()),
        ]),
      )
      .execute()
      .catch((err: unknown) =>
        request.log.warn({ err }, 'could not note when the session was last seen'),
      )
      .finally(() => pending.delete(write));
    pending.add(write);
  });
}
