/** Media in S3-compatible object storage (MEDIA_STORE=s3); see store.ts for the interface. */
import fs from 'node:fs';
import type { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import type { MediaConfig } from '../config.ts';
import { assertKey, KEY, type MediaStore, type StoredEntry } from './store.ts';

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
      // Bounded waits: a bucket that does not answer is a 503 within seconds, not a stalled
      // request (a part of a video is 16 MB: a minute is ample for it on any working link).
      requestHandler: { connectionTimeout: 2000, requestTimeout: 60_000 },
      maxAttempts: 2,
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

  /** The object under `key`, or undefined when there is none. */
  async #object(key: string) {
    assertKey(key);
    try {
      return await this.#client.send(new GetObjectCommand({ Bucket: this.#bucket, Key: key }));
    } catch (err) {
      const status = (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
      if (status === 404 || (err as { name?: string }).name === 'NoSuchKey') return undefined;
      throw err;
    }
  }

  async get(key: string) {
    const object = await this.#object(key);
    return object?.Body ? Buffer.from(await object.Body.transformToByteArray()) : undefined;
  }

  async open(key: string) {
    // On Node.js the body is a Readable.
    return (await this.#object(key))?.Body as Readable | undefined;
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

  async check(signal: AbortSignal) {
    await this.#client.send(new HeadBucketCommand({ Bucket: this.#bucket }), {
      abortSignal: signal,
    });
  }

  keyOf(url: string) {
    const prefix = `${this.#publicUrl}/`;
    return url.startsWith(prefix) ? url.slice(prefix.length) : undefined;
  }

  destroy() {
    this.#client.destroy();
  }
}
