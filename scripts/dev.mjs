// `npm run dev`: the API server (NODE_ENV=development, port 3000, restarted when its files change)
// and the Vite dev server of the web app (http://localhost:5173, proxying /api and /media to the
// server), side by side. Ctrl-C stops both; when either stops, the other is stopped too.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { repo } from './lib/run.mjs';

const isWindows = process.platform === 'win32';
const children = [];
let stopping = false;
let exitCode = 0;

function start(name, command, args, env) {
  const child = spawn(command, args, {
    cwd: repo,
    // No stdin: a child in its own process group that read the terminal would be stopped (SIGTTIN).
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, ...env },
    shell: isWindows,
    // Its own process group, so that stopping it also stops whatever it started (npm → vite).
    detached: !isWindows,
  });
  child.on('error', (err) => {
    console.error(`[dev] could not start ${name}: ${err.message}`);
    exitCode = 1;
    stop();
  });
  child.on('exit', (code, signal) => {
    child.exited = true;
    if (!stopping) {
      console.error(`[dev] ${name} stopped (${signal ?? `exit code ${code}`}); stopping the rest.`);
      exitCode = code || 1;
      stop();
    }
    if (children.every((c) => c.exited)) process.exit(exitCode);
  });
  children.push(child);
}

function stop(signal = 'SIGTERM') {
  stopping = true;
  for (const child of children) {
    if (child.exited || child.pid === undefined) continue;
    try {
      if (isWindows) child.kill(signal);
      else process.kill(-child.pid, signal);
    } catch {
      // already gone
    }
  }
  if (children.every((c) => c.exited)) process.exit(exitCode);
}

process.on('SIGINT', () => stop('SIGTERM'));
process.on('SIGTERM', () => stop('SIGTERM'));

start('server', process.execPath, ['--watch', path.join('apps', 'server', 'src', 'main.ts')], {
  NODE_ENV: 'development',
  PORT: '3000',
  // The Vite dev server serves the web app; a stale build served on :3000 would only confuse.
  SERVE_WEB: process.env.SERVE_WEB ?? 'false',
  // No load balancer to leave: a restart (--watch) or Ctrl-C stops at once.
  DRAIN_SECONDS: process.env.DRAIN_SECONDS ?? '0',
  // Passkeys: the browser signs for the page's origin, the Vite server's as well as the API's.
  WEBAUTHN_ORIGIN: process.env.WEBAUTHN_ORIGIN ?? 'http://localhost:3000,http://localhost:5173',
});
start('web', 'npm', ['run', 'dev', '--workspace', 'apps/web']);
console.log(
  '[dev] API on http://localhost:3000, web app on http://localhost:5173 (Ctrl-C stops both)',
);
