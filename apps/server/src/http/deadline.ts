/**
 * Every request has a deadline (REQUEST_DEADLINE_MS, API.md Operations), below the proxy's read
 * timeout, so a proxy never gives up on a request that is still running (and sends it again to
 * another instance, where it would run twice). Past it no statement of the request starts, a
 * running one is cancelled by the database (a transaction's `statement_timeout` is what is left
 * of the deadline), and a transaction rolls back rather than commit: the request answers 503,
 * having changed nothing. An upload's deadline starts once its body has arrived (a slow client
 * sending a large file is not the server being slow).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyInstance } from 'fastify';
import { DEADLINE_MESSAGE, PartUnavailable } from './parts.ts';

type Deadline = { until: number; ms: number; graced?: true };

const current = new AsyncLocalStorage<Deadline>();

/** A request past its deadline, or a statement the database cancelled for it: a 503. */
export const deadlinePassed = (cause?: unknown) =>
  new PartUnavailable('database', cause, DEADLINE_MESSAGE);

/** Gives each request its deadline, `ms` from its start. */
export function registerDeadline(app: FastifyInstance, ms: number) {
  app.addHook('onRequest', (_request, _reply, done) => withDeadline(ms, done));
}

/** Runs `work` as a request does: its statements bound by a deadline `ms` from now. */
export function withDeadline<T>(ms: number, work: () => T): T {
  return current.run({ until: Date.now() + ms, ms }, work);
}

/** What is left of the current request's deadline (ms), or undefined outside a request. */
export function remainingMs(): number | undefined {
  const deadline = current.getStore();
  return deadline && deadline.until - Date.now();
}

/** Throws (503) when the current request is past its deadline. */
export function checkDeadline(): void {
  const left = remainingMs();
  if (left !== undefined && left <= 0) throw deadlinePassed();
}

/** The current request's deadline counts from now (its body has just arrived). */
export function restartDeadline(): void {
  const deadline = current.getStore();
  if (deadline) deadline.until = Date.now() + deadline.ms;
}

/**
 * Gives the current request half its deadline again (below the proxy's read timeout, which is
 * above twice the deadline's default), for the rest of the request: once, to learn the outcome of
 * a COMMIT whose answer was lost and then answer it, so a change that was made never answers as
 * failed. Answers when that grace ends; outside a request, `outsideMs` from now.
 */
export function graceDeadline(outsideMs: number): number {
  const deadline = current.getStore();
  if (!deadline) return Date.now() + outsideMs;
  if (!deadline.graced) {
    deadline.until += deadline.ms / 2;
    deadline.graced = true;
  }
  return deadline.until;
}
