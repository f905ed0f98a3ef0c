// Small process helpers shared by the scripts in this folder. Plain Node.js, no dependencies.
import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const isWindows = process.platform === 'win32';

/**
 * Runs a command with inherited stdio (unless `options.stdio` says otherwise) and resolves with its
 * exit code; a child killed by a signal resolves 128 + the signal's number. SIGINT and SIGTERM
 * received by this process are passed on to the child while it runs.
 */
export function run(command, args = [], options = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: repo,
      stdio: 'inherit',
      shell: isWindows,
      ...options,
    });
    const forward = (signal) => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    };
    const onInt = () => forward('SIGINT');
    const onTerm = () => forward('SIGTERM');
    process.on('SIGINT', onInt);
    process.on('SIGTERM', onTerm);
    const done = (code) => {
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
      resolve(code);
    };
    child.on('error', (err) => {
      console.error(`Could not run ${command}: ${err.message}`);
      done(127);
    });
    child.on('exit', (code, signal) => done(code ?? 128 + (constants.signals[signal] ?? 1)));
  });
}
