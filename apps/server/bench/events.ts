/**
 * `npm run bench:events [-- --db sqlite,postgres --streams 1000 --rows 100000 --seconds 10]`: what
 * the event stream costs a server, and how fast an event travels (issue #23, Targets).
 *
 * For each database: loads `--rows` banners (the CLI's bulk loader), starts the real server
 * (and on PostgreSQL a second instance on the same database), and then:
 * 1. warms up two list cases (cases.ts; autocannon, concurrency 50);
 * 2. opens `--streams` streams (each with a session of its own, 20 to an account, the most one
 *    holds; held by a process of their own: hold-streams.ts), and reads the
 *    server's RSS growth once they are all open and again 25 s later (every stream has had a
 *    heartbeat); target ≤ 50 MB for 1,000;
 * 3. drives the same list cases with the streams open and without, alternately, twice each (the
 *    machine is shared: its speed drifts): target ≤ 5 % fewer req/s on the means;
 * 4. times change → event: `POST faqs` through the first instance, the event read on a stream
 *    of the second (PostgreSQL: LISTEN/NOTIFY across processes; SQLite: one process), 200 changes
 *    20 ms apart on a quiet machine (target p99 ≤ 250 ms), and again while a list case is being
 *    hammered (target: no slower than that list's p99 in the same run).
 * The latency runs from the moment the change is sent, so it includes the change's own work;
 * under load it is judged from the change's answer (the event is sent at commit, often before).
 * Not part of CI.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { API_BASE, PATHS } from '@master-admin/contract';
import { randomSource } from '../src/seed/bench.ts';
import { openDatabase } from '../src/db/connect.ts';
import { startSession } from '../src/auth/sessions.ts';
import { MAX_STREAMS_PER_ACCOUNT } from '../src/events/streams.ts';
import { createBackOfficeAccount } from '../src/features/accounts/service.ts';
import { signToken } from '../src/auth/tokens.ts';
import { createPgDatabase } from '../test/harness.ts';
import { CASES, type BenchContext } from './cases.ts';
import { rssMb } from './upload.ts';

const { values: args } = parseArgs({
  options: {
    db: { type: 'string', default: 'sqlite,postgres' },
    streams: { type: 'string', default: '1000' },
    rows: { type: 'string', default: '100000' },
    seconds: { type: 'string', default: '10' },
    changes: { type: 'string', default: '200' },
  },
});
const STREAMS = Number(args.streams);
const ROWS = Number(args.rows);
const SECONDS = Number(args.seconds);
const CHANGES = Number(args.changes);
const SERVER_DIR = path.resolve(import.meta.dirname, '..');
const ADMIN = { email: 'bench@example.com', password: 'bench-password-1' };
const JWT_SECRET = randomBytes(32).toString('base64url');
const LIST_CASES = CASES.filter((c) => ['banners: first page', 'banners: status'].includes(c.name));
const TARGETS = { rssGrowthMb: 50, rpsDrop: 0.05, quietP99Ms: 250 };

const log = (line: string) => process.stderr.write(`${line}\n`);

function startServer(env: Record<string, string>) {
  const child = spawn(process.execPath, ['src/main.ts'], {
    cwd: SERVER_DIR,
    env: {
      ...process.env,
      ...env,
      PORT: '0',
      HOST: '127.0.0.1',
      SERVE_WEB: 'false',
      DRAIN_SECONDS: '0',
      LOG_LEVEL: 'warn',
      JWT_SECRET,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise<{ child: ChildProcess; url: string }>((resolve, reject) => {
    let seen = '';
    const onData = (chunk: Buffer) => {
      seen += chunk.toString();
      const match = /running at http:\/\/localhost:(\d+)/.exec(seen);
      if (!match) return;
      child.stdout.off('data', onData);
      child.stdout.resume();
      resolve({ child, url: `http://127.0.0.1:${match[1]}` });
    };
    child.stdout.on('data', onData);
    child.on('exit', (code) => reject(new Error(`the server exited with ${code}`)));
  });
}

const stop = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });

function runCli(cliArgs: string[], env: Record<string, string>) {
  return new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, ['src/cli.ts', ...cliArgs], {
      cwd: SERVER_DIR,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`cli ${code}`))));
  });
}

/**
 * An open stream read with node:http (no per-stream timers in this process either): calls
 * `onEvent` with each change's row id as it arrives; resolves once the stream has said where it
 * starts.
 */
function holdStream(
  url: string,
  token: string,
  onEvent?: (area: string, id: number) => void,
): Promise<http.ClientRequest> {
  return new Promise((resolve, reject) => {
    const request = http.get(
      `${url}${API_BASE}${PATHS.events}`,
      { agent: false, headers: { authorization: `Bearer ${token}` } },
      (response) => {
        if (response.statusCode !== 200) {
          reject(new Error(`a stream answered ${response.statusCode}`));
          return;
        }
        let buffer = '';
        let started = false;
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          if (!started && /\nid: \d+\n\n/.test(`\n${chunk}`)) {
            started = true;
            resolve(request);
          }
          if (!onEvent) return;
          buffer += chunk;
          let end: number;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const data = /^data: (.*)$/m.exec(block)?.[1];
            if (/^event: change$/m.test(block) && data) {
              const event = JSON.parse(data) as { area: string; id: number };
              onEvent(event.area, event.id);
            }
          }
        });
        response.on('error', () => undefined);
      },
    );
    request.on('error', reject);
  });
}

async function drive(url: string, token: string, ctx: BenchContext, seconds = SECONDS) {
  const results: Record<string, { rps: number; p99: number; errors: number }> = {};
  for (const bench of LIST_CASES) {
    const rng = randomSource(7);
    const result = await autocannon({
      url,
      connections: 50,
      duration: seconds,
      headers: { authorization: `Bearer ${token}` },
      requests: [{ setupRequest: (req) => ({ ...req, path: bench.path!(rng, ctx) }) }],
    });
    results[bench.name] = {
      rps: result.requests.average,
      p99: result.latency.p99,
      errors: result.non2xx + result.errors + result.timeouts,
    };
  }
  return results;
}

/** `count` changes through `writer`, `gapMs` apart; each one's time until `reader`'s stream told of it. */
async function latencies(writer: string, reader: string, token: string, count: number) {
  const arrived = new Map<number, number>();
  const waiting = new Map<number, () => void>();
  const stream = await holdStream(reader, token, (area, id) => {
    if (area !== 'faqs') return;
    arrived.set(id, performance.now());
    waiting.get(id)?.();
  });
  const times: number[] = [];
  const afterAnswer: number[] = [];
  for (let i = 0; i < count; i++) {
    const sent = performance.now();
    const res = await fetch(`${writer}${API_BASE}${PATHS.faqCreate}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ question: `Latency ${i} ${sent}`, answer: 'An answer' }),
    });
    const id = ((await res.json()) as { result: { id: number } }).result.id;
    const answered = performance.now();
    if (!arrived.has(id)) {
      await new Promise<void>((resolve) => {
        waiting.set(id, resolve);
        setTimeout(resolve, 5_000);
      });
      waiting.delete(id);
    }
    const at = arrived.get(id) ?? Number.POSITIVE_INFINITY;
    times.push(at - sent);
    // The event often comes before the answer (it is sent at commit): counted as 0.
    afterAnswer.push(Math.max(0, at - answered));
    await new Promise((r) => setTimeout(r, 20));
  }
  stream.destroy();
  const quantile = (values: number[], q: number) => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  };
  return {
    p50: quantile(times, 0.5),
    p99: quantile(times, 0.99),
    afterAnswerP99: quantile(afterAnswer, 0.99),
  };
}

type Result = {
  db: string;
  rssBeforeMb: number;
  rssOpenMb: number;
  rssAfterMb: number;
  without: Awaited<ReturnType<typeof drive>>;
  with: Awaited<ReturnType<typeof drive>>;
  quiet: Awaited<ReturnType<typeof latencies>>;
  loaded: Awaited<ReturnType<typeof latencies>>;
  loadedListP99: number;
  acrossInstances: boolean;
};

async function benchDatabase(kind: 'sqlite' | 'postgres'): Promise<Result> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ma-bench-events-'));
  const pgDb = kind === 'postgres' ? await createPgDatabase() : undefined;
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    ...(pgDb ? { DATABASE_URL: pgDb.url } : {}),
  };
  const children: ChildProcess[] = [];
  const handle = openDatabase(
    pgDb
      ? { kind: 'postgres', url: pgDb.url }
      : { kind: 'sqlite', file: path.join(dataDir, 'master-admin.sqlite') },
  );
  try {
    log(`[${kind}] loading ${ROWS.toLocaleString('en')} banners…`);
    await runCli(['seed-bench', '--area', 'banners', '--rows', String(ROWS)], env);
    const first = await startServer(env);
    children.push(first.child);
    const second = kind === 'postgres' ? await startServer(env) : first;
    if (second !== first) children.push(second.child);
    const pid = first.child.pid!;

    const account = await handle.db
      .selectFrom('accounts')
      .select('id')
      .where('email', '=', ADMIN.email)
      .executeTakeFirstOrThrow();
    const secret = new TextEncoder().encode(JWT_SECRET);
    const tokenFor = async (accountId = account.id) => {
      const session = await startSession(handle.db, {
        accountId,
        ip: '127.0.0.1',
        userAgent: 'bench',
        ttlHours: 2,
        method: 'password',
      });
      return signToken(secret, { sessionId: session.sessionId, accountId }, session.expiresAt);
    };
    const token = await tokenFor();
    const options = (await (
      await fetch(`${first.url}${API_BASE}/master-app/options`, {
        headers: { authorization: `Bearer ${token}` },
      })
    ).json()) as { result: Array<{ id: number; name: string }> };
    const ctx: BenchContext = {
      apps: options.result.filter((a) => a.name.startsWith('Bench App')).map((a) => a.id),
      categories: [],
      days: [],
      users: [],
      rows: ROWS,
      auditRows: ROWS,
      bannerCursors: [],
    };

    log(`[${kind}] warming up…`);
    await drive(first.url, token, ctx, 3);
    // An account holds at most MAX_STREAMS_PER_ACCOUNT streams: the held ones are spread over
    // accounts of their own that see everything (the admin's stream times the latency).
    const holders: number[] = [];
    for (let i = 0; i < Math.ceil(STREAMS / MAX_STREAMS_PER_ACCOUNT); i++) {
      holders.push(
        await createBackOfficeAccount(handle.db, {
          role: 'SUPER_ADMIN',
          email: `bench-streams-${i}@example.com`,
          password: ADMIN.password,
        }),
      );
    }
    const tokens = await Promise.all(
      Array.from({ length: STREAMS }, (_, i) => tokenFor(holders[i % holders.length])),
    );
    /** The streams, held by a process of their own; resolves once all have started. */
    const open = () =>
      new Promise<ChildProcess>((resolve, reject) => {
        const holder = spawn(
          process.execPath,
          [path.join(import.meta.dirname, 'hold-streams.ts')],
          {
            stdio: ['pipe', 'pipe', 'inherit'],
          },
        );
        holder.stdout.setEncoding('utf8').on('data', (d: string) => {
          if (d.includes('ready')) resolve(holder);
        });
        holder.on('exit', (code) => reject(new Error(`the stream holder exited with ${code}`)));
        holder.stdin.end(JSON.stringify({ url: `${first.url}${API_BASE}${PATHS.events}`, tokens }));
      });
    const close = (holder: ChildProcess) =>
      new Promise<void>((resolve) => {
        holder.removeAllListeners('exit');
        holder.once('exit', () => resolve());
        holder.kill('SIGKILL');
      });
    const settle = () => new Promise((r) => setTimeout(r, 2000));

    // Memory: before, once open, and once every stream has had a heartbeat (idle meanwhile).
    await settle();
    const rssBeforeMb = rssMb(pid);
    log(`[${kind}] opening ${STREAMS} streams…`);
    let streams = await open();
    await settle();
    const rssOpenMb = rssMb(pid);
    log(`[${kind}] waiting 25 s: a heartbeat on every stream…`);
    await new Promise((r) => setTimeout(r, 25_000));
    const rssAfterMb = rssMb(pid);

    // The machine drifts (two cores, shared): runs without and with the streams alternate, twice,
    // and their means are compared.
    const runs: { with: Array<Awaited<ReturnType<typeof drive>>>; without: typeof runs.with } = {
      with: [],
      without: [],
    };
    for (let round = 0; round < 2; round++) {
      log(`[${kind}] the list cases with the streams open (${round + 1}/2)…`);
      runs.with.push(await drive(first.url, token, ctx));
      await close(streams);
      await settle();
      log(`[${kind}] the list cases without streams (${round + 1}/2)…`);
      runs.without.push(await drive(first.url, token, ctx));
      streams = await open();
      await settle();
    }
    const mean = (results: Array<Awaited<ReturnType<typeof drive>>>) =>
      Object.fromEntries(
        Object.keys(results[0]!).map((name) => {
          const each = results.map((r) => r[name]!);
          return [
            name,
            {
              rps: each.reduce((sum, r) => sum + r.rps, 0) / each.length,
              p99: Math.max(...each.map((r) => r.p99)),
              errors: each.reduce((sum, r) => sum + r.errors, 0),
            },
          ];
        }),
      );

    // Latency, with the streams open (as they would be).
    log(`[${kind}] change → event latency, quiet…`);
    const quiet = await latencies(first.url, second.url, token, CHANGES);
    log(`[${kind}] change → event latency while a list is hammered…`);
    const hammer = autocannon({
      url: first.url,
      connections: 50,
      duration: Math.max(SECONDS, 8),
      headers: { authorization: `Bearer ${token}` },
      requests: [
        {
          setupRequest: (req) => ({ ...req, path: LIST_CASES[0]!.path!(randomSource(9), ctx) }),
        },
      ],
    });
    const loaded = await latencies(first.url, second.url, token, Math.min(CHANGES, 150));
    const hammered = await hammer;
    await close(streams);
    const without = mean(runs.without);
    const withStreams = mean(runs.with);
    return {
      db: kind,
      rssBeforeMb,
      rssOpenMb,
      rssAfterMb,
      without,
      with: withStreams,
      quiet,
      loaded,
      loadedListP99: hammered.latency.p99,
      acrossInstances: second !== first,
    };
  } finally {
    await Promise.all(children.map(stop));
    await handle.close();
    await pgDb?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const results: Result[] = [];
for (const kind of args.db.split(',') as Array<'sqlite' | 'postgres'>) {
  results.push(await benchDatabase(kind));
}

let missed = 0;
const mark = (ok: boolean) => (ok ? 'met' : (missed++, 'MISSED'));
console.log(
  `\n${STREAMS} streams, ${ROWS.toLocaleString('en')} banners, ${SECONDS} s per case, ${os.availableParallelism()} cores`,
);
console.log(
  '| db | RSS before MB | streams open MB | after 25 s (heartbeats) MB | growth MB | target |',
);
console.log('|---|---|---|---|---|---|');
for (const r of results) {
  const growth = Math.max(r.rssOpenMb, r.rssAfterMb) - r.rssBeforeMb;
  console.log(
    `| ${r.db} | ${r.rssBeforeMb.toFixed(0)} | ${r.rssOpenMb.toFixed(0)} | ${r.rssAfterMb.toFixed(0)} | ${growth.toFixed(1)} | ${mark(growth <= TARGETS.rssGrowthMb)} |`,
  );
}
console.log(
  '\n| db | case | req/s without | req/s with streams | change | p99 without ms | p99 with ms | target |',
);
console.log('|---|---|---|---|---|---|---|---|');
for (const r of results) {
  for (const [name, before] of Object.entries(r.without)) {
    const after = r.with[name]!;
    const change = after.rps / before.rps - 1;
    console.log(
      `| ${r.db} | ${name} | ${before.rps.toFixed(0)} | ${after.rps.toFixed(0)} | ${(change * 100).toFixed(1)} % | ${before.p99} | ${after.p99} | ${mark(change >= -TARGETS.rpsDrop && after.errors === 0)} |`,
    );
  }
}
console.log(
  '\n| db | path | quiet p50 ms | quiet p99 ms | loaded p50 ms | loaded p99 ms | loaded p99 after the answer ms | list p99 ms (same run) | target |',
);
console.log('|---|---|---|---|---|---|---|---|---|');
for (const r of results) {
  // Quiet: from the change sent to the event read. Loaded: the change's own call is a request
  // among the hammering ones, so the event's travel is judged from the change's answer.
  const ok = r.quiet.p99 <= TARGETS.quietP99Ms && r.loaded.afterAnswerP99 <= r.loadedListP99;
  console.log(
    `| ${r.db} | ${r.acrossInstances ? 'instance 1 → instance 2' : 'one process'} | ${r.quiet.p50.toFixed(1)} | ${r.quiet.p99.toFixed(1)} | ${r.loaded.p50.toFixed(1)} | ${r.loaded.p99.toFixed(1)} | ${r.loaded.afterAnswerP99.toFixed(1)} | ${r.loadedListP99} | ${mark(ok)} |`,
  );
}
console.log(missed === 0 ? '\nEvery target met.' : `\n${missed} target(s) missed.`);
process.exitCode = missed === 0 ? 0 : 1;
