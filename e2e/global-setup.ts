/**
 * Starts the real server once for the whole run: a temporary DATA_DIR (SQLite's file lives there)
 * or, with E2E_DB=postgres, a fresh database; a free port; the built web app served by the server.
 * Waits for GET /api/v1/health. The returned function is the teardown: SIGTERM, then the database
 * and the folder are removed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { ADMIN, DB_KIND, ENV, MEDIA_KIND, OTP_WEBHOOK, PG_ADMIN_URL } from './settings.ts';

const REPO = path.resolve(import.meta.dirname, '..');
const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 10_000;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function withPgAdmin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: PG_ADMIN_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function createPgDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `ma_e2e_${randomBytes(6).toString('hex')}`;
  await withPgAdmin((c) => c.query(`create database ${name}`));
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      await withPgAdmin((c) => c.query(`drop database if exists ${name} with (force)`));
    },
  };
}

function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) {
    return Promise.resolve(child.exitCode);
  }
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

async function waitForHealth(url: string, child: ChildProcess, log: () => string) {
  const deadline = Date.now() + START_TIMEOUT_MS;
  let died = false;
  void exited(child).then(() => (died = true));
  while (Date.now() < deadline) {
    if (died) throw new Error(`the server exited while starting:\n${log()}`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the server did not answer ${url} within ${START_TIMEOUT_MS} ms:\n${log()}`);
}

/** SIGTERM, then SIGKILL if it hangs; resolves with the exit code (undefined: it had already ended). */
async function stop(child: ChildProcess): Promise<number | null | undefined> {
  if (child.exitCode !== null || child.signalCode !== null) return undefined;
  child.kill('SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((r) => {
    timer = setTimeout(() => r('timeout'), STOP_TIMEOUT_MS);
  });
  const outcome = await Promise.race([exited(child), timeout]);
  clearTimeout(timer);
  if (outcome !== 'timeout') return outcome;
  console.error(`[e2e] the server did not stop within ${STOP_TIMEOUT_MS} ms of SIGTERM: killed`);
  child.kill('SIGKILL');
  return exited(child);
}

/** A local S3 server (s3rver, as the server's own S3 tests use) with one bucket, in `dir`. */
async function startS3(dir: string) {
  const { default: S3rver } = await import('s3rver');
  const bucket = 'e2e-media';
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory: dir,
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  const { port } = await server.run();
  return {
    env: {
      MEDIA_STORE: 's3',
      S3_ENDPOINT: `http://127.0.0.1:${port}`,
      S3_BUCKET: bucket,
      S3_FORCE_PATH_STYLE: 'true',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_REGION: 'us-east-1',
    },
    stop: () => server.close(),
  };
}

/** `npm run admin -- demo` on the server's database and media store. */
async function runDemo(env: NodeJS.ProcessEnv) {
  const demo = spawn(
    process.execPath,
    [path.join(REPO, 'apps', 'server', 'src', 'cli.ts'), 'demo'],
    {
      cwd: REPO,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  demo.stdout.on('data', (d: Buffer) => (output += d.toString()));
  demo.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const code = await exited(demo);
  if (code !== 0) throw new Error(`npm run admin -- demo exited with ${code}:\n${output}`);
}

export default async function globalSetup(): Promise<() => Promise<void>> {
  const dist = path.join(REPO, 'apps', 'web', 'dist', 'index.html');
  if (!fs.existsSync(dist)) {
    throw new Error(`${dist} is missing: build the web app first (npm run build)`);
  }

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ma-e2e-'));
  let database: { url: string; drop: () => Promise<void> } | undefined;
  let child: ChildProcess | undefined;
  let s3: { env: Record<string, string>; stop: () => Promise<void> } | undefined;

  const cleanUp = async () => {
    try {
      if (child) {
        const code = await stop(child);
        if (code !== undefined && code !== 0) {
          console.error(`[e2e] the server exited with code ${code} on SIGTERM`);
        }
      }
    } finally {
      try {
        await database?.drop();
        await s3?.stop();
      } finally {
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    }
  };

  try {
    if (DB_KIND === 'postgres') database = await createPgDatabase();
    if (MEDIA_KIND === 's3') s3 = await startS3(path.join(dataDir, 's3'));
    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;

    let output = '';
    // Only what the server needs, so that no variable of the caller's shell (a DATABASE_URL,
    // a REDIS_URL…) changes what is tested.
    const serverEnv: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      TMPDIR: process.env.TMPDIR,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      ...(database ? { DATABASE_URL: database.url } : {}),
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: 'warn',
      SERVE_WEB: 'true',
      // No load balancer to leave: the teardown's SIGTERM stops it at once.
      DRAIN_SECONDS: '0',
      // Sign-in codes go to a webhook a spec runs, as to an SMS gateway (app-api.spec.ts).
      OTP_SENDER: 'webhook',
      OTP_WEBHOOK_URL: `http://127.0.0.1:${OTP_WEBHOOK.port}${OTP_WEBHOOK.path}`,
      OTP_WEBHOOK_SECRET: OTP_WEBHOOK.secret,
      ...s3?.env,
    };
    child = spawn(process.execPath, [path.join(REPO, 'apps', 'server', 'src', 'main.ts')], {
      cwd: REPO,
      env: serverEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // Kept for the error message when the start fails; warnings and errors show as they come.
    const collect = (chunk: Buffer) => {
      const text = chunk.toString();
      output = (output + text).slice(-20_000);
      if (process.env.E2E_SERVER_OUTPUT === '1' || /"level":(40|50|60)/.test(text)) {
        process.stderr.write(text.replace(/^(?=.)/gm, '[server] '));
      }
    };
    child.stdout!.on('data', collect);
    child.stderr!.on('data', collect);

    await waitForHealth(`${baseUrl}/api/v1/health`, child, () => output);
    // Every spec runs beside the demo business (issue #11: the charts render with demo data),
    // as a new user's database would look after `npm run admin -- demo`; specs never assume an
    // empty database.
    await runDemo(serverEnv);

    process.env[ENV.baseUrl] = baseUrl;
    process.env[ENV.mediaBase] = s3 ? `${s3.env.S3_ENDPOINT}/${s3.env.S3_BUCKET}` : '/media';
    if (database) process.env[ENV.databaseUrl] = database.url;
    else process.env[ENV.sqliteFile] = path.join(dataDir, 'master-admin.sqlite');
  } catch (err) {
    await cleanUp();
    throw err;
  }
  return cleanUp;
}
