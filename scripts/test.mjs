// `npm test`: the one test command. Runs every suite in order, streaming each one's own output,
// then prints a summary table and, as the very last line, `N passed, N failed`.
//
//   npm test                          everything
//   npm test -- --only server,lint    a subset (see --list for the names)
//
// Environment:
//   REQUIRE_POSTGRES=1   an unreachable PostgreSQL fails the PostgreSQL suites instead of skipping
//   REQUIRE_CHROMIUM=1   a missing /usr/bin/chromium fails the end-to-end suites instead of skipping
//   REQUIRE_NGINX=1      a missing nginx fails the scale-out suite instead of skipping
//   TEST_DATABASE_URL    the PostgreSQL server the tests create their databases on
//                        (default postgres://postgres@127.0.0.1:5432/postgres)
//
// Plain Node.js, no dependencies.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { repo, run } from './lib/run.mjs';

const CHROMIUM = '/usr/bin/chromium';
const PG_URL = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const requirePostgres = process.env.REQUIRE_POSTGRES === '1';
const requireChromium = process.env.REQUIRE_CHROMIUM === '1';
const requireNginx = process.env.REQUIRE_NGINX === '1';

// ---------------------------------------------------------------------------------------------
// Suites

/**
 * Each suite resolves with { passed, failed, skipped, note }. A suite that cannot run returns
 * { skip: 'reason' } (not counted) or, when it must run, a failure with the reason as its note.
 */
const suites = [
  {
    name: 'typecheck',
    title: 'typecheck: tsc -b',
    run: async () => check(await run('tsc', ['-b'], { env: childEnv() })),
  },
  {
    name: 'lint',
    title: 'lint: eslint --max-warnings 0 . && prettier --check .',
    run: async () => {
      const eslint = await run('eslint', ['--max-warnings', '0', '.'], { env: childEnv() });
      console.log(eslint === 0 ? 'eslint: no problems' : `eslint: exit code ${eslint}`);
      if (interrupted) return check(eslint);
      const prettier = await run('prettier', ['--check', '.'], { env: childEnv() });
      const failed = [eslint && 'eslint', prettier && 'prettier'].filter(Boolean);
      return failed.length === 0 ? check(0) : { ...check(1), note: `${failed.join(', ')} failed` };
    },
  },
  {
    name: 'server:sqlite',
    title: 'server tests on SQLite: vitest run (apps/server, TEST_DB=sqlite)',
    run: () => vitest('server-sqlite', 'apps/server', { TEST_DB: 'sqlite' }),
  },
  {
    name: 'server:postgres',
    title: 'server tests on PostgreSQL: vitest run (apps/server, TEST_DB=postgres)',
    run: async () =>
      (await postgresProblem()) ?? vitest('server-pg', 'apps/server', { TEST_DB: 'postgres' }),
  },
  {
    name: 'scale-out',
    title:
      'two server processes behind nginx on PostgreSQL, Redis and S3: vitest run -c vitest.scale-out.config.ts (apps/server)',
    run: async () =>
      (await postgresProblem()) ??
      nginxProblem() ??
      vitest('scale-out', 'apps/server', { TEST_DB: 'postgres' }, [
        '--config',
        'vitest.scale-out.config.ts',
      ]),
  },
  {
    name: 'faults',
    title:
      'two server processes behind nginx while PostgreSQL, Redis and S3 stop and start: vitest run -c vitest.faults.config.ts (apps/server)',
    run: async () =>
      (await postgresProblem()) ??
      nginxProblem() ??
      vitest('faults', 'apps/server', { TEST_DB: 'postgres' }, [
        '--config',
        'vitest.faults.config.ts',
      ]),
  },
  {
    name: 'web',
    title: 'web tests: vitest run (apps/web)',
    run: async () => {
      const web = path.join(repo, 'apps', 'web');
      const hasConfig = fs.readdirSync(web).some((f) => /^vitest\.config\.[cm]?[jt]s$/.test(f));
      if (!hasConfig) return { skip: 'apps/web has no vitest config yet' };
      const tests = ['src', 'test'].flatMap((d) =>
        findFiles(path.join(web, d), /\.(test|spec)\.[cm]?[jt]sx?$/),
      );
      if (tests.length === 0) return { skip: 'apps/web has no test files yet' };
      return vitest('web', 'apps/web', {});
    },
  },
  {
    name: 'build',
    title: 'build the web app: npm run build --workspace apps/web',
    run: async () =>
      check(await run('npm', ['run', 'build', '--workspace', 'apps/web'], { env: childEnv() })),
  },
  {
    name: 'e2e:sqlite',
    title: 'end-to-end on SQLite: playwright test -c e2e/playwright.config.ts (E2E_DB=sqlite)',
    run: async () => (await e2eProblem()) ?? playwright('sqlite'),
  },
  {
    name: 'e2e:postgres',
    title:
      'end-to-end on PostgreSQL: playwright test -c e2e/playwright.config.ts (E2E_DB=postgres)',
    run: async () => (await e2eProblem()) ?? (await postgresProblem()) ?? playwright('postgres'),
  },
];

// ---------------------------------------------------------------------------------------------
// Helpers

let reportDir;
let interrupted = false;

/** The children's environment: this node and the workspace's tools first on PATH. */
function childEnv(extra = {}) {
  const env = { ...process.env, ...extra };
  const key = Object.keys(env).find((k) => k.toUpperCase() === 'PATH') ?? 'PATH';
  env[key] = [path.dirname(process.execPath), path.join(repo, 'node_modules', '.bin'), env[key]]
    .filter(Boolean)
    .join(path.delimiter);
  return env;
}

/** A single check (typecheck, lint, build) counts as one passed or one failed. */
function check(code) {
  return code === 0
    ? { passed: 1, failed: 0, skipped: 0 }
    : { passed: 0, failed: 1, skipped: 0, note: `exit code ${code}` };
}

/** Exit code and counted failures agree: a non-zero exit always counts as at least one failure. */
function settle(counts, code, missingReport) {
  if (code !== 0 && counts.failed === 0) {
    return {
      ...counts,
      failed: 1,
      note: missingReport ? `crashed (exit code ${code}, no report)` : `exit code ${code}`,
    };
  }
  if (code === 0 && missingReport) return { ...counts, failed: 1, note: 'no report written' };
  return counts;
}

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

function findFiles(dir, pattern) {
  let entries;
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((e) => {
    if (e.name === 'node_modules' || e.name === 'dist') return [];
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return findFiles(full, pattern);
    return pattern.test(e.name) ? [full] : [];
  });
}

async function vitest(id, cwd, env, args = []) {
  const report = path.join(reportDir, `${id}.json`);
  const code = await run(
    'vitest',
    ['run', ...args, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`],
    { cwd: path.join(repo, cwd), env: childEnv(env) },
  );
  const r = readJson(report);
  const counts = r
    ? {
        passed: r.numPassedTests ?? 0,
        failed: r.numFailedTests ?? 0,
        skipped: (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0),
      }
    : { passed: 0, failed: 0, skipped: 0 };
  if (r && code !== 0 && counts.failed === 0 && r.numFailedTestSuites > 0) {
    return {
      ...counts,
      failed: r.numFailedTestSuites,
      note: `${r.numFailedTestSuites} test file(s) failed to run`,
    };
  }
  return settle(counts, code, !r);
}

async function playwright(db) {
  const report = path.join(reportDir, `e2e-${db}.json`);
  const code = await run(
    'playwright',
    ['test', '-c', 'e2e/playwright.config.ts', '--reporter=list,json'],
    { env: childEnv({ E2E_DB: db, PLAYWRIGHT_JSON_OUTPUT_NAME: report }) },
  );
  const s = readJson(report)?.stats;
  const counts = s
    ? {
        passed: (s.expected ?? 0) + (s.flaky ?? 0),
        failed: s.unexpected ?? 0,
        skipped: s.skipped ?? 0,
      }
    : { passed: 0, failed: 0, skipped: 0 };
  const flaky = s?.flaky ? { note: `${s.flaky} flaky` } : {};
  return settle({ ...counts, ...flaky }, code, !s);
}

let postgresChecked;
/** Undefined when PostgreSQL accepts connections; else a skip, or a failure under REQUIRE_POSTGRES=1. */
function postgresProblem() {
  postgresChecked ??= (async () => {
    let host = '127.0.0.1';
    let port = 5432;
    try {
      const url = new URL(PG_URL);
      host = url.hostname.replace(/^\[|\]$/g, '') || host;
      port = Number(url.port) || port;
    } catch {
      // keep the defaults
    }
    const where = `${host}:${port}`;
    const ok = await new Promise((resolve) => {
      const socket = net.connect({ host, port });
      const done = (result) => {
        socket.destroy();
        resolve(result);
      };
      socket.setTimeout(3000, () => done(false));
      socket.once('connect', () => done(true));
      socket.once('error', () => done(false));
    });
    if (ok) return undefined;
    return requirePostgres
      ? {
          passed: 0,
          failed: 1,
          skipped: 0,
          note: `PostgreSQL not reachable at ${where} (REQUIRE_POSTGRES=1)`,
        }
      : { skip: `PostgreSQL not reachable at ${where}: skipped` };
  })();
  return postgresChecked;
}

/** Undefined when nginx is installed; else a skip, or a failure under REQUIRE_NGINX=1. */
function nginxProblem() {
  const found = ['/usr/sbin/nginx', '/usr/bin/nginx', '/usr/local/sbin/nginx'].some((f) =>
    fs.existsSync(f),
  );
  if (found) return undefined;
  return requireNginx
    ? { passed: 0, failed: 1, skipped: 0, note: 'nginx is missing (REQUIRE_NGINX=1)' }
    : { skip: 'nginx is missing (apt-get install nginx): skipped' };
}

/** Undefined when the end-to-end suite can run; else why not. */
async function e2eProblem() {
  if (!fs.existsSync(path.join(repo, 'e2e', 'playwright.config.ts'))) {
    return { skip: 'e2e/playwright.config.ts does not exist yet: skipped' };
  }
  if (!fs.existsSync(CHROMIUM)) {
    return requireChromium
      ? { passed: 0, failed: 1, skipped: 0, note: `${CHROMIUM} is missing (REQUIRE_CHROMIUM=1)` }
      : { skip: `${CHROMIUM} is missing (apt-get install chromium): skipped` };
  }
  const build = results.find((r) => r.suite.name === 'build');
  if (build && build.failed > 0) {
    return { passed: 0, failed: 1, skipped: 0, note: 'not run: the web build failed' };
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Command line

function usage() {
  return [
    'usage: npm test [-- --only <names>]',
    '',
    'Suites, in the order they run:',
    ...suites.map((s) => `  ${s.name.padEnd(16)} ${s.title}`),
    '',
    '--only takes a comma-separated list of suite names; "server" and "e2e" select both databases,',
    '"sqlite" or "postgres" select every suite on that database.',
  ].join('\n');
}

function select(argv) {
  let only;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    if (arg === '--help' || arg === '-h' || arg === '--list') {
      console.log(usage());
      process.exit(0);
    } else if (arg === '--only') {
      only = argv[++i];
      if (!only) {
        console.error('--only needs a comma-separated list of suite names\n\n' + usage());
        process.exit(2);
      }
    } else if (arg.startsWith('--only=')) {
      only = arg.slice('--only='.length);
    } else {
      console.error(`unknown argument: ${arg}\n\n${usage()}`);
      process.exit(2);
    }
  }
  if (only === undefined) return suites;
  const wanted = only
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const chosen = new Set();
  for (const want of wanted) {
    const matches = suites.filter(
      (s) => s.name === want || s.name.split(':')[0] === want || s.name.split(':')[1] === want,
    );
    if (matches.length === 0) {
      console.error(`unknown suite: ${want}\n\n${usage()}`);
      process.exit(2);
    }
    matches.forEach((m) => chosen.add(m));
  }
  return suites.filter((s) => chosen.has(s));
}

// ---------------------------------------------------------------------------------------------
// Main

const chosen = select(process.argv.slice(2));
const results = [];
reportDir = fs.mkdtempSync(path.join(os.tmpdir(), 'master-admin-test-'));

// Ctrl-C: the running child gets the signal (run() forwards it); no further suite starts.
const onSignal = () => {
  interrupted = true;
};
process.on('SIGINT', onSignal);
process.on('SIGTERM', onSignal);

const rule = '─'.repeat(100);
for (const [index, suite] of chosen.entries()) {
  if (interrupted) break;
  console.log(`\n${rule}\n▶ [${index + 1}/${chosen.length}] ${suite.title}\n${rule}`);
  const started = process.hrtime.bigint();
  let outcome;
  try {
    outcome = await suite.run();
  } catch (err) {
    outcome = {
      passed: 0,
      failed: 1,
      skipped: 0,
      note: `error: ${err instanceof Error ? err.message : err}`,
    };
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (interrupted && outcome.failed === 0 && !outcome.skip)
    outcome = { ...outcome, failed: 1, note: 'interrupted' };
  if (outcome.skip) console.log(`\n${suite.name}: ${outcome.skip}`);
  results.push({ suite, seconds, ...outcome });
}
fs.rmSync(reportDir, { recursive: true, force: true });

// Summary
const header = ['suite', 'passed', 'failed', 'skipped', 'seconds', 'result'];
const rows = results.map((r) => [
  r.suite.name,
  r.skip ? '-' : String(r.passed),
  r.skip ? '-' : String(r.failed),
  r.skip ? '-' : String(r.skipped),
  r.seconds.toFixed(1),
  r.skip
    ? `skipped: ${r.skip.replace(/: skipped$/, '')}`
    : r.failed > 0
      ? `FAILED${r.note ? ` (${r.note})` : ''}`
      : `ok${r.note ? ` (${r.note})` : ''}`,
]);
for (const s of chosen.slice(results.length))
  rows.push([s.name, '-', '-', '-', '-', 'not run (interrupted)']);
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
const numeric = new Set([1, 2, 3, 4]);
const line = (cells) =>
  cells
    .map((c, i) =>
      i === cells.length - 1 ? c : numeric.has(i) ? c.padStart(widths[i]) : c.padEnd(widths[i]),
    )
    .join('  ');
const passed = results.reduce((n, r) => n + (r.skip ? 0 : r.passed), 0);
const failed = results.reduce((n, r) => n + (r.skip ? 0 : r.failed), 0);
const total = results.reduce((n, r) => n + r.seconds, 0);

console.log(`\n${rule}\nSummary\n${rule}`);
console.log(line(header));
for (const row of rows) console.log(line(row));
console.log(`total time ${total.toFixed(1)} s`);
console.log(`${passed} passed, ${failed} failed`);
process.exitCode = failed > 0 || interrupted ? 1 : 0;
