/**
 * Test harness: every test file gets its own fresh database (a temporary SQLite file, or a new
 * PostgreSQL database when TEST_DB=postgres) and a real app answering through `inject`.
 */
import type { Insertable, Selectable } from 'kysely';
import type { AuditLogTable, PosterTable } from '../src/db/schema.ts';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { API_BASE } from '@master-admin/contract';
import { loadConfig, type Config } from '../src/config.ts';
import { createContext } from '../src/bootstrap.ts';
import { openDatabase, type DatabaseHandle } from '../src/db/connect.ts';
import { buildApp } from '../src/app.ts';
import type { AppContext } from '../src/context.ts';
import type { Database } from '../src/db/schema.ts';
import { createBackOfficeAccount, type Grants } from '../src/features/accounts/service.ts';
import { startSession } from '../src/auth/sessions.ts';
import { signToken } from '../src/auth/tokens.ts';
import { checkList } from '../src/db/list-structures.ts';
import { checkTrendCounts } from '../src/features/dashboard/trend-counts.ts';
import { checkTopDownloads } from '../src/features/dashboard/top-downloads.ts';
import { structureOf } from '../src/db/lists.ts';
import { ALL_LISTS } from '../src/features/lists.ts';

export const TEST_DB = process.env.TEST_DB === 'postgres' ? 'postgres' : 'sqlite';
const PG_ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export const ADMIN = { email: 'admin@test.local', password: 'admin-password-1' };

/** The session id a token carries (its `sid`). */
export const sessionOf = (token: string): string =>
  JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).sid;

export interface TestServer {
  app: FastifyInstance;
  ctx: AppContext;
  config: Config;
  /** The environment `config` was read from: the operator tool's, to work on this server's store. */
  env: Record<string, string>;
  /** The SUPER_ADMIN created at start, and a token of it. */
  adminId: number;
  adminToken: string;
  /** A request under the API base (`url` without /api/v1), with `token` as bearer when given. */
  api(options: InjectOptions & { url: string; token?: string }): Promise<LightMyRequestResponse>;
  login(email: string, password: string): Promise<string>;
  /** A new STAFF account holding `grants`, and a token for it. */
  staff(grants?: Grants): Promise<{ id: number; email: string; password: string; token: string }>;
  /**
   * A token of a new session of `accountId`, made without the login call (so without its rate
   * limit, throttling and login history): for tests that need many tokens.
   */
  tokenFor(accountId: number): Promise<string>;
  /**
   * As if the session of `token` signed in long ago (a stolen token, a laptop left open): its
   * proof of presence is no longer recent (API.md "Proof of presence").
   */
  staleProof(token: string): Promise<void>;
  /** The audit entries of `action` made by `accountId`, oldest first. */
  auditOf(accountId: number, action: string): Promise<Selectable<AuditLogTable>[]>;
  /** The local media folder. */
  mediaDir: string;
  /** Every stored media file, relative to the media folder, sorted. */
  storedFiles(): string[];
  /** The local file behind a `/media/…` URL. */
  mediaFile(url: string): string;
  /** How many rows `table` holds. */
  rowCount(table: keyof Database): Promise<number>;
  /** Deletes everything in the trash for good (as the SUPER_ADMIN would), files included. */
  emptyTrash(): Promise<void>;
  close(): Promise<void>;
}

const SERVER_DIR = path.resolve(import.meta.dirname, '..');

/** The operator tool (`node src/cli.ts`) as a separate process, with `env` and PATH alone. */
export function runCli(args: string[], env: Record<string, string>) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      ['src/cli.ts', ...args],
      { cwd: SERVER_DIR, env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'silent', ...env } },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/**
 * A local S3 server (s3rver, keeping its objects in a temporary folder) holding `bucket`, and the
 * variables that put the media there (MEDIA_STORE=s3).
 */
export async function startS3(bucket: string) {
  const { default: S3rver } = await import('s3rver');
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'ma-s3rver-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  const endpoint = `http://127.0.0.1:${(await server.run()).port}`;
  return {
    endpoint,
    env: {
      MEDIA_STORE: 's3',
      S3_ENDPOINT: endpoint,
      S3_BUCKET: bucket,
      S3_FORCE_PATH_STYLE: 'true',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_REGION: 'us-east-1',
    },
    close: async () => {
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}

/**
 * A poster row to write straight to the database (what no call makes: old dates, many rows at
 * once, a row a check finds in the way): an ACTIVE left-positioned poster, numbers 1, no special
 * day, unless `values` says otherwise.
 */
export function posterRow(
  values: Pick<Insertable<PosterTable>, 'masterAppId' | 'categoryId' | 'accountId'> &
    Partial<Insertable<PosterTable>>,
): Insertable<PosterTable> {
  const at = new Date().toISOString();
  return {
    specialDayId: null,
    topDefNum: 1,
    selfDefNum: 1,
    bottomDefNum: 1,
    poster: 'posters/00/none.webp',
    videoThumb: null,
    date: null,
    status: 'ACTIVE',
    position: 'LEFT',
    createdAt: at,
    updatedAt: at,
    ...values,
  };
}

/**
 * A new, empty PostgreSQL database and a way to drop it. With `ownRole`, the database belongs to a
 * new login role without superuser rights, which the URL signs in as (dropped with it).
 */
export async function createPgDatabase(
  options: { ownRole?: boolean } = {},
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `ma_test_${randomBytes(6).toString('hex')}`;
  const role = options.ownRole ? `${name}_owner` : undefined;
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  if (role) await admin.query(`create role ${role} login`);
  await admin.query(`create database ${name}${role ? ` owner ${role}` : ''}`);
  await admin.end();
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  if (role) {
    url.username = role;
    url.password = '';
  }
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: PG_ADMIN_URL });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      if (role) await c.query(`drop role if exists ${role}`);
      await c.end();
    },
  };
}

/**
 * A new, empty database of the kind under test, not migrated (a test of an upgrade migrates it as
 * far as it needs), and a way to close and remove it.
 */
export async function newDatabase(): Promise<{
  handle: DatabaseHandle;
  dispose: () => Promise<void>;
}> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ma-db-'));
  const pgDb = TEST_DB === 'postgres' ? await createPgDatabase() : undefined;
  const handle = openDatabase(
    pgDb
      ? { kind: 'postgres', url: pgDb.url }
      : { kind: 'sqlite', file: path.join(dataDir, 'db.sqlite') },
  );
  return {
    handle,
    dispose: async () => {
      await handle.close();
      await pgDb?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A fresh server. `env` overrides the configuration; when it names DATA_DIR or DATABASE_URL, that
 * folder or database belongs to the caller: it is used as is and left in place on close. With
 * `logLines` (and a LOG_LEVEL in `env`), the server's log lines are added to it, parsed.
 */
export async function startServer(
  env: Record<string, string> = {},
  options: { logLines?: Array<Record<string, unknown>> } = {},
): Promise<TestServer> {
  const dataDir = env.DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'ma-test-'));
  const ownsDataDir = env.DATA_DIR === undefined;
  const pgDb =
    TEST_DB === 'postgres' && env.DATABASE_URL === undefined ? await createPgDatabase() : undefined;
  const serverEnv: Record<string, string> = {
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    SERVE_WEB: 'false',
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    ...(pgDb ? { DATABASE_URL: pgDb.url } : {}),
    ...env,
  };
  const config = loadConfig(serverEnv);
  const ctx = await createContext(config);
  // A restored database has its admin already.
  const restored = await ctx.db
    .selectFrom('accounts')
    .select('id')
    .where('email', '=', ADMIN.email)
    .executeTakeFirst();
  const adminId =
    restored?.id ??
    (await createBackOfficeAccount(ctx.db, {
      role: 'SUPER_ADMIN',
      email: ADMIN.email,
      password: ADMIN.password,
    }));
  const { logLines } = options;
  const app = await buildApp(ctx, {
    logStream: logLines && { write: (line) => void logLines.push(JSON.parse(line)) },
  });
  await app.ready();

  const api: TestServer['api'] = ({ url, token, headers, ...rest }) =>
    app.inject({
      ...rest,
      url: `${API_BASE}${url}`,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
    });

  const login = async (email: string, password: string) => {
    const res = await api({
      method: 'POST',
      url: '/auth/admin/login',
      payload: { email, password },
    });
    if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
    return res.json<{ token: string }>().token;
  };

  let staffCount = 0;
  const staff: TestServer['staff'] = async (grants = {}) => {
    staffCount += 1;
    const email = `staff${staffCount}-${randomBytes(3).toString('hex')}@test.local`;
    const password = 'staff-password-1';
    const id = await createBackOfficeAccount(ctx.db, { role: 'STAFF', email, password }, grants);
    return { id, email, password, token: await login(email, password) };
  };

  const tokenFor: TestServer['tokenFor'] = async (accountId) => {
    const session = await startSession(ctx.db, {
      accountId,
      ip: '127.0.0.1',
      userAgent: 'test',
      ttlHours: config.sessionTtlHours,
      method: 'password',
    });
    return signToken(ctx.secret, { sessionId: session.sessionId, accountId }, session.expiresAt);
  };

  const staleProof: TestServer['staleProof'] = async (token) => {
    const sessionId = sessionOf(token);
    const longAgo = new Date(Date.now() - 3_600_000).toISOString();
    await ctx.db
      .updateTable('sessions')
      .set({ provedAt: longAgo })
      .where('id', '=', sessionId)
      .execute();
  };

  const mediaDir = path.join(dataDir, 'media');
  const storedFiles = () =>
    fs.existsSync(mediaDir)
      ? (fs.readdirSync(mediaDir, { recursive: true }) as string[])
          .filter((f) => fs.statSync(path.join(mediaDir, f)).isFile())
          .sort()
      : [];
  const rowCount = async (table: keyof Database) =>
    Number(
      (
        await ctx.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  const adminToken = await login(ADMIN.email, ADMIN.password);
  return {
    app,
    ctx,
    config,
    env: serverEnv,
    mediaDir,
    storedFiles,
    mediaFile: (url) => path.join(mediaDir, url.slice('/media/'.length)),
    rowCount,
    emptyTrash: async () => {
      const rows = await ctx.db.selectFrom('trash').select(['area', 'rowId']).execute();
      for (let i = 0; i < rows.length; i += 500) {
        const items = rows.slice(i, i + 500).map((r) => ({ area: r.area, id: r.rowId }));
        const res = await api({
          method: 'DELETE',
          url: '/trash',
          token: adminToken,
          payload: { items },
        });
        if (res.statusCode !== 200) throw new Error(`emptying the trash: ${res.body}`);
      }
    },
    adminId,
    adminToken,
    api,
    login,
    staff,
    tokenFor,
    staleProof,
    auditOf: (accountId, action) =>
      ctx.db
        .selectFrom('auditLog')
        .selectAll()
        .where('accountId', '=', accountId)
        .where('action', '=', action)
        .orderBy('id')
        .execute(),
    close: async () => {
      try {
        // Every test's writes went through the triggers that keep the lists' counts and search
        // indexes: they must still agree with the tables.
        const problems: string[] = [];
        for (const list of ALL_LISTS) {
          problems.push(...(await checkList(ctx.db, ctx.dialect, structureOf(list))));
        }
        problems.push(...(await checkTrendCounts(ctx.db, ctx.dialect)));
        problems.push(...(await checkTopDownloads(ctx.db, ctx.dialect)));
        if (problems.length > 0)
          throw new Error(`List structures out of step:\n${problems.join('\n')}`);
        await app.close();
      } finally {
        await pgDb?.drop();
        if (ownsDataDir) fs.rmSync(dataDir, { recursive: true, force: true });
      }
    },
  };
}

/**
 * `app.inject` for a route whose answer may be a stream that stays open (the event stream): it
 * resolves once the answer's head is written. An event stream is let go unread (the server ends
 * it when it closes) with an empty body; any other answer is read whole, as `inject` would.
 */
export async function injectStreaming(
  app: FastifyInstance,
  options: InjectOptions,
): Promise<LightMyRequestResponse> {
  const controller = new AbortController();
  const res = await app.inject({ ...options, payloadAsStream: true, signal: controller.signal });
  let body = '';
  if (String(res.headers['content-type']).startsWith('text/event-stream')) {
    controller.abort();
  } else {
    for await (const chunk of res.stream()) body += String(chunk);
  }
  return Object.assign(Object.create(res) as LightMyRequestResponse, {
    body,
    payload: body,
    json: () => JSON.parse(body) as unknown,
  });
}

/** A multipart body, as a browser's FormData sends it: `fields` and files `{ name, data, type }`. */
export async function multipart(
  fields: Record<string, string>,
  files: Record<string, { name: string; data: Buffer; type?: string }> = {},
): Promise<{ payload: Buffer; headers: Record<string, string> }> {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  for (const [key, file] of Object.entries(files)) {
    form.append(
      key,
      new Blob([new Uint8Array(file.data)], { type: file.type ?? 'application/octet-stream' }),
      file.name,
    );
  }
  const encoded = new Response(form);
  return {
    payload: Buffer.from(await encoded.arrayBuffer()),
    headers: { 'content-type': encoded.headers.get('content-type')! },
  };
}
