/**
 * Where media files live: one interface, two implementations. Keys are made by the server
 * (content-addressed, see images.ts), never taken from a client.
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import {
  DeleteObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import type { MediaConfig } from '../config.ts';

export interface MediaStore {
  /** Stores `body` under `key`; when it resolves, the file is complete and readable. */
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  exists(key: string): Promise<boolean>;
  delete(key: string): Promise<void>;
  /** The URL a browser loads the file from. */
  url(key: string): string;
  /** The key behind a URL this store gave out, else undefined. */
  keyOf(url: string): string | undefined;
}

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

  async exists(key: string) {
    return fs.existsSync(this.#file(key));
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
}

export class S3Store implements MediaStore {
  readonly #client: S3Client;
  readonly #bucket: string;
  readonly #publicUrl: string;

  constructor(config: Extract<MediaConfig, { store: 's3' }>) {
    this.#client = new S3Client({
      region: config.region,
      endpoint: config.endpoint,
      forcePathStyle: config.forcePathStyle,
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

  async exists(key: string) {
    assertKey(key);
    try {
      await this.#client.send(new HeadObjectCommand({ Bucket: this.#bucket, Key: key }));
      return true;
    } catch (err) {
      if ((err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) {
        return false;
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
