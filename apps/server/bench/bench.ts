/**
 * `npm run bench [-- --rows N --seconds S --db sqlite,postgres]`: loads N rows (default 1,000,000)
 * into a fresh SQLite file and a fresh PostgreSQL database with the CLI's bulk loader, starts the
 * real server, and drives each list case (cases.ts) with autocannon at concurrency 50, while a
 * probe times `/health` and sign-in; then drives the floor (floor.ts) the same way. Prints, per
 * database and case, req/s, p50 and p99 of both, their ratio, and whether the targets are met
 * (a list: at least half the floor's req/s and a p99 within twice the floor's, in the same run;
 * health p99 under 50 ms throughout; sign-in's p99 is reported, not a target), and what the access
 * check PostgreSQL runs on every call costs (`reportAccessCheck`).
 * `--areas posters --cases posters` loads and drives one area alone (default: banners, posters, users, audit);
 * `--sqlite-dir DIR` / `--pg-url URL` drive databases an earlier `seed-bench` loaded, keeping them.
 * `--history-rows N` / `--audit-rows N`: the users' login-history rows and the audit entries, when
 * not N (loaded so, or loaded so by the earlier seed-bench).
 * Then, on the first database, it uploads one large video (upload.ts: `--video-mb`, default 500;
 * 0 skips it; `--upload-only` skips the rows and lists). On each database where the posters are
 * loaded it exports the whole posters list as CSV (export.ts; the case `export`: `--cases export`
 * runs it alone).
 * Not part of CI: it takes several minutes and wants the machine to itself.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import pg from 'pg';
import { API_BASE } from '@master-admin/contract';
import { randomSource } from '../src/seed/bench.ts';
import { createPgDatabase } from '../test/harness.ts';
import { CASES, type BenchCase, type BenchContext, type CaseEnv, type Measured } from './cases.ts';
import { APP_CASES, measuredOf, prepareApps } from './app-cases.ts';
import { benchVideoUpload, reportUpload, type UploadResult } from './upload.ts';
import { benchPosterBatch, reportBatch, type BatchResult } from './batch.ts';
import { benchExport, reportExport, type ExportResult } from './export.ts';

const { values: args } = parseArgs({
  options: {
    rows: { type: 'string', default: '1000000' },
    // Users' login-history rows and the audit entries, when not --rows (seed-bench's sizes).
    'history-rows': { type: 'string' },
    'audit-rows': { type: 'string' },
    seconds: { type: 'string', default: '10' },
    db: { type: 'string', default: 'sqlite,postgres' },
    connections: { type: 'string', default: '50' },
    cases: { type: 'string' },
    // The areas whose rows are loaded (a case of an area not loaded finds an empty table).
    areas: { type: 'string', default: 'banners,posters,users,audit' },
    'video-mb': { type: 'string', default: '500' },
    // Image files sent as the posters screen's batch sends them (batch.ts); 0 skips it.
    batch: { type: 'string', default: '200' },
    'upload-only': { type: 'boolean', default: false },
    // Databases already loaded (by an earlier run's seed-bench, same --rows): no loading, kept.
    'sqlite-dir': { type: 'string' },
    'pg-url': { type: 'string' },
  },
});
const ROWS = Number(args.rows);
const HISTORY_ROWS = Number(args['history-rows'] ?? args.rows);
const AUDIT_ROWS = Number(args['audit-rows'] ?? args.rows);
const SECONDS = Number(args.seconds);
const CONNECTIONS = Number(args.connections);
const DATABASES = args.db.split(',') as Array<'sqlite' | 'postgres'>;
const VIDEO_MB = Number(args['video-mb']);
const BATCH_FILES = Number(args.batch);
const UPLOAD_ONLY = args['upload-only'];
const SERVER_DIR = path.resolve(import.meta.dirname, '..');
const ADMIN = { email: 'bench@example.com', password: 'bench-password-1' };
const ALL_CASES = [...CASES, ...APP_CASES];
const selected = args.cases
  ? ALL_CASES.filter((c) => args.cases!.split(',').some((n) => c.name.includes(n)))
  : ALL_CASES;
const EXPORT =
  !UPLOAD_ONLY &&
  args.areas.split(',').includes('posters') &&
  (!args.cases || args.cases.split(',').includes('export'));

type Row = {
  db: string;
  name: string;
  server: Measured;
  /** None for a case that is not a list (cases.ts `floor: false`). */
  floor: Measured | undefined;
  /** The floor running the server's access check too (cases.ts `accessCheckCost`). */
  floorChecked: Measured | undefined;
  healthP99: number;
  signInP99: number;
  target: BenchCase['target'];
  /** A case whose floor this one is also set beside (cases.ts `beside`). */
  beside: string | undefined;
};

const log = (line: string) => process.stderr.write(`${line}\n`);

/** The session id a token carries (its `sid` claim). */
const sessionOf = (token: string): string =>
  (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { sid: string }).sid;

/**
 * Starts `script` and resolves with its port once a line of its output matches `ready`; each
 * later line of its output is given to `onLine` (the server's log: the one-time codes).
 */
function startProcess(
  script: string,
  env: Record<string, string>,
  ready: RegExp,
  onLine?: (line: string) => void,
) {
  const child = spawn(process.execPath, [script], {
    cwd: SERVER_DIR,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise<{ child: ChildProcess; port: number }>((resolve, reject) => {
    let seen = '';
    const onData = (chunk: Buffer) => {
      seen += chunk.toString();
      const match = ready.exec(seen);
      if (match) {
        child.stdout.off('data', onData);
        if (onLine) {
          let rest = '';
          child.stdout.setEncoding('utf8').on('data', (text: string) => {
            const lines = (rest + text).split('\n');
            rest = lines.pop() ?? '';
            for (const line of lines) onLine(line);
          });
        } else child.stdout.resume(); // keep draining its logs
        resolve({ child, port: Number(match[1]) });
      } else if (seen.length > 1_000_000) seen = seen.slice(-10_000);
    };
    child.stdout.on('data', onData);
    child.on('exit', (code) =>
      reject(new Error(`${script} exited with ${code} before it was ready`)),
    );
  });
}

function runCli(args: string[], env: Record<string, string>) {
  return new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, ['src/cli.ts', ...args], {
      cwd: SERVER_DIR,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`cli ${args[0]} exited with ${code}`)),
    );
  });
}

const stop = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });

/** Times requests to `url` from a process of its own, `gapMs` apart, until `until` settles. */
async function probe(url: string, init: RequestInit, gapMs: number, until: Promise<unknown>) {
  const child = spawn(
    process.execPath,
    [path.join(import.meta.dirname, 'probe.ts'), url, String(gapMs), JSON.stringify(init)],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await until.catch(() => undefined);
  child.kill('SIGTERM');
  await exited;
  const result = JSON.parse(out) as { p99: number | null; count: number; failures: number };
  // No timed request in a short run: JSON has no NaN, so it came as null.
  return { ...result, p99: result.p99 ?? Number.NaN };
}

async function drive(
  base: string,
  bench: BenchCase,
  ctx: BenchContext,
  to: 'server' | 'floor',
  headers: Record<string, string> = {},
  seconds = SECONDS,
): Promise<Measured> {
  const rng = randomSource(7);
  const result = await autocannon({
    url: base,
    connections: CONNECTIONS,
    duration: seconds,
    // A slow answer is counted as slow (its latency), not as missing (autocannon's 10 s default).
    timeout: 120,
    headers,
    requests: [
      {
        setupRequest: (req) => {
          if (!bench.request) return { ...req, path: bench.path!(rng, ctx) };
          const r = bench.request(rng, ctx, to);
          return {
            ...req,
            path: r.path,
            method: r.method ?? 'GET',
            headers: { ...headers, ...r.headers },
            ...(r.body === undefined ? {} : { body: r.body }),
          };
        },
      },
    ],
  });
  return measuredOf(result, bench.answers);
}

let uploadResult: UploadResult | undefined;
let batchResult: BatchResult | undefined;
const exportResults: ExportResult[] = [];

/** The server's token secret in the bench (so the floor reads the server's cursors). */
const BENCH_SECRET = 'bench-secret-bench-secret-bench-secret';

/**
 * The cursors of `count` banner pages one after the other from `offset` (limit 1: the positions of
 * consecutive rows): one slow offset read, then cheap cursor reads.
 */
async function cursorsAt(serverUrl: string, token: string, offset: number, count: number) {
  const headers = { authorization: `Bearer ${token}` };
  const read = async (query: string) =>
    (await (
      await fetch(`${serverUrl}${API_BASE}/banner/list?limit=1&${query}`, { headers })
    ).json()) as { nextCursor: string | null };
  const cursors: string[] = [];
  let page = await read(`offset=${offset}`);
  while (page.nextCursor !== null && cursors.length < count) {
    cursors.push(page.nextCursor);
    page = await read(`cursor=${page.nextCursor}`);
  }
  return cursors;
}

async function benchDatabase(kind: 'sqlite' | 'postgres'): Promise<Row[]> {
  const loaded = kind === 'postgres' ? args['pg-url'] : args['sqlite-dir'];
  const dataDir =
    kind === 'sqlite' && loaded ? loaded : fs.mkdtempSync(path.join(os.tmpdir(), 'ma-bench-'));
  const sqliteFile = path.join(dataDir, 'master-admin.sqlite');
  // A fresh database, as every test file gets one.
  const pgDb = kind === 'postgres' && !loaded ? await createPgDatabase() : undefined;
  const databaseUrl = kind === 'postgres' ? (loaded ?? pgDb?.url) : undefined;
  const dropPg = pgDb?.drop;
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    // The server signs list cursors with it; the floor takes the same ones.
    JWT_SECRET: BENCH_SECRET,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  };
  const children: ChildProcess[] = [];
  /** The one-time codes the server's log sender wrote (the apps API's sign-in cases). */
  const codes = new Map<string, string>();
  try {
    for (const area of UPLOAD_ONLY || loaded ? [] : args.areas.split(',')) {
      const rows = area === 'audit' ? AUDIT_ROWS : ROWS;
      log(`\n[${kind}] loading ${rows.toLocaleString('en')} ${area} with the CLI's bulk loader…`);
      await runCli(
        [
          'seed-bench',
          ...['--area', area, '--rows', String(rows)],
          ...(area === 'users' ? ['--history-rows', String(HISTORY_ROWS)] : []),
        ],
        env,
      );
    }

    const server = await startProcess(
      'src/main.ts',
      {
        ...env,
        PORT: '0',
        HOST: '127.0.0.1',
        SERVE_WEB: 'false',
        DRAIN_SECONDS: '0',
        ADMIN_EMAIL: ADMIN.email,
        ADMIN_PASSWORD: ADMIN.password,
        // The apps API's cases send each request from an address of its own (X-Forwarded-For),
        // as phones behind a proxy: the per-address guards count them one by one (app-cases.ts).
        TRUST_PROXY: '127.0.0.1',
        // The apps API's one-time codes go to the log, read below.
        OTP_SENDER: 'log',
      },
      /running at http:\/\/localhost:(\d+)/,
      (line) => {
        if (!line.includes('"otp":{')) return;
        const { otp } = JSON.parse(line) as {
          otp?: { phoneNumber: string; code: string; app: number };
        };
        if (otp) codes.set(`${otp.app} ${otp.phoneNumber}`, otp.code);
      },
    );
    children.push(server.child);
    const floor = await startProcess(
      'bench/floor.ts',
      {
        JWT_SECRET: BENCH_SECRET,
        ...(databaseUrl ? { DATABASE_URL: databaseUrl } : { SQLITE_FILE: sqliteFile }),
      },
      /listening (\d+)/,
    );
    children.push(floor.child);

    const serverUrl = `http://127.0.0.1:${server.port}`;
    const floorUrl = `http://127.0.0.1:${floor.port}`;
    const signInUrl = `${serverUrl}${API_BASE}/auth/admin/login`;
    const signInInit = {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(ADMIN),
    };
    const token = ((await (await fetch(signInUrl, signInInit)).json()) as { token: string }).token;
    const options = (await (
      await fetch(`${serverUrl}${API_BASE}/master-app/options`, {
        headers: { authorization: `Bearer ${token}` },
      })
    ).json()) as { result: Array<{ id: number; name: string }> };
    const apps = options.result.filter((a) => a.name.startsWith('Bench App')).map((a) => a.id);
    const optionIds = async (route: string) =>
      (
        (await (
          await fetch(`${serverUrl}${API_BASE}${route}`, {
            headers: { authorization: `Bearer ${token}` },
          })
        ).json()) as { result: Array<{ id: number }> }
      ).result.map((r) => r.id);
    const ctx: BenchContext = {
      apps,
      categories: await optionIds('/category/options'),
      days: await optionIds('/special-day/options'),
      // The newest users: those with numbered images, wallet rows and login history.
      users: await optionIds('/account/user/list?limit=100'),
      rows: ROWS,
      auditRows: AUDIT_ROWS,
      bannerCursors: selected.some((c) => c.name.includes('banners: cursor'))
        ? await cursorsAt(serverUrl, token, Math.floor(ROWS / 2), 100)
        : [],
    };
    const caseEnv: CaseEnv = {
      serverUrl,
      serverPid: server.child.pid!,
      adminToken: token,
      ctx,
      database: databaseUrl
        ? { kind: 'postgres', url: databaseUrl }
        : { kind: 'sqlite', file: sqliteFile },
      codes,
      connections: CONNECTIONS,
      seconds: SECONDS,
      log,
    };
    if (!UPLOAD_ONLY && selected.some((c) => APP_CASES.includes(c))) {
      ctx.app = await prepareApps(caseEnv);
    }

    /**
     * PostgreSQL: until no statement of another session runs (a slow case's requests that the
     * client gave up on still run there, and would be measured as the next case's load).
     */
    const idle = async () => {
      if (!databaseUrl) return;
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      try {
        const until = Date.now() + 300_000;
        for (;;) {
          const { rows: busy } = await client.query<{ n: number }>(
            `select count(*)::int as n from pg_stat_activity
             where datname = current_database() and state = 'active' and pid <> pg_backend_pid()`,
          );
          if (busy[0]!.n === 0) return;
          if (Date.now() > until) {
            log(`  (${busy[0]!.n} statements still running after 5 minutes: measuring anyway)`);
            return;
          }
          await new Promise((r) => setTimeout(r, 200));
        }
      } finally {
        await client.end();
      }
    };

    const rows: Row[] = [];
    for (const bench of UPLOAD_ONLY ? [] : selected) {
      log(`[${kind}] ${bench.name}`);
      await idle();
      const skipped = await bench.prepare?.(caseEnv);
      if (skipped) {
        log(`  left out: ${skipped}`);
        continue;
      }
      // Warm both up (page cache, prepared statements), then measure. The apps API's calls carry
      // their own key and token.
      const signedIn: Record<string, string> = bench.request
        ? {}
        : { authorization: `Bearer ${token}` };
      const driveServer = (seconds: number, phase: 'warm-up' | 'measure') =>
        bench.drive
          ? bench.drive(caseEnv, seconds, phase)
          : drive(serverUrl, bench, ctx, 'server', signedIn, seconds);
      await driveServer(2, 'warm-up');
      if (bench.floor !== false) await drive(floorUrl, bench, ctx, 'floor', {}, 2);
      await bench.ready?.(caseEnv);
      await idle();
      const measuring = driveServer(SECONDS, 'measure');
      const [measured, health, signInTimes] = await Promise.all([
        measuring,
        probe(`${serverUrl}${API_BASE}/health`, {}, 20, measuring),
        // Sign-in is rate limited to 60 a minute per address.
        probe(signInUrl, signInInit, 1000, measuring),
      ]);
      await idle();
      const floorMeasured =
        bench.floor === false ? undefined : await drive(floorUrl, bench, ctx, 'floor');
      // PostgreSQL runs the access check on every call: the floor with it, beside the floor alone.
      const floorChecked =
        kind === 'postgres' && bench.accessCheckCost && bench.floor !== false
          ? await drive(floorUrl, bench, ctx, 'floor', { 'x-session-id': sessionOf(token) })
          : undefined;
      rows.push({
        db: kind,
        name: bench.name,
        server: measured,
        floor: floorMeasured,
        floorChecked,
        healthP99: health.p99,
        signInP99: signInTimes.p99,
        target: bench.target,
        beside: bench.beside,
      });
      log(
        `  server ${measured.rps.toFixed(0)} req/s p99 ${measured.p99} ms${measured.errors ? ` (${measured.errors} errors)` : ''}${measured.note ? ` · ${measured.note}` : ''} · floor ${floorMeasured ? floorMeasured.rps.toFixed(0) : '—'} req/s · health p99 ${health.p99.toFixed(1)} ms · sign-in p99 ${signInTimes.p99.toFixed(1)} ms`,
      );
    }
    if (EXPORT) {
      log(`[${kind}] exporting the posters list as CSV…`);
      exportResults.push(
        ...(await benchExport({
          db: kind,
          serverUrl,
          token,
          serverPid: server.child.pid!,
          warmUpApp: apps[0],
        })),
      );
    }
    if (VIDEO_MB > 0 && !uploadResult) {
      log(`[${kind}] uploading a ${VIDEO_MB} MB video…`);
      const masterAppId = apps[0] ?? (await benchApp(serverUrl, token));
      uploadResult = await benchVideoUpload({
        serverUrl,
        token,
        serverPid: server.child.pid!,
        workDir: dataDir,
        mb: VIDEO_MB,
        masterAppId,
      });
    }
    if (BATCH_FILES > 0 && !batchResult) {
      log(`[${kind}] uploading a batch of ${BATCH_FILES} posters…`);
      batchResult = await benchPosterBatch({
        serverUrl,
        token,
        serverPid: server.child.pid!,
        files: BATCH_FILES,
        masterAppId: apps[0] ?? (await benchApp(serverUrl, token)),
      });
    }
    return rows;
  } finally {
    await Promise.all(children.map(stop));
    await dropPg?.();
    if (!loaded) fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** A master app for the uploads when no rows were loaded: made once per database. */
let madeApp: Promise<number> | undefined;
function benchApp(serverUrl: string, token: string): Promise<number> {
  madeApp ??= (async () => {
    const created = await fetch(`${serverUrl}${API_BASE}/master-app`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Bench Upload App' }),
    });
    return ((await created.json()) as { result: { id: number } }).result.id;
  })();
  return madeApp;
}

const PROBE_P99_MS = 50;
/** No request of a case may take longer (the decided targets). */
const MAX_REQUEST_MS = 1000;

function report(rows: Row[]) {
  const header = [
    'db',
    'case',
    'server req/s',
    'p50 ms',
    'p99 ms',
    'max ms',
    'floor req/s',
    'floor p99 ms',
    'ratio',
    'health p99 ms',
    'sign-in p99 ms',
    'targets',
    // What else a case measured (render: CPU seconds a picture).
    ...(rows.some((r) => r.server.note || r.beside) ? ['note'] : []),
  ];
  const lines = rows.map((r) => {
    const ratio = r.floor ? r.server.rps / r.floor.rps : undefined;
    // Also set beside another case's floor (the 304 beside the floor's first page).
    const other = r.beside && rows.find((o) => o.db === r.db && o.name === r.beside)?.floor;
    const note = [
      r.server.note,
      other &&
        `${(r.server.rps / other.rps).toFixed(2)} × ${r.beside}'s floor (${other.rps.toFixed(0)})`,
    ]
      .filter(Boolean)
      .join('; ');
    // A list is judged against its floor in the same run: at least half its rate, a p99 within
    // twice its p99. A call without a floor keeps a p99 of its own. Sign-in is reported only.
    const p99Target = r.floor ? 2 * r.floor.p99 : r.target?.p99Ms[r.db as 'sqlite' | 'postgres'];
    const misses = [
      ratio !== undefined && ratio < 0.5 && 'ratio < 0.5',
      p99Target !== undefined &&
        r.server.p99 > p99Target &&
        `p99 > ${r.floor ? '2 × floor' : `${p99Target} ms`}`,
      r.server.max > MAX_REQUEST_MS && `a request over ${MAX_REQUEST_MS / 1000} s`,
      r.healthP99 >= PROBE_P99_MS && `health p99 ≥ ${PROBE_P99_MS} ms`,
      r.server.errors > 0 && `${r.server.errors} errors`,
    ].filter(Boolean);
    return [
      r.db,
      r.name,
      r.server.rps.toFixed(0),
      String(r.server.p50),
      String(r.server.p99),
      String(r.server.max),
      r.floor ? r.floor.rps.toFixed(0) : '—',
      r.floor ? String(r.floor.p99) : '—',
      ratio !== undefined ? ratio.toFixed(2) : '—',
      r.healthP99.toFixed(1),
      r.signInP99.toFixed(1),
      misses.length === 0 ? 'met' : misses.join(', '),
      ...(header.includes('note') ? [note] : []),
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const row = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  console.log(
    `\n${ROWS.toLocaleString('en')} rows${HISTORY_ROWS !== ROWS ? ` (${HISTORY_ROWS.toLocaleString('en')} login-history rows)` : ''}${AUDIT_ROWS !== ROWS ? ` (${AUDIT_ROWS.toLocaleString('en')} audit entries)` : ''}, concurrency ${CONNECTIONS}, ${SECONDS} s per case, ${os.availableParallelism()} cores`,
  );
  console.log(row(header));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const l of lines) console.log(row(l));
  const missed = lines.filter((l) => l[header.indexOf('targets')] !== 'met').length;
  console.log(missed === 0 ? '\nEvery target met.' : `\n${missed} case(s) missed a target.`);
  reportAccessCheck(rows);
  return missed;
}

/**
 * What exact revocation costs: PostgreSQL reads the session, its account and the route's grant on
 * every call (auth/sessions.ts). The floor with that statement beside the floor alone; the time a
 * request takes of the saturated machine grows by the difference of their 1 / (req/s).
 */
function reportAccessCheck(rows: Row[]) {
  const measured = rows.filter((r) => r.floor && r.floorChecked);
  if (measured.length === 0) return;
  console.log('\nThe access check on every call (PostgreSQL), measured on the floor:');
  console.log('| case | floor req/s | with the check req/s | ratio | µs more a request |');
  console.log('|---|---|---|---|---|');
  for (const r of measured) {
    const without = r.floor!.rps;
    const withCheck = r.floorChecked!.rps;
    const micros = (1 / withCheck - 1 / without) * 1e6;
    console.log(
      `| ${r.name} | ${without.toFixed(0)} | ${withCheck.toFixed(0)} | ${(withCheck / without).toFixed(2)} | ${micros.toFixed(0)} |`,
    );
  }
}

const all: Row[] = [];
for (const kind of DATABASES) all.push(...(await benchDatabase(kind)));
const listsMissed = all.length > 0 ? report(all) : 0;
const uploadReport = uploadResult ? reportUpload(uploadResult) : undefined;
if (uploadReport) console.log(uploadReport.lines.join('\n'));
const batchReport = batchResult ? reportBatch(batchResult) : undefined;
if (batchReport) console.log(batchReport.lines.join('\n'));
const exportReport = exportResults.length > 0 ? reportExport(exportResults) : undefined;
if (exportReport) console.log(exportReport.lines.join('\n'));
process.exitCode =
  listsMissed === 0 &&
  (uploadReport?.met ?? true) &&
  (batchReport?.met ?? true) &&
  (exportReport?.met ?? true)
    ? 0
    : 1;
