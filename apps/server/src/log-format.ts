/**
 * How log lines look: readable in a terminal, JSON (one object a line) for a log collector or a
 * pipe. LOG_FORMAT=json|pretty decides instead.
 */
import pretty from 'pino-pretty';
import type { Config } from './config.ts';

/** A stream writing readable lines, or undefined for pino's own JSON on stdout. */
export function logStreamFor(
  format: Config['logFormat'],
  tty = process.stdout.isTTY === true,
): { write(line: string): void } | undefined {
  if (format === 'json' || (format === undefined && !tty)) return undefined;
  return pretty({
    // Synchronous, so a line logged before the start banner is printed before it.
    sync: true,
    colorize: tty,
    singleLine: true,
    translateTime: 'SYS:HH:MM:ss',
    ignore: 'pid,hostname',
  });
}
