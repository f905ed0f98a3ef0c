// `npm run lighthouse`: Lighthouse (performance and accessibility, mobile and desktop presets) on
// the screens a person opens most (sign-in, dashboard, posters, videos, users, a user's page,
// blogs; and the account screen, the lightest signed-in one: the floor under the others), against
// the real built server on a fresh data folder filled with the demo data (as
// `npm run admin -- demo` makes it), in Debian's Chromium. Prints a Markdown table of the median
// of the runs per screen and preset (docs/web-speed.md holds the latest), the JavaScript each
// screen loads (gzipped, as the build wrote it) and the largest chunks; exits 1 when a chunk
// breaks its budget (100 KB gzipped; only the rich-text editor, loaded when an editor opens, and
// the password rule's dictionaries, loaded when a new password is typed, may be larger) or a
// screen loads either. Not part of `npm test`.
//
//   npm run build && npm run lighthouse
//   npm run lighthouse -- --runs 5                     (audits per screen and preset; default 3)
//   npm run lighthouse -- --only dashboard:mobile      (one screen, or screen:preset; repeatable)
//   LIGHTHOUSE_REPORTS=/tmp/lh npm run lighthouse     (also writes each full report there)
//
// Scores on a small shared machine move by several points from run to run, so each screen and
// preset is audited several times: the table shows each figure's median over the runs, and the
// range of the performance score.
//
// Plain Node.js (run under Node >= 22 by scripts/node24.mjs).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import lighthouse from 'lighthouse';
import puppeteer from 'puppeteer-core';
import { repo, run } from './lib/run.mjs';

const CHROMIUM = process.env.CHROME_PATH || '/usr/bin/chromium';
const runsArg = process.argv.indexOf('--runs');
const RUNS = runsArg === -1 ? 3 : Number(process.argv[runsArg + 1]);
if (!Number.isInteger(RUNS) || RUNS < 1 || RUNS > 20) {
  console.error('--runs takes a whole number from 1 to 20.');
  process.exit(1);
}
// --only sign-in, --only dashboard:mobile …: audit just those (quicker while working on one).
const only = process.argv.flatMap((a, i) => (process.argv[i - 1] === '--only' ? [a] : []));
const wanted = (screen, preset) =>
  only.length === 0 || only.some((o) => o === screen || o === `${screen}:${preset}`);
const DIST = process.env.WEB_DIST || path.join(repo, 'apps', 'web', 'dist');
const ADMIN = { email: 'lighthouse@example.com', password: 'lighthouse-password-1' };
/**
 * Gzipped size a JavaScript chunk may have; only the rich-text editor's and the password rule's
 * dictionaries (vite.config.ts) may be larger: each loads on a person's action, never with a screen.
 */
const CHUNK_BUDGET_KB = 100;
const ON_DEMAND_CHUNK = /^(RichTextField|password-dictionaries)-/;

if (!fs.existsSync(path.join(DIST, 'index.html'))) {
  console.error('The web app is not built: run npm run build first.');
  process.exit(1);
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ma-lighthouse-'));
const env = {
  ...process.env,
  DATA_DIR: dataDir,
  PORT: '0',
  HOST: '127.0.0.1',
  LOG_LEVEL: 'warn',
  DRAIN_SECONDS: '0',
  ADMIN_EMAIL: ADMIN.email,
  ADMIN_PASSWORD: ADMIN.password,
  WEB_DIST: DIST,
};
const server = spawn(process.execPath, ['apps/server/src/main.ts'], {
  cwd: repo,
  env,
  stdio: ['ignore', 'pipe', 'inherit'],
});
// Whatever ends this script ends the server too.
process.on('exit', () => {
  server.kill('SIGTERM');
  fs.rmSync(dataDir, { recursive: true, force: true });
});
const port = await new Promise((resolve, reject) => {
  let out = '';
  server.stdout.on('data', (d) => {
    out += d;
    const m = /running at http:\/\/localhost:(\d+)/.exec(out);
    if (m) resolve(Number(m[1]));
  });
  server.on('exit', (code) => reject(new Error(`the server exited (${code})`)));
});
const base = `http://127.0.0.1:${port}`;
// The demo data, loaded the way `npm run admin -- demo` loads it (the server made the database
// and the first admin when it started).
console.log('Loading the demo data…');
const demo = await run(process.execPath, ['apps/server/src/cli.ts', 'demo'], {
  env,
  stdio: ['ignore', 'ignore', 'inherit'],
});
if (demo !== 0) throw new Error(`npm run admin -- demo failed (${demo})`);
const login = await (
  await fetch(`${base}/api/v1/auth/admin/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ADMIN),
  })
).json();
const users = await (
  await fetch(`${base}/api/v1/account/user/list?limit=1`, {
    headers: { authorization: `Bearer ${login.token}` },
  })
).json();
const userId = users.result?.[0]?.id;
if (userId === undefined) throw new Error(`no user in the demo data: ${JSON.stringify(users)}`);

const browser = await puppeteer.launch({
  executablePath: CHROMIUM,
  headless: true,
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
});

/** Gzipped size of a built file, as the server sends it to a gzip-only browser. */
function gzipped(url) {
  const file = path.join(DIST, new URL(url).pathname);
  return fs.existsSync(`${file}.gz`)
    ? fs.statSync(`${file}.gz`).size
    : fs.existsSync(file)
      ? fs.statSync(file).size
      : 0;
}

const screens = [
  { name: 'sign-in', url: `${base}/auth/sign-in`, signedIn: false },
  { name: 'dashboard', url: `${base}/`, signedIn: true },
  { name: 'posters', url: `${base}/poster`, signedIn: true },
  { name: 'videos', url: `${base}/video`, signedIn: true },
  { name: 'users', url: `${base}/users`, signedIn: true },
  { name: 'user', url: `${base}/users/${userId}`, signedIn: true },
  { name: 'blogs', url: `${base}/blogs`, signedIn: true },
  // The lightest signed-in screen: what the shell alone costs, the floor under every other.
  { name: 'account', url: `${base}/profile`, signedIn: true },
];
/** On-demand chunks (the editor, the password dictionaries) some screen loaded with it. */
const onDemandLoads = new Set();
const rows = [];
try {
  for (const screen of screens) {
    for (const preset of ['mobile', 'desktop']) {
      if (!wanted(screen.name, preset)) continue;
      const runs = [];
      for (let run = 1; run <= RUNS; run++) {
        const page = await browser.newPage();
        if (screen.signedIn) {
          await page.evaluateOnNewDocument(
            (token, loginId) => {
              localStorage.setItem('ACCESS_TOKEN', token);
              localStorage.setItem('loginId', loginId);
            },
            login.token,
            login.loginId,
          );
        }
        const config = {
          extends: 'lighthouse:default',
          settings: {
            onlyCategories: ['performance', 'accessibility'],
            ...(preset === 'desktop'
              ? {
                  formFactor: 'desktop',
                  screenEmulation: {
                    mobile: false,
                    width: 1350,
                    height: 940,
                    deviceScaleFactor: 1,
                    disabled: false,
                  },
                  throttling: {
                    rttMs: 40,
                    throughputKbps: 10240,
                    cpuSlowdownMultiplier: 1,
                    requestLatencyMs: 0,
                    downloadThroughputKbps: 0,
                    uploadThroughputKbps: 0,
                  },
                }
              : {}),
          },
        };
        const result = await lighthouse(screen.url, { logLevel: 'error' }, config, page);
        const lhr = result.lhr;
        if (lhr.runtimeError) {
          // A run Lighthouse could not finish (e.g. no paint in time on a busy machine) is left out.
          console.error(`${screen.name} ${preset} run ${run}: ${lhr.runtimeError.message}`);
          await page.close();
          continue;
        }
        if (process.env.LIGHTHOUSE_REPORTS) {
          fs.mkdirSync(process.env.LIGHTHOUSE_REPORTS, { recursive: true });
          fs.writeFileSync(
            path.join(process.env.LIGHTHOUSE_REPORTS, `${screen.name}-${preset}-${run}.json`),
            JSON.stringify(lhr),
          );
        }
        const scripts = lhr.audits['network-requests'].details.items.filter(
          (i) => i.resourceType === 'Script',
        );
        const failed = lhr.categories.accessibility.auditRefs
          .filter(
            (r) => r.weight > 0 && lhr.audits[r.id].score !== null && lhr.audits[r.id].score < 1,
          )
          .map((r) => r.id);
        for (const s of scripts) {
          const file = path.basename(new URL(s.url).pathname);
          if (ON_DEMAND_CHUNK.test(file)) onDemandLoads.add(`${screen.name}: ${file}`);
        }
        runs.push({
          performance: Math.round(lhr.categories.performance.score * 100),
          accessibility: Math.round(lhr.categories.accessibility.score * 100),
          cls: lhr.audits['cumulative-layout-shift'].numericValue,
          tbt: lhr.audits['total-blocking-time'].numericValue,
          lcp: lhr.audits['largest-contentful-paint'].numericValue,
          fcp: lhr.audits['first-contentful-paint'].numericValue,
          js: scripts.reduce((sum, s) => sum + gzipped(s.url), 0) / 1024,
          failed,
        });
        await page.close();
      }
      if (runs.length === 0) continue;
      const median = (key) => {
        const values = runs.map((r) => r[key] ?? NaN).sort((a, b) => a - b);
        return values[Math.floor((values.length - 1) / 2)];
      };
      const perf = runs.map((r) => r.performance).sort((a, b) => a - b);
      rows.push({
        screen: screen.name,
        preset,
        performance: median('performance'),
        range: `${perf[0]}-${perf.at(-1)}`,
        accessibility: median('accessibility'),
        CLS: median('cls').toFixed(3),
        TBT: `${Math.round(median('tbt'))} ms`,
        LCP: `${(median('lcp') / 1000).toFixed(1)} s`,
        FCP: `${(median('fcp') / 1000).toFixed(1)} s`,
        'JS gz': `${median('js').toFixed(0)} KB`,
        'a11y misses': [...new Set(runs.flatMap((r) => r.failed))].join(' ') || '-',
      });
    }
  }
} finally {
  await browser.close();
  server.kill('SIGTERM');
  fs.rmSync(dataDir, { recursive: true, force: true });
}

const chunks = fs
  .readdirSync(path.join(DIST, 'assets'))
  .filter((f) => f.endsWith('.js.gz'))
  .map((f) => ({
    file: f.replace(/\.gz$/, ''),
    kb: fs.statSync(path.join(DIST, 'assets', f)).size / 1024,
  }))
  .sort((a, b) => b.kb - a.kb);

if (rows.length > 0) {
  const header = Object.keys(rows[0]);
  const widths = header.map((h) => Math.max(h.length, ...rows.map((r) => String(r[h]).length)));
  const line = (cells) => `| ${cells.map((c, i) => String(c).padEnd(widths[i])).join(' | ')} |`;
  console.log(
    `\nMedian of ${RUNS} run(s) per screen and preset; load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} on ${os.availableParallelism()} cores at the end.\n`,
  );
  console.log(line(header));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const r of rows) console.log(line(header.map((h) => r[h])));
}
console.log('\nLargest chunks (gzipped):');
for (const c of chunks.slice(0, 6)) console.log(`  ${c.kb.toFixed(1)} KB  ${c.file}`);

const problems = [
  ...chunks
    .filter((c) => c.kb > CHUNK_BUDGET_KB && !ON_DEMAND_CHUNK.test(c.file))
    .map((c) => `${c.file} is ${c.kb.toFixed(1)} KB gzipped (budget ${CHUNK_BUDGET_KB} KB)`),
  ...[...onDemandLoads].map((e) => `an on-demand chunk loaded with the screen (${e})`),
];
if (problems.length > 0) {
  console.error(`\nOver budget:\n${problems.map((p) => `  ${p}`).join('\n')}`);
  process.exit(1);
}
