/**
 * The parts a request may need that can stop answering (API.md, Operations): the database,
 * Redis, the media bucket, the disk. A call that needs a part that does not answer is never a
 * 500: the error handler answers 503 with `Retry-After`, naming the part. Errors from Redis and
 * the media store are named where they are called (they share error codes with the database's:
 * a refused connection is ECONNREFUSED for all three); the database's are recognised here.
 */
export type Part = 'database' | 'redis' | 'bucket' | 'disk' | 'sms';

const MESSAGES: Record<Part, string> = {
  database: 'The database is not answering; try again shortly',
  redis: 'Redis (sign-in counts) is not answering; try again shortly',
  bucket: 'The media store is not answering; try again shortly',
  disk: 'The server’s disk is full; try again shortly',
  sms: 'The SMS gateway is not answering; try again shortly',
};

/** A request past its deadline, or a statement the database cancelled for it (http/deadline.ts). */
export const DEADLINE_MESSAGE =
  'The request took longer than the server allows; nothing was changed; try again shortly';
/** A COMMIT sent and its answer lost, the database not answering long enough to tell. */
export const COMMIT_UNCONFIRMED_MESSAGE =
  'The database stopped answering as the change was saved, and could not be asked whether it ' +
  'was; send it again with the same Idempotency-Key to learn which';
/** A row or table another transaction holds longer than a lock may be waited for. */
const LOCKED_MESSAGE = 'The database is busy with these rows; try again shortly';

/** How long a client should wait before trying again, by part (seconds). */
const RETRY_AFTER: Record<Part, number> = { database: 5, redis: 5, bucket: 5, disk: 30, sms: 30 };

export class PartUnavailable extends Error {
  readonly part: Part;
  readonly retryAfterSeconds: number;
  constructor(part: Part, cause?: unknown, message = MESSAGES[part]) {
    super(message, { cause });
    this.name = 'PartUnavailable';
    this.part = part;
    this.retryAfterSeconds = RETRY_AFTER[part];
  }
}

const codeOf = (err: unknown): string | undefined => {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
};

/** A network failure between this process and a server (any of them). */
const NETWORK = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'ENOTFOUND',
]);

/** A full disk (or quota), wherever it was written to. */
export const diskFull = (err: unknown) => ['ENOSPC', 'EDQUOT'].includes(codeOf(err) ?? '');

/**
 * The database part of an error, when it says the database does not answer or cannot take the
 * work now: a connection refused, dropped or timed out, the server shutting down or starting
 * (57P0x), out of connections (53300), a pooled connection not free in time, a lock or
 * statement waited past its bound (55P03, 57014); SQLite busy past its time-out, its disk full
 * or failing. Undefined for anything else (a constraint, a bug: those stay what they are).
 */
export function databaseUnavailable(err: unknown): PartUnavailable | undefined {
  if (err instanceof PartUnavailable) return err;
  const code = codeOf(err);
  const message = err instanceof Error ? err.message : '';
  if (code === 'SQLITE_FULL' || diskFull(err)) return new PartUnavailable('disk', err);
  if (code === '57014') return new PartUnavailable('database', err, DEADLINE_MESSAGE);
  if (code === '55P03' || code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') {
    return new PartUnavailable('database', err, LOCKED_MESSAGE);
  }
  // A FATAL error ends the connection (or refuses it: the database shutting down, not taking
  // connections, out of them): the database does not answer this call.
  const severity = (err as { severity?: unknown } | null)?.severity;
  if (
    severity === 'FATAL' ||
    severity === 'PANIC' ||
    (code !== undefined && NETWORK.has(code)) ||
    code === '53300' ||
    (code !== undefined && /^(57P0[1-4]|08\d\d\d)$/.test(code)) ||
    code === 'SQLITE_IOERR' ||
    code === 'SQLITE_CANTOPEN' ||
    /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error)/.test(
      message,
    )
  ) {
    return new PartUnavailable('database', err);
  }
  return undefined;
}

/**
 * Whether an error of a network service (Redis, the bucket) means it does not answer: a network
 * failure, a time-out, a server error (5xx) or a closed connection, as opposed to a refusal of
 * this request (a missing object, a bad argument).
 */
export function serviceDown(err: unknown): boolean {
  const code = codeOf(err);
  if (code !== undefined && NETWORK.has(code)) return true;
  const e = err as {
    name?: unknown;
    message?: unknown;
    $metadata?: { httpStatusCode?: number };
  } | null;
  const name = typeof e?.name === 'string' ? e.name : '';
  const message = typeof e?.message === 'string' ? e.message : '';
  const status = e?.$metadata?.httpStatusCode;
  return (
    (typeof status === 'number' && status >= 500) ||
    /Timeout|TimeoutError|MaxRetriesPerRequest|ServiceUnavailable|SlowDown|InternalError/.test(
      name,
    ) ||
    /Connection is closed|Stream isn't writeable|enableOfflineQueue|socket hang up|timed out|timeout/i.test(
      message,
    )
  );
}

/** Runs `work`, naming `part` on an error that means it does not answer. */
export async function calling<T>(part: 'redis' | 'bucket', work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof PartUnavailable) throw err;
    if (serviceDown(err)) throw new PartUnavailable(part, err);
    throw err;
  }
}
