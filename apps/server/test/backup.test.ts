/**
 * `npm run admin -- backup` and `restore` as an operator runs them (separate processes) against a
 * running server that the demo loader filled: the backup restores into a fresh data folder (with
 * a fresh PostgreSQL database owned by an ordinary role) or a fresh bucket, where the server
 * starts with every row of every table and every media file; a backup taken while banners are
 * uploaded and deleted holds every file its database names; a lost file is reported; restore
 * refuses a place that is not empty.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEDIA_COLUMNS } from '../src/media/service.ts';
import { TEST_DB, createPgDatabase, multipart, runCli, startS3, startServer } from './harness.ts';
import { images } from './images.ts';

const s = await startServer();
const cleanups: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  await s.close();
});

/** A path for a new folder, removed after the tests. */
function newFolder(): string {
  const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'ma-backup-'));
  cleanups.push(() => fs.rmSync(parent, { recursive: true, force: true }));
  return path.join(parent, 'folder');
}

/** An empty data folder, with an empty PostgreSQL database of its own role when testing it. */
async function freshTarget(): Promise<Record<string, string>> {
  const env: Record<string, string> = { DATA_DIR: newFolder() };
  if (TEST_DB === 'postgres') {
    const database = await createPgDatabase({ ownRole: true });
    cleanups.push(database.drop);
    env.DATABASE_URL = database.url;
  }
  return env;
}

/** Every row of every table the schema has (SQLite's catalogue, or PostgreSQL's), in order. */
async function allRows(env: Record<string, string>): Promise<Record<string, string[]>> {
  const rows: Record<string, string[]> = {};
  const line = (row: unknown) => JSON.stringify(row);
  if (env.DATABASE_URL === undefined) {
    const db = new SQLite(path.join(env.DATA_DIR!, 'master-admin.sqlite'), { readonly: true });
    try {
      const tables = db
        .prepare("select name from sqlite_master where type = 'table' order by name")
        .pluck()
        .all() as string[];
      for (const table of tables) {
        rows[table] = db.prepare(`select * from "${table}"`).all().map(line).sort();
      }
    } finally {
      db.close();
    }
  } else {
    const client = new pg.Client({ connectionString: env.DATABASE_URL });
    await client.connect();
    try {
      const tables = await client.query<{ name: string }>(
        "select tablename as name from pg_tables where schemaname = 'public' order by 1",
      );
      for (const { name } of tables.rows) {
        rows[name] = (await client.query(`select * from "${name}"`)).rows.map(line).sort();
      }
    } finally {
      await client.end();
    }
  }
  return rows;
}

/** Every file under `dir`, by its path inside, with the SHA-256 of its bytes. */
function filesIn(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    files[path.relative(dir, file)] = createHash('sha256')
      .update(fs.readFileSync(file))
      .digest('hex');
  }
  return files;
}

const secretOf = (env: Record<string, string>) => path.join(env.DATA_DIR!, 'jwt-secret');

async function createBanner(appId: number, width: number) {
  const body = await multipart(
    {},
    { file: { name: 'b.png', data: await images.png(width, 40), type: 'image/png' } },
  );
  const res = await s.api({
    method: 'POST',
    url: `/banner/${appId}`,
    token: s.adminToken,
    ...body,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().result as { id: number; image: string };
}

const bannerList = (server = s) =>
  server.api({ method: 'GET', url: '/banner/list?limit=5', token: server.adminToken });

let staff: { email: string; password: string };
let appId: number;
/** The key of an image that only a blog's text shows. */
let inTextOnly: string;
/** A backup of the server as the demo left it (and the blog), taken while nothing wrote. */
let firstBackup: string;
let firstBackupOutput: { code: number; stdout: string; stderr: string };

beforeAll(async () => {
  const demo = await runCli(['demo', '--size', 'small'], s.env);
  expect(demo.code, demo.stderr).toBe(0);
  const [, email, password] = /Staff (\S+) .*\(shown only this once\): (\S+)/.exec(demo.stdout)!;
  staff = { email: email!, password: password! };
  appId = (await s.ctx.db.selectFrom('masterApps').select('id').executeTakeFirstOrThrow()).id;

  // A banner's image shown in a blog's text, then the banner deleted: the text alone names it.
  const banner = await createBanner(appId, 77);
  const blog = await s.api({
    method: 'POST',
    url: '/blogs',
    token: s.adminToken,
    payload: {
      title: 'Backed up',
      author: 'Ops',
      shortDesc: 'An image in the text',
      desc: `<p>See:</p><img src="${banner.image}">`,
    },
  });
  expect(blog.statusCode, blog.body).toBe(200);
  const removed = await s.api({
    method: 'DELETE',
    url: `/banner/remove/${banner.id}`,
    token: s.adminToken,
  });
  expect(removed.statusCode).toBe(200);
  // Out of the trash too (a trashed row's files count as named: trash_media).
  await s.emptyTrash();
  inTextOnly = banner.image.slice('/media/'.length);
  expect(fs.existsSync(path.join(s.mediaDir, inTextOnly))).toBe(true);

  firstBackup = newFolder();
  firstBackupOutput = await runCli(['backup', firstBackup], s.env);
}, 60_000);

describe('backup and restore', () => {
  it('restores into a fresh data folder where the server starts with every row and file', async () => {
    const r = firstBackupOutput;
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /^Backed up the (SQLite database \(integrity ok\)|PostgreSQL database \(pg_dump\)), [\d.]+ MB; \d+ media files, [\d.]+ MB; the token secret to \S+ in [\d.]+ s\.\n$/,
    );

    const target = await freshTarget();
    const restored = await runCli(['restore', firstBackup], target);
    expect(restored.stderr).toBe('');
    expect(restored.code).toBe(0);
    expect(restored.stdout).toMatch(
      /^Restored the backup of \S+ \(\d+ media files, [\d.]+ MB, the token secret\)/,
    );

    // Every row of every table, every media file with its bytes, and the token secret.
    const rows = await allRows(target);
    expect(Object.keys(rows).length).toBeGreaterThan(30);
    expect(rows).toEqual(await allRows(s.env));
    const files = filesIn(path.join(target.DATA_DIR!, 'media'));
    expect(Object.keys(files)).toContain(inTextOnly);
    expect(files).toEqual(filesIn(s.mediaDir));
    expect(fs.readFileSync(secretOf(target), 'utf8')).toBe(
      fs.readFileSync(secretOf(s.env), 'utf8'),
    );
    expect(fs.statSync(secretOf(target)).mode & 0o777).toBe(0o600);
    const check = await runCli(['check-lists'], target);
    expect(check.stderr).toBe('');
    expect(check.code).toBe(0);

    const restoredServer = await startServer(target);
    try {
      // A token signed before the backup still works: same secret, same session.
      const detail = await restoredServer.api({
        method: 'GET',
        url: '/account/admin-detail',
        token: s.adminToken,
      });
      expect(detail.statusCode).toBe(200);
      // A staff member the demo made signs in with the password it printed.
      await restoredServer.login(staff.email, staff.password);
      const before = (await bannerList()).json();
      const after = (await bannerList(restoredServer)).json();
      expect(after.total).toBeGreaterThan(0);
      expect(after.total).toBe(before.total);
      const image = after.result[0].image as string;
      const served = await restoredServer.app.inject({ method: 'GET', url: image });
      expect(served.statusCode).toBe(200);
      expect(served.rawPayload.equals(fs.readFileSync(s.mediaFile(image)))).toBe(true);
      // New rows carry on after the restored ones.
      const created = await restoredServer.api({
        method: 'POST',
        url: '/master-app',
        token: restoredServer.adminToken,
        payload: { name: 'After the restore' },
      });
      expect(created.statusCode, created.body).toBe(200);
    } finally {
      await restoredServer.close();
    }
  });

  it('a backup taken while banners are uploaded and deleted holds every file its database names', async () => {
    // Enough to go on deleting through the backup (the tool takes about a second to start).
    const existing = await Promise.all(
      Array.from({ length: 40 }, (_, i) => createBanner(appId, 500 + i)),
    );
    const backup = newFolder();
    let running = true;
    let writesDuring = 0;
    const backingUp = runCli(['backup', backup], s.env).finally(() => (running = false));
    // New banners stored and old ones deleted (files gone right after their rows) meanwhile.
    for (let i = 0; running && i < 300; i += 1) {
      await createBanner(appId, 100 + i);
      const old = existing.shift();
      if (old) {
        await s.api({ method: 'DELETE', url: `/banner/remove/${old.id}`, token: s.adminToken });
      }
      if (running) writesDuring += 1;
    }
    const r = await backingUp;
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(writesDuring).toBeGreaterThan(0);

    const target = await freshTarget();
    expect((await runCli(['restore', backup], target)).code).toBe(0);
    const restoredServer = await startServer(target);
    try {
      const named = new Set<string>();
      for (const [table, column] of MEDIA_COLUMNS) {
        const { rows } = await sql<{
          key: string | null;
        }>`select ${sql.ref(column)} as key from ${sql.table(table)}`.execute(
          restoredServer.ctx.db,
        );
        for (const { key } of rows) if (key) named.add(key);
      }
      const stored = new Set(restoredServer.storedFiles());
      const lacking = [...named].flatMap((key) =>
        [key, key.replace(/\.webp$/, '.thumb.webp')].filter((file) => !stored.has(file)),
      );
      expect(named.size).toBeGreaterThan(50);
      expect(lacking).toEqual([]);
    } finally {
      await restoredServer.close();
    }
  });

  it('reports a file the database names that the store has lost, and backs up the rest', async () => {
    const file = path.join(s.mediaDir, inTextOnly);
    const bytes = fs.readFileSync(file);
    fs.rmSync(file);
    try {
      const backup = newFolder();
      const r = await runCli(['backup', backup], s.env);
      expect(r.code).toBe(1);
      expect(r.stdout).toMatch(/^Backed up /);
      expect(r.stderr).toBe(
        'The database names 1 media file(s) the media store does not have, so the backup lacks ' +
          `them too (listed in backup.json):\n  ${inTextOnly} (blogs.desc)\n`,
      );
      const manifest = JSON.parse(fs.readFileSync(path.join(backup, 'backup.json'), 'utf8'));
      expect(manifest.media.missing).toEqual([{ key: inTextOnly, namedBy: 'blogs.desc' }]);
      expect(
        fs.existsSync(path.join(backup, 'media', inTextOnly.replace(/\.webp$/, '.thumb.webp'))),
      ).toBe(true);
    } finally {
      fs.writeFileSync(file, bytes);
    }
  });
});

describe('restore refuses', () => {
  it('a data folder that is not empty, naming what it holds, and changes nothing', async () => {
    const target = await freshTarget();
    fs.mkdirSync(path.join(target.DATA_DIR!, 'media'), { recursive: true });
    fs.writeFileSync(path.join(target.DATA_DIR!, 'notes.txt'), 'keep me');
    const r = await runCli(['restore', firstBackup], target);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `The data folder ${target.DATA_DIR} is not empty: it holds media, notes.txt.\n` +
        'restore fills only empty places; nothing was changed.\n',
    );
    expect(fs.readdirSync(target.DATA_DIR!).sort()).toEqual(['media', 'notes.txt']);
    if (TEST_DB === 'postgres') expect(Object.keys(await allRows(target))).toEqual([]);
  });

  it.runIf(TEST_DB === 'postgres')('a database that has tables, naming them', async () => {
    const target = { DATA_DIR: newFolder(), DATABASE_URL: s.env.DATABASE_URL! };
    const r = await runCli(['restore', firstBackup], target);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^The database ma_test_\w+ is not empty: it holds the tables public\.accounts, public\.\w+, .* and \d+ more\.\nrestore fills only empty places; nothing was changed\.\n$/,
    );
    expect(fs.existsSync(target.DATA_DIR)).toBe(false);
  });

  it('a database of the other kind', async () => {
    const target: Record<string, string> = { DATA_DIR: newFolder() };
    if (TEST_DB === 'sqlite') target.DATABASE_URL = 'postgres://nobody@127.0.0.1:1/none';
    const r = await runCli(['restore', firstBackup], target);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('restore into the same kind.');
    expect(fs.existsSync(target.DATA_DIR!)).toBe(false);
  });

  it('a folder that is not a finished backup', async () => {
    const folder = newFolder();
    fs.mkdirSync(folder);
    const r = await runCli(['restore', folder], { DATA_DIR: newFolder() });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `${folder} holds no backup.json: it is not a backup this tool finished writing.\n`,
    );
  });

  it('and backup refuses a folder that is not empty', async () => {
    const folder = newFolder();
    fs.mkdirSync(folder);
    fs.writeFileSync(path.join(folder, 'old.txt'), '');
    const r = await runCli(['backup', folder], s.env);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `${folder} is not empty (it holds old.txt): back up into a new folder.\n`,
    );
    expect(fs.readdirSync(folder)).toEqual(['old.txt']);
  });
});

describe('with the media in an S3 bucket', () => {
  const BUCKET = 'restored';
  let endpoint: string;
  let s3Env: Record<string, string>;
  beforeAll(async () => {
    const s3 = await startS3(BUCKET);
    cleanups.push(s3.close);
    ({ endpoint, env: s3Env } = s3);
  });

  it('restores a backup of local media into a fresh bucket, and backs the bucket up again', async () => {
    const target = { ...(await freshTarget()), ...s3Env };
    const restored = await runCli(['restore', firstBackup], target);
    expect(restored.stderr).toBe('');
    expect(restored.code).toBe(0);
    // Every file is an object with the same bytes, served with its content type.
    const backedUp = filesIn(path.join(firstBackup, 'media'));
    for (const key of Object.keys(backedUp)) {
      const res = await fetch(`${endpoint}/${BUCKET}/${key}`);
      expect(res.status, key).toBe(200);
      expect(res.headers.get('content-type')).toBe(
        key.endsWith('.mp4') ? 'video/mp4' : 'image/webp',
      );
      const sha = createHash('sha256')
        .update(Buffer.from(await res.arrayBuffer()))
        .digest('hex');
      expect(sha, key).toBe(backedUp[key]);
    }
    const restoredServer = await startServer(target);
    try {
      const image = (await bannerList(restoredServer)).json().result[0].image as string;
      expect(image.startsWith(`${endpoint}/${BUCKET}/banners/`)).toBe(true);
      expect((await fetch(image)).status).toBe(200);
    } finally {
      await restoredServer.close();
    }

    const again = newFolder();
    const r = await runCli(['backup', again], target);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(filesIn(path.join(again, 'media'))).toEqual(backedUp);

    // The bucket is not empty now.
    const refused = await runCli(['restore', firstBackup], { ...(await freshTarget()), ...s3Env });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /^The bucket restored is not empty: it holds \S+, \S+, \S+ and more\.\n/,
    );
  });
});
