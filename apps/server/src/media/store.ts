/**
 * Where media files live: one interface, two implementations. Keys are made by the server
 * (content-addressed, see images.ts), never taken from a client.
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
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
}

export type StoredEntry =
  | { key: string; modifiedMs: number; partial?: undefined }
  | { partial: string; modifiedMs: number; key?: undefined };

/** Keys are lower-case path segments of letters, digits, dots and dashes: nothing else. */
const KEY = /^[a-z0-9-]+(\/[a-z0-9-]+)*\/[a-z0-9-]+(\.[a-z0-9]+)+$/;
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
    // Written aside, then renamed: a reader never sees half a file.
    const partial = `${file}.${randomBytes(6).toString('hex')}.part`;
    await fs.promises.writeFile(partial, body);
    await fs.promises.rename(partial, file);
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
      await fs.promises.copyFile(source, partial);
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
 * The size of each part of a multipart upload to object storage: at least S3's 5 MB minimum, and
 * a 500 MB video in 32 requests.
 */
export const PART_BYTES = 16 * 1024 * 1024;

export class S3Store implements MediaStore {
  readonly #client: S3Client;
  readonly #bucket: string;
  readonly #publicUrl: string;

  constructor(config: Extract<MediaConfig, { store: 's3' }>) {
    this.#client = new S3Client({
      region: config.region,
      endpoint: config.endpoint,
      forcePathStyle: config.forcePathStyle,
      // By default the SDK sends a streamed body (a video's parts) aws-chunked with a trailing
      // checksum, which S3-compatible servers that lack that encoding store verbatim, framing
      // and all. Checksums only where the API requires them; a part's length is still checked.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      credentials:
        config.accessKeyId && config.secretAccessKey
          ? { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey }
          : undefined,
    });
    this.#bucket = config.bucket;
    this.#publicUrl = config.publicUrl;
  }

  async put(key: string, body: Buffer, contentType: string) {
    assertKey(key);
    await this.#client.send(
      new PutObjectCommand({
        Bucket: this.#bucket,
        Key: key,
        Body: body,
        ContentType: contentType,
        CacheControl: 'public, max-age=31536000, immutable',
      }),
    );
  }

  /**
   * A multipart upload of PART_BYTES parts, each streamed from its range of the file; a failed
   * upload is aborted, so no parts are left behind to be billed.
   */
  async putFile(key: string, file: string, contentType: string) {
    assertKey(key);
    const { size } = await fs.promises.stat(file);
    const target = { Bucket: this.#bucket, Key: key };
    const { UploadId } = await this.#client.send(
      new CreateMultipartUploadCommand({
        ...target,
        ContentType: contentType,
        CacheControl: 'public, max-age=31536000, immutable',
      }),
    );
    if (!UploadId) throw new Error(`object storage gave no upload id for ${key}`);
    try {
      const parts: Array<{ ETag: string | undefined; PartNumber: number }> = [];
      // At least one part, so even an empty file completes.
      let start = 0;
      do {
        const end = Math.min(start + PART_BYTES, size);
        const PartNumber = parts.length + 1;
        const { ETag } = await this.#client.send(
          new UploadPartCommand({
            ...target,
            UploadId,
            PartNumber,
            ContentLength: end - start,
            Body:
              end > start ? fs.createReadStream(file, { start, end: end - 1 }) : Buffer.alloc(0),
          }),
        );
        parts.push({ ETag, PartNumber });
        start = end;
      } while (start < size);
      await this.#client.send(
        new CompleteMultipartUploadCommand({
          ...target,
          UploadId,
          MultipartUpload: { Parts: parts },
        }),
      );
    } catch (err) {
      await this.#client
        .send(new AbortMultipartUploadCommand({ ...target, UploadId }))
        .catch(() => undefined);
      throw err;
    }
  }

  async exists(key: string) {
    return (await this.modifiedMs(key)) !== undefined;
  }

  async get(key: string) {
    assertKey(key);
    try {
      const object = await this.#client.send(
        new GetObjectCommand({ Bucket: this.#bucket, Key: key }),
      );
      return object.Body ? Buffer.from(await object.Body.transformToByteArray()) : undefined;
    } catch (err) {
      const status = (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
      if (status === 404 || (err as { name?: string }).name === 'NoSuchKey') return undefined;
      throw err;
    }
  }

  async modifiedMs(key: string) {
    assertKey(key);
    try {
      const head = await this.#client.send(
        new HeadObjectCommand({ Bucket: this.#bucket, Key: key }),
      );
      return head.LastModified?.getTime() ?? 0;
    } catch (err) {
      if ((err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) {
        return undefined;
      }
      throw err;
    }
  }

  async delete(key: string) {
    assertKey(key);
    await this.#client.send(new DeleteObjectCommand({ Bucket: this.#bucket, Key: key }));
  }

  url(key: string) {
    return `${this.#publicUrl}/${key}`;
  }

  async *list(): AsyncIterable<StoredEntry> {
    let token: string | undefined;
    do {
      const page = await this.#client.send(
        new ListObjectsV2Command({ Bucket: this.#bucket, ContinuationToken: token }),
      );
      for (const object of page.Contents ?? []) {
        if (object.Key && KEY.test(object.Key)) {
          yield { key: object.Key, modifiedMs: object.LastModified?.getTime() ?? Date.now() };
        }
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  keyOf(url: string) {
    const prefix = `${this.#publicUrl}/`;
    return url.startsWith(prefix) ? url.slice(prefix.length) : undefined;
  }

  destroy() {
    this.#client.destroy();
  }
}

export function createStore(config: MediaConfig): MediaStore {
  return config.store === 'local' ? new LocalStore(config.dir) : new S3Store(config);
}

/** The origins media load from besides this server: object storage's public URL, if used. */
export function mediaOrigins(config: { media: MediaConfig }): string[] {
  return config.media.store === 's3' ? [new URL(config.media.publicUrl).origin] : [];
}
