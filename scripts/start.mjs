// `npm start`: builds the web app if its build is missing or older than its sources, then starts
// the server, which migrates the database, creates the first admin and serves the app and the API.
import fs from 'node:fs';
import path from 'node:path';
import { repo, run } from './lib/run.mjs';

const webDir = path.join(repo, 'apps', 'web');
const builtIndex = path.join(webDir, 'dist', 'index.html');

/** The newest modification time of a file or of any file below a folder (0 when absent). */
function newest(target) {
  let stat;
  try {
    stat = fs.statSync(target);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let max = 0;
  for (const entry of fs.readdirSync(target)) {
    if (entry === 'node_modules') continue;
    max = Math.max(max, newest(path.join(target, entry)));
  }
  return max;
}

/** Why the web app needs a build, or undefined when its build is up to date. */
function webBuildReason() {
  if (!fs.existsSync(builtIndex)) return 'apps/web/dist/index.html is missing';
  const built = fs.statSync(builtIndex).mtimeMs;
  const sources = [
    'apps/web/src',
    'apps/web/index.html',
    'apps/web/public',
    'apps/web/package.json',
    ...fs
      .readdirSync(webDir)
      .filter((f) => /^vite\.config\.|^postcss\.config\./.test(f))
      .map((f) => `apps/web/${f}`),
    'packages/contract/src',
  ];
  const changed = sources.find((s) => newest(path.join(repo, s)) > built);
  return changed ? `${changed} changed since the last build` : undefined;
}

const serveWeb = !['false', '0'].includes(process.env.SERVE_WEB ?? '');
if (serveWeb && !process.env.WEB_DIST) {
  const reason = webBuildReason();
  if (reason) {
    console.log(`Building the web app (${reason})…`);
    const started = Date.now();
    // Quietly: only warnings and errors, so the sign-in details printed at start stay in view.
    const code = await run('npm', [
      'run',
      'build',
      '--silent',
      '--workspace',
      'apps/web',
      '--',
      '--logLevel',
      'warn',
    ]);
    if (code !== 0) {
      console.error(
        `\nThe web app build failed (exit code ${code}); not starting.\n` +
          'Fix the build, or set SERVE_WEB=false to serve only the API.',
      );
      process.exit(code);
    }
    console.log(`Built the web app in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
  }
}

process.exit(await run(process.execPath, [path.join(repo, 'apps', 'server', 'src', 'main.ts')]));
