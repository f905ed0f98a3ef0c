/**
 * Where media files live: one interface, two implementations. Keys are made by the server
 * (content-addressed, see images.ts), never taken from a client.
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { PartUnavailable, diskFull, serviceDown } from '../http/parts.ts';
import type { Readable } from 'node:stream';
import type { MediaConfig } from '../config.ts';

export interface MediaStore {
  /** Stores `body` under `key`; when it resolves, the file is complete and readable. */
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  /**
   * Stores the file at `file` (an upload's temporary file, which this may move away) under
   * `key`, streamed, never read whole into memory; when it resolves, the stored file is complete.
   */
  putFile(key: string, file: string, contentType: string): Promise<void>;
  exists(key: string): Promise<boolean>;
  /** The stored bytes of `key`, or undefined when it is not stored. */
  get(key: string): Promise<Buffer | undefined>;
  /** The stored bytes of `key` as a stream (a video is never held whole), or undefined. */
  open(key: string): Promise<Readable | undefined>;
  /** When `key` was last written (ms since the epoch), or undefined when it is not stored. */
  modifiedMs(key: string): Promise<number | undefined>;
  delete(key: string): Promise<void>;
  /** The URL a browser loads the file from. */
  url(key: string): string;
  /** The key behind a URL this store gave out, else undefined. */
  keyOf(url: string): string | undefined;
  /**
   * Everything stored, with when it was last written: files under their keys, and (on local
   * disk) files half-written by a process that stopped (`partial`, removed with `removePartial`).
   */
  list(): AsyncIterable<StoredEntry>;
  /** Resolves when the store answers (readiness); a local folder has nothing to check. */
  check?(signal: AbortSignal): Promise<void>;
}

export type StoredEntry =
  | { key: string; modifiedMs: number; partial?: undefined }
  | { partial: string; modifiedMs: number; key?: undefined };

/** Keys are lower-case path segments of letters, digits, dots and dashes: nothing else. */
export const KEY = /^[a-z0-9-]+(\/[a-z0-9-]+)*\/[a-z0-9-]+(\.[a-z0-9]+)+$/;
export function assertKey(key: string) {
  if (!KEY.test(key) || key.includes('..')) throw new Error(`not a media key: ${key}`);
}

export class LocalStore implements MediaStore {
  readonly dir: string;
  constructor(dir: string) {
    this.dir = dir;
    fs.mkdirSync(dir, { recursive: true });
  }

  #file(key: string) {
    assertKey(key);
    return path.join(this.dir, ...key.split('/'));
  }

  async put(key: string, body: Buffer) {
    const file = this.#file(key);
    await fs.promises.mkdir(path.dirname(file), { recursive: true });
    // Written aside, then renamed: a reader never sees half a file; a failed write (a full disk)
    // leaves nothing behind.
    const partial = `${file}.${randomBytes(6).toString('hex')}.part`;
    try {
      await fs.promises.writeFile(partial, body);
      await fs.promises.rename(partial, file);
    } catch (err) {
      await fs.promises.rm(partial, { force: true });
      throw err;
    }
  }

  async putFile(key: string, source: string) {
    const file = this.#file(key);
    await fs.promises.mkdir(path.dirname(file), { recursive: true });
    // Moved aside (copied when the upload folder is on another file system), then renamed into
    // place: a reader never sees half a file.
    const partial = `${file}.${randomBytes(6).toString('hex')}.part`;
    try {
      await fs.promises.rename(source, partial);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
      await fs.promises.copyFile(source, partial).catch(async (copyErr: unknown) => {
        await fs.promises.rm(partial, { force: true });
        throw copyErr;
      });
    }
    try {
      // Readable like the files `put` writes (the upload was private to this process).
      await fs.promises.chmod(partial, 0o644);
      await fs.promises.rename(partial, file);
    } catch (err) {
      await fs.promises.rm(partial, { force: true });
      throw err;
    }
  }

  async exists(key: string) {
    return fs.existsSync(this.#file(key));
  }

  async get(key: string) {
    try {
      return await fs.promises.readFile(this.#file(key));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
  }

  async open(key: string) {
    try {
      return (await fs.promises.open(this.#file(key))).createReadStream();
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
  }

  async modifiedMs(key: string) {
    try {
      return (await fs.promises.stat(this.#file(key))).mtimeMs;
    } catch {
      return undefined;
    }
  }

  async delete(key: string) {
    await fs.promises.rm(this.#file(key), { force: true });
  }

  url(key: string) {
    return `/media/${key}`;
  }

  keyOf(url: string) {
    return url.startsWith('/media/') ? url.slice('/media/'.length) : undefined;
  }

  async *list(): AsyncIterable<StoredEntry> {
    for (const entry of await fs.promises.readdir(this.dir, {
      recursive: true,
      withFileTypes: true,
    })) {
      if (!entry.isFile()) continue;
      const file = path.join(entry.parentPath, entry.name);
      const relative = path.relative(this.dir, file).split(path.sep).join('/');
      let stat;
      try {
        stat = await fs.promises.stat(file);
      } catch {
        continue; // gone meanwhile
      }
      if (relative.endsWith('.part')) yield { partial: relative, modifiedMs: stat.mtimeMs };
      else if (KEY.test(relative)) yield { key: relative, modifiedMs: stat.mtimeMs };
    }
  }

  /** Removes a half-written file `list` reported. */
  async removePartial(relative: string) {
    if (!relative.endsWith('.part') || relative.includes('..')) return;
    await fs.promises.rm(path.join(this.dir, ...relative.split('/')), { force: true });
  }
}

/**
 * The configured store. The S3 client (several MB of code) is loaded only when media live in
 * object storage, so a server on local disk neither starts it nor keeps it in memory.
 */
export async function createStore(config: MediaConfig): Promise<MediaStore> {
  if (config.store === 'local') return namingFailures(new LocalStore(config.dir));
  const { S3Store } = await import('./s3-store.ts');
  return namingFailures(new S3Store(config));
}

/**
 * `store`, its failures named (http/parts.ts): a bucket that does not answer, a full disk, so
 * the call that met one answers 503 with Retry-After rather than 500. Other errors pass as they
 * are.
 */
export function namingFailures<S extends MediaStore>(store: S): S {
  const name = (err: unknown): unknown => {
    if (err instanceof PartUnavailable) return err;
    if (diskFull(err)) return new PartUnavailable('disk', err);
    if (!(store instanceof LocalStore) && serviceDown(err))
      return new PartUnavailable('bucket', err);
    return err;
  };
  return new Proxy(store, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      // An async generator (the sweep's listing) is taken as it is, bound to the store.
      if (property === 'list') return (value as (...a: unknown[]) => unknown).bind(target);
      return (...args: unknown[]) => {
        const result: unknown = (value as (...a: unknown[]) => unknown).apply(target, args);
        return result instanceof Promise
          ? result.catch((err: unknown) => {
              throw name(err);
            })
          : result;
      };
    },
  });
}

/** The origins media load from besides this server: object storage's public URL, if used. */
export function mediaOrigins(config: { media: MediaConfig }): string[] {
  return config.media.store === 's3' ? [new URL(config.media.publicUrl).origin] : [];
}
