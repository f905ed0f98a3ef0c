/**
 * Test harness: every test file gets its own fresh database (a temporary SQLite file, or a new
 * PostgreSQL database when TEST_DB=postgres) and a real app answering through `inject`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { API_BASE } from '@master-admin/contract';
import { loadConfig, type Config } from '../src/config.ts';
import { createContext } from '../src/bootstrap.ts';
import { buildApp } from '../src/app.ts';
import type { AppContext } from '../src/context.ts';
import {
  createBackOfficeAccount,
  type Grants,
} from '../src/features/accounts/service.ts';

export const TEST_DB = process.env.TEST_DB === 'postgres' ? 'postgres' : 'sqlite';
const PG_ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export const ADMIN = { email: 'admin@test.local', password: 'admin-password-1' };

export interface TestServer {
  app: FastifyInstance;
  ctx: AppContext;
  config: Config;
  /** A token of the SUPER_ADMIN created at start. */
  adminToken: string;
  /** A request under the API base (`url` without /api/v1), with `token` as bearer when given. */
  api(options: InjectOptions & { url: string; token?: string }): Promise<LightMyRequestResponse>;
  login(email: string, password: string): Promise<string>;
  /** A new STAFF account holding `grants`, and a token for it. */
  staff(grants?: Grants): Promise<{ id: number; email: string; password: string; token: string }>;
  close(): Promise<void>;
}

async function createPgDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `ma_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: PG_ADMIN_URL });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

export async function startServer(env: Record<string, string> = {}): Promise<TestServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ma-test-'));
  const pgDb = TEST_DB === 'postgres' ? await createPgDatabase() : undefined;
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    SERVE_WEB: 'false',
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    ...(pgDb ? { DATABASE_URL: pgDb.url } : {}),
    ...env,
  });
  const ctx = await createContext(config);
  await createBackOfficeAccount(ctx.db, {
    role: 'SUPER_ADMIN',
    email: ADMIN.email,
    password: ADMIN.password,
  });
  const app = await buildApp(ctx);
  await app.ready();

  const api: TestServer['api'] = ({ url, token, headers, ...rest }) =>
    app.inject({
      ...rest,
      url: `${API_BASE}${url}`,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
    });

  const login = async (email: string, password: string) => {
    const res = await api({ method: 'POST', url: '/auth/admin/login', payload: { email, password } });
    if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
    return (res.json() as { token: string }).token;
  };

  let staffCount = 0;
  const staff: TestServer['staff'] = async (grants = {}) => {
    staffCount += 1;
    const email = `staff${staffCount}-${randomBytes(3).toString('hex')}@test.local`;
    const password = 'staff-password-1';
    const id = await createBackOfficeAccount(ctx.db, { role: 'STAFF', email, password }, grants);
    return { id, email, password, token: await login(email, password) };
  };

  return {
    app,
    ctx,
    config,
    adminToken: await login(ADMIN.email, ADMIN.password),
    api,
    login,
    staff,
    close: async () => {
      await app.close();
      await pgDb?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
