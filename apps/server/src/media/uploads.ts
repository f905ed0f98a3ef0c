/**
 * The one upload path. A route declares its file fields (`config.uploads`); each file part is
 * streamed to a temporary file while its size is counted and its first bytes checked, so nothing
 * is held whole in memory and a wrong or oversized file is refused before it is read to the end.
 * Handlers then take the checked upload with `upload(request, field)` and store it with
 * `MediaService.saveImage`. Temporary files are removed when the response is sent.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import { Transform } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { MultipartFile } from '@fastify/multipart';
import { HttpError, invalidField } from '../http/errors.ts';
import { sniffImage } from './images.ts';

export type UploadKind = 'image';

export type Upload = {
  field: string;
  /** The temporary file holding the upload. */
  path: string;
  size: number;
  kind: UploadKind;
};

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The multipart file fields this route takes, and what each must be. */
    uploads?: Record<string, UploadKind>;
  }
  interface FastifyRequest {
    uploads: Map<string, Upload> | undefined;
  }
}

const ACCEPTED: Record<UploadKind, string> = {
  image: 'Only JPEG, PNG, WebP or GIF images are accepted',
};

const megabytes = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;

/** Wires the multipart file handling; `limits` are the largest file of each kind in bytes. */
export function registerUploads(app: FastifyInstance, limits: Record<UploadKind, number>) {
  app.decorateRequest('uploads', undefined);
  const tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ma-uploads-'));
  app.addHook('onClose', async () => fs.rmSync(tmpDir, { recursive: true, force: true }));

  const cleanup = async (request: FastifyRequest) => {
    if (!request.uploads) return;
    await Promise.all(
      [...request.uploads.values()].map((u) => fs.promises.rm(u.path, { force: true })),
    );
    request.uploads = undefined;
  };
  app.addHook('onResponse', cleanup);
  app.addHook('onRequestAbort', cleanup);

  /** Called by @fastify/multipart for each file part, with `this` the request. */
  return async function onFile(this: FastifyRequest, part: MultipartFile) {
    return receive(this, part);
  };

  async function receive(request: FastifyRequest, part: MultipartFile) {
    const field = part.fieldname;
    const kind = request.routeOptions.config.uploads?.[field];
    if (!kind) {
      part.file.resume();
      throw new HttpError(400, `${field}: Files are not accepted here`, {
        details: [{ path: field, message: 'Files are not accepted here' }],
      });
    }
    if (request.uploads?.has(field)) {
      part.file.resume();
      throw invalidField(field, 'Send one file');
    }
    const limit = limits[kind];
    const file = path.join(tmpDir, randomBytes(12).toString('hex'));
    const uploads = (request.uploads ??= new Map());
    // Registered before writing, so the temporary file is removed whatever happens next.
    const upload: Upload = { field, path: file, size: 0, kind };
    uploads.set(field, upload);

    let head = Buffer.alloc(0);
    let checked = false;
    const check = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        upload.size += chunk.length;
        if (upload.size > limit) {
          done(
            new HttpError(413, `${field}: The file is too large (at most ${megabytes(limit)})`, {
              details: [
                { path: field, message: `The file is too large (at most ${megabytes(limit)})` },
              ],
            }),
          );
          return;
        }
        if (!checked) {
          head = Buffer.concat([head, chunk]);
          if (head.length >= 16) {
            checked = true;
            if (!sniffImage(head)) {
              done(unsupported(field, kind));
              return;
            }
          }
        }
        done(null, chunk);
      },
      flush(done) {
        if (!checked && !sniffImage(head)) {
          done(
            upload.size === 0 ? invalidField(field, 'The file is empty') : unsupported(field, kind),
          );
          return;
        }
        done();
      },
    });
    try {
      await pipeline(part.file, check, fs.createWriteStream(file, { flags: 'wx', mode: 0o600 }));
    } catch (err) {
      part.file.resume();
      throw err;
    }
    if (part.file.truncated) {
      throw new HttpError(413, `${field}: The file is too large (at most ${megabytes(limit)})`);
    }
  }
}

function unsupported(field: string, kind: UploadKind) {
  return new HttpError(415, `${field}: ${ACCEPTED[kind]}`, {
    details: [{ path: field, message: ACCEPTED[kind] }],
  });
}

/** The checked upload in `field`; a 400 naming the field when a required one is missing. */
export function upload(request: FastifyRequest, field: string, required: true): Upload;
export function upload(
  request: FastifyRequest,
  field: string,
  required?: false,
): Upload | undefined;
export function upload(request: FastifyRequest, field: string, required = false) {
  const found = request.uploads?.get(field);
  if (!found && required) throw invalidField(field, 'Required: attach a file');
  return found;
}

type JsonSchemaObject = {
  type?: string;
  properties?: Record<string, unknown>;
  required?: string[];
};

/**
 * The route's OpenAPI schema with its file fields in the body, as multipart/form-data: the body
 * schema validates only the other fields (files never reach it), so the document adds them.
 */
export function documentUploads<T extends { consumes?: readonly string[]; body?: unknown }>(
  schema: T,
  uploads: Record<string, UploadKind> | undefined,
): T {
  if (!uploads) return schema;
  const body = (schema.body ?? { type: 'object', properties: {} }) as JsonSchemaObject;
  const files = Object.fromEntries(
    Object.entries(uploads).map(([field, kind]) => [
      field,
      { type: 'string', format: 'binary', description: ACCEPTED[kind] },
    ]),
  );
  return {
    ...schema,
    consumes: schema.consumes ?? ['multipart/form-data'],
    body: { ...body, type: 'object', properties: { ...body.properties, ...files } },
  };
}
