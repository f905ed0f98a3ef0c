/**
 * A backup an operator takes while the server runs, and its restore into a fresh place: the
 * database (SQLite's online copy, or pg_dump), the media files (from the local folder or the S3
 * bucket, through the MediaStore, so either store backs up into a folder and restores from one)
 * and the generated token secret, in one folder described by its backup.json.
 *
 * Files are stored before the row that names them and removed after it is gone, so the media are
 * copied once before the database and then, for the files the copied database names that the
 * first pass did not find (uploaded meanwhile), once after it: every file the copy names is in
 * the backup unless the store has lost it, which the backup reports.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import { z } from 'zod';
import type { Config } from './config.ts';
import type { Database } from './db/schema.ts';
import { thumbOf } from './media/images.ts';
import { namedMediaKeys } from './media/service.ts';
import { KEY, createStore, type MediaStore } from './media/store.ts';
import { VIDEO_FORMATS } from './media/videos.ts';
import { inParallel } from './seed/demo-pictures.ts';

/** A refusal or a failure the operator can act on. */
export class BackupError extends Error {}

const MANIFEST = 'backup.json';
const DATABASE_FILE = { sqlite: 'master-admin.sqlite', postgres: 'database.pgdump' } as const;
const MEDIA = 'media';
const SECRET = 'jwt-secret';
/** Files copied at once: enough to keep a bucket's round trips overlapping. */
const COPIES_AT_ONCE = 8;
/** Files up to this size are restored read whole (one request to a bucket); larger ones streamed. */
const WHOLE_FILE_BYTES = 16 * 1024 * 1024;

const manifestSchema = z.object({
  format: z.literal(1),
  createdAt: z.string(),
  database: z.object({ kind: z.enum(['sqlite', 'postgres']), file: z.string(), bytes: z.number() }),
  media: z.object({
    files: z.number(),
    bytes: z.number(),
    /** Files the database names that the store no longer had, with the column naming each. */
    missing: z.array(z.object({ key: z.string(), namedBy: z.string() })),
  }),
  jwtSecret: z.boolean(),
});
export type Manifest = z.infer<typeof manifestSchema>;

/** The first few entries of a folder, for a refusal; empty when it is missing or empty. */
function entriesOf(dir: string): string[] {
  return fs.existsSync(dir) ? fs.readdirSync(dir).sort() : [];
}

function someOf(names: readonly string[]): string {
  const shown = names.slice(0, 5).join(', ');
  return names.length > 5 ? `${shown} and ${names.length - 5} more` : shown;
}

const fileOf = (mediaDir: string, key: string) => path.join(mediaDir, ...key.split('/'));

/** Copies the stored file `key` into the backup's media folder; false when it is not stored. */
async function copyOut(store: MediaStore, key: string, mediaDir: string): Promise<number | false> {
  const stream = await store.open(key);
  if (!stream) return false;
  const file = fileOf(mediaDir, key);
  await fs.promises.mkdir(path.dirname(file), { recursive: true });
  await pipeline(stream, fs.createWriteStream(`${file}.part`));
  await fs.promises.rename(`${file}.part`, file);
  return (await fs.promises.stat(file)).size;
}

/**
 * Runs a PostgreSQL client tool, on the database at `url` when given. The password goes in
 * PGPASSWORD, not on the command line, where any user's `ps` would show it.
 */
function runPgTool(tool: 'pg_dump' | 'pg_restore', args: string[], url?: string): Promise<void> {
  const target = url === undefined ? undefined : new URL(url);
  const password = target ? decodeURIComponent(target.password) : '';
  if (target) target.password = '';
  return new Promise((resolve, reject) => {
    execFile(
      tool,
      target ? [...args, `--dbname=${target.toString()}`] : args,
      { env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) } },
      (err, _stdout, stderr) => {
        if (!err) resolve();
        else if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
          reject(
            new BackupError(
              `${tool} was not found: install the PostgreSQL client tools (the server's major version or newer).`,
            ),
          );
        } else reject(new BackupError(`${tool} failed: ${stderr.trim() || err.message}`));
      },
    );
  });
}

/** The database's name in `url`, for messages (the URL itself may hold a password). */
const databaseName = (url: string) => decodeURIComponent(new URL(url).pathname.slice(1));

/**
 * SQLite's online backup into `file` (consistent while the server keeps writing), checked, and
 * the media keys the copy names.
 */
async function copySqlite(source: string, file: string, store: MediaStore) {
  const live = new SQLite(source, { fileMustExist: true });
  try {
    live.pragma('busy_timeout = 5000');
    // All pages in one step, in one read transaction that the server's writes go on beside (WAL).
    // In steps of 100 pages (the default), each write restarts the copy: a 183 MB database
    // written every 20 ms was still being copied after 37,000 steps and 20 s; in one step, 0.5 s.
    await live.backup(file, { progress: () => 0x7fffffff });
  } finally {
    live.close();
  }
  const copy = new SQLite(file);
  // One self-contained file (the copy inherits the live database's WAL mode, whose side files a
  // reader would leave beside it); the server turns WAL on again when it opens it.
  copy.pragma('journal_mode = DELETE');
  const result = copy.pragma('integrity_check', { simple: true });
  if (result !== 'ok') {
    copy.close();
    throw new BackupError(`The copy at ${file} failed its integrity check: ${String(result)}`);
  }
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: copy }) });
  try {
    return await namedMediaKeys(db, store);
  } finally {
    await db.destroy();
  }
}

/**
 * pg_dump (custom format) of the database at `url` into `file`, and the media keys that dump
 * names: both read in one snapshot, which this transaction exports and pg_dump adopts.
 */
async function dumpPostgres(url: string, file: string, store: MediaStore) {
  const db = new Kysely<Database>({
    dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 1 }) }),
  });
  try {
    return await db.connection().execute(async (connection) => {
      await sql`begin isolation level repeatable read read only`.execute(connection);
      try {
        const { rows } = await sql<{
          snapshot: string;
        }>`select pg_export_snapshot() as snapshot`.execute(connection);
        const named = await namedMediaKeys(connection, store);
        await runPgTool(
          'pg_dump',
          ['--format=custom', `--snapshot=${rows[0]!.snapshot}`, `--file=${file}`],
          url,
        );
        return named;
      } finally {
        await sql`rollback`.execute(connection);
      }
    });
  } finally {
    await db.destroy();
  }
}

/** The files `named` calls for: each key, and beside an image its thumbnail. */
function filesCalledFor(named: Map<string, string>): Map<string, string> {
  const files = new Map(named);
  for (const [key, namedBy] of named) {
    const thumb = thumbOf(key);
    if (thumb !== key && !key.endsWith('.thumb.webp') && !files.has(thumb)) {
      files.set(thumb, `thumbnail of ${namedBy}`);
    }
  }
  return files;
}

/** Lets go of the S3 client's connections, if any, so the tool can exit. */
function closeStore(store: MediaStore) {
  (store as { destroy?: () => void }).destroy?.();
}

/**
 * Backs up the configured database, media and generated secret into `dir` (a new or empty
 * folder). The manifest, written last, marks the backup complete; when the database names files
 * the store no longer has, they are listed in it and returned in `missing`.
 */
export async function takeBackup(config: Config, dir: string): Promise<Manifest> {
  const target = path.resolve(dir);
  const present = entriesOf(target);
  if (present.length > 0) {
    throw new BackupError(
      `${target} is not empty (it holds ${someOf(present)}): back up into a new folder.`,
    );
  }
  // Found before any copying: a missing database or tool.
  const { database } = config;
  if (database.kind === 'sqlite' && !fs.existsSync(database.file)) {
    throw new BackupError(`There is no database at ${database.file}.`);
  }
  if (database.kind === 'postgres') await runPgTool('pg_dump', ['--version']);
  fs.mkdirSync(target, { recursive: true, mode: 0o700 });
  const mediaDir = path.join(target, MEDIA);
  fs.mkdirSync(mediaDir);
  const store = await createStore(config.media);
  try {
    let files = 0;
    let bytes = 0;
    const copy = async (key: string) => {
      const size = await copyOut(store, key, mediaDir);
      if (size === false) return false;
      files += 1;
      bytes += size;
      return true;
    };
    // 1. Everything stored now (a file removed before its turn needs no copy: its row went first).
    let batch: string[] = [];
    for await (const entry of store.list()) {
      if (entry.key === undefined) continue;
      batch.push(entry.key);
      if (batch.length === 256) {
        await inParallel(batch, COPIES_AT_ONCE, copy);
        batch = [];
      }
    }
    await inParallel(batch, COPIES_AT_ONCE, copy);

    // 2. The database, and the keys its copy names.
    const databaseFile = path.join(target, DATABASE_FILE[database.kind]);
    const named =
      database.kind === 'sqlite'
        ? await copySqlite(database.file, databaseFile, store)
        : await dumpPostgres(database.url, databaseFile, store);

    // 3. What the copy names that step 1 did not find: stored since.
    const missing: Manifest['media']['missing'] = [];
    const wanted = [...filesCalledFor(named)].filter(
      ([key]) => !fs.existsSync(fileOf(mediaDir, key)),
    );
    await inParallel(wanted, COPIES_AT_ONCE, async ([key, namedBy]) => {
      if (!KEY.test(key) || !(await copy(key))) missing.push({ key, namedBy });
    });
    missing.sort((a, b) => a.key.localeCompare(b.key));

    const secret = path.join(config.dataDir, SECRET);
    const jwtSecret = fs.existsSync(secret);
    if (jwtSecret) fs.copyFileSync(secret, path.join(target, SECRET));

    const manifest: Manifest = {
      format: 1,
      createdAt: new Date().toISOString(),
      database: {
        kind: database.kind,
        file: DATABASE_FILE[database.kind],
        bytes: fs.statSync(databaseFile).size,
      },
      media: { files, bytes, missing },
      jwtSecret,
    };
    fs.writeFileSync(path.join(target, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
    return manifest;
  } finally {
    closeStore(store);
  }
}

function readManifest(dir: string): Manifest {
  const file = path.join(dir, MANIFEST);
  if (!fs.existsSync(file)) {
    throw new BackupError(
      `${dir} holds no ${MANIFEST}: it is not a backup this tool finished writing.`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    json = undefined;
  }
  const parsed = manifestSchema.safeParse(json);
  if (!parsed.success)
    throw new BackupError(`${file} is not a backup description this tool reads.`);
  return parsed.data;
}

/** Every file of the backup's media folder whose path is a media key, as keys. */
function backedUpKeys(mediaDir: string): string[] {
  if (!fs.existsSync(mediaDir)) return [];
  return fs
    .readdirSync(mediaDir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) =>
      path.relative(mediaDir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'),
    )
    .filter((key) => KEY.test(key))
    .sort();
}

const contentTypeOf = (key: string) =>
  key.endsWith('.webp')
    ? 'image/webp'
    : (Object.values(VIDEO_FORMATS).find(({ ext }) => key.endsWith(`.${ext}`))?.contentType ??
      'application/octet-stream');

/** What is already in the places a restore would fill, each named; empty when all are empty. */
async function occupied(config: Config): Promise<string[]> {
  const problems: string[] = [];
  const inDataDir = entriesOf(config.dataDir);
  if (inDataDir.length > 0) {
    problems.push(`The data folder ${config.dataDir} is not empty: it holds ${someOf(inDataDir)}.`);
  }
  const { database } = config;
  if (database.kind === 'sqlite') {
    if (!database.file.startsWith(config.dataDir + path.sep) && fs.existsSync(database.file)) {
      problems.push(`The database file ${database.file} exists already.`);
    }
  } else {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ name: string }>(
        `select schemaname || '.' || tablename as name from pg_tables
          where schemaname not in ('pg_catalog', 'information_schema') order by 1`,
      );
      if (rows.length > 0) {
        problems.push(
          `The database ${databaseName(database.url)} is not empty: it holds the tables ${someOf(rows.map((r) => r.name))}.`,
        );
      }
    } finally {
      await client.end();
    }
  }
  return problems;
}

export type Restored = { manifest: Manifest; files: number; bytes: number };

/**
 * Fills the configured places (an empty data folder, an empty PostgreSQL database or none with
 * the SQLite file, an empty bucket when media live in S3) from the backup in `dir`: media first,
 * then the secret, the database last. Nothing is written unless every place is empty.
 */
export async function restoreBackup(config: Config, dir: string): Promise<Restored> {
  const source = path.resolve(dir);
  const manifest = readManifest(source);
  if (manifest.database.kind !== config.database.kind) {
    throw new BackupError(
      `The backup holds a ${manifest.database.kind === 'sqlite' ? 'SQLite' : 'PostgreSQL'} database, ` +
        `but the configured one is ${config.database.kind === 'sqlite' ? 'SQLite (DATABASE_URL unset or sqlite:)' : 'PostgreSQL (DATABASE_URL)'}: ` +
        'restore into the same kind.',
    );
  }
  if (config.database.kind === 'postgres') await runPgTool('pg_restore', ['--version']);
  const mediaDir = path.join(source, MEDIA);
  const keys = backedUpKeys(mediaDir);
  const bytes = keys.reduce((sum, key) => sum + fs.statSync(fileOf(mediaDir, key)).size, 0);
  if (keys.length !== manifest.media.files || bytes !== manifest.media.bytes) {
    throw new BackupError(
      `${mediaDir} holds ${keys.length} media files (${bytes} bytes) where ${MANIFEST} says ` +
        `${manifest.media.files} (${manifest.media.bytes} bytes): this copy of the backup is incomplete.`,
    );
  }
  const problems = await occupied(config);
  if (problems.length > 0) {
    throw new BackupError(
      `${problems.join('\n')}\nrestore fills only empty places; nothing was changed.`,
    );
  }
  const store = await createStore(config.media);
  try {
    if (config.media.store === 's3') {
      const stored: string[] = [];
      for await (const entry of store.list()) {
        if (entry.key !== undefined) stored.push(entry.key);
        if (stored.length > 3) break;
      }
      if (stored.length > 0) {
        const shown = stored.slice(0, 3).join(', ');
        throw new BackupError(
          `The bucket ${config.media.bucket} is not empty: it holds ${shown}${stored.length > 3 ? ' and more' : ''}.\n` +
            'restore fills only empty places; nothing was changed.',
        );
      }
    }

    // Media first. A large file is streamed from a copy set aside in the data folder (putFile
    // moves its file away on local disk); the rest are read whole.
    const staging = path.join(config.dataDir, 'tmp', 'restore');
    fs.mkdirSync(staging, { recursive: true, mode: 0o700 });
    await inParallel(keys, COPIES_AT_ONCE, async (key, i) => {
      const file = fileOf(mediaDir, key);
      if ((await fs.promises.stat(file)).size <= WHOLE_FILE_BYTES) {
        await store.put(key, await fs.promises.readFile(file), contentTypeOf(key));
        return;
      }
      const aside = path.join(staging, String(i));
      await fs.promises.copyFile(file, aside);
      try {
        await store.putFile(key, aside, contentTypeOf(key));
      } finally {
        await fs.promises.rm(aside, { force: true });
      }
    });
    fs.rmSync(path.join(config.dataDir, 'tmp'), { recursive: true, force: true });

    if (manifest.jwtSecret) {
      fs.copyFileSync(path.join(source, SECRET), path.join(config.dataDir, SECRET));
      fs.chmodSync(path.join(config.dataDir, SECRET), 0o600);
    }

    const databaseFile = path.join(source, manifest.database.file);
    if (config.database.kind === 'sqlite') {
      const target = config.database.file;
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.copyFileSync(databaseFile, `${target}.part`);
      fs.renameSync(`${target}.part`, target);
    } else {
      // One transaction: a failure leaves the database empty. Owners and grants are left out so
      // that the configured role owns what it restores (and can migrate it later).
      await runPgTool(
        'pg_restore',
        [
          '--exit-on-error',
          '--single-transaction',
          '--no-owner',
          '--no-privileges',
          '--no-comments',
          databaseFile,
        ],
        config.database.url,
      );
    }
    return { manifest, files: keys.length, bytes };
  } finally {
    closeStore(store);
  }
}
