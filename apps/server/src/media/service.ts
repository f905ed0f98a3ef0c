/**
 * Storing checked uploads and letting go of files no row uses any more. Rows keep media keys;
 * responses carry `store.url(key)`.
 */
import { sql } from 'kysely';
import type { Db } from '../db/connect.ts';
import { HttpError } from '../http/errors.ts';
import { mediaPrefixes } from '../http/rich-text.ts';
import { ImageRefused, processImage, thumbOf } from './images.ts';
import { KEY, type MediaStore } from './store.ts';
import type { Upload } from './uploads.ts';
import { VIDEO_FORMATS, videoKey, type VideoFormat } from './videos.ts';

/**
 * Every column that holds a media key, as `table.column` in the database's own (snake_case)
 * names. A file is removed only when none of them still names it.
 */
export const MEDIA_COLUMNS: ReadonlyArray<readonly [table: string, column: string]> = [
  ['banners', 'image'],
  ['blogs', 'image'],
  ['settings', 'logo'],
  ['notifications', 'logo'],
  ['posters', 'poster'],
  ['posters', 'video_thumb'],
  ['videos', 'video'],
  ['user_details', 'profile'],
  ['user_details', 'top'],
  ['user_details', 'bottom'],
  ['user_images', 'image'],
  // A trashed row's files (features/trash): in use until the row is purged.
  ['trash_media', 'key'],
];

/** Rich-text columns: an image of this app's media inside a body also keeps its file. */
export const RICH_TEXT_COLUMNS: ReadonlyArray<readonly [table: string, column: string]> = [
  ['blogs', 'desc'],
  ['pages', 'desc'],
];

/**
 * Every media key the rows of `db` name, each with the first `table.column` naming it: the media
 * columns, and the keys after this store's URL prefix inside rich text. What a backup of that database must hold.
 */
export async function namedMediaKeys(
  db: Db,
  store: Pick<MediaStore, 'url'>,
): Promise<Map<string, string>> {
  const named = new Map<string, string>();
  const name = (key: string, table: string, column: string) => {
    if (!named.has(key)) named.set(key, `${table}.${column}`);
  };
  for (const [table, column] of MEDIA_COLUMNS) {
    const rows = await sql<{
      key: string;
    }>`select distinct ${sql.ref(column)} as key from ${sql.table(table)} where ${sql.ref(column)} is not null`.execute(
      db,
    );
    for (const { key } of rows.rows) name(key, table, column);
  }
  for (const prefix of mediaPrefixes(store)) {
    for (const [table, column] of RICH_TEXT_COLUMNS) {
      const rows = await sql<{
        body: string;
      }>`select ${sql.ref(column)} as body from ${sql.table(table)} where ${sql.ref(column)} like ${`%${prefix}%`}`.execute(
        db,
      );
      for (const { body } of rows.rows) {
        for (const after of body.split(prefix).slice(1)) {
          const key = /^[a-z0-9./-]+/.exec(after)?.[0];
          if (key !== undefined && KEY.test(key)) name(key, table, column);
        }
      }
    }
  }
  return named;
}

export class MediaService {
  readonly store: MediaStore;
  readonly #db: Db;
  readonly #maxPixels: number;
  /** Where a file left for the sweep is reported: the app's logger once it has one. */
  log: { warn(details: object, message: string): void } = {
    warn: (details, message) => console.warn(message, details),
  };

  constructor(db: Db, store: MediaStore, options: { maxImagePixels: number }) {
    this.#db = db;
    this.store = store;
    this.#maxPixels = options.maxImagePixels;
  }

  /**
   * Decodes, re-encodes and stores an uploaded image and its thumbnail under `folder`; resolves
   * with the key once both are completely stored.
   */
  async saveImage(upload: Upload, folder: string): Promise<string> {
    let image;
    try {
      image = await processImage(upload.path, this.#maxPixels);
    } catch (err) {
      if (err instanceof ImageRefused) {
        throw new HttpError(err.statusCode, `${upload.field}: ${err.message}`, {
          details: [{ path: upload.field, message: err.message }],
        });
      }
      throw err;
    }
    const key = `${folder}/${image.hash.slice(0, 2)}/${image.hash}.webp`;
    // Stored again even when present: a concurrent release may be removing the same file.
    await this.store.put(thumbOf(key), image.thumb, 'image/webp');
    await this.store.put(key, image.main, 'image/webp');
    return key;
  }

  /**
   * Stores an uploaded video as it is, under its content hash (computed while it streamed in),
   * streamed from its temporary file; resolves with the key once it is completely stored.
   */
  async saveVideo(upload: Upload): Promise<string> {
    const format = upload.format as VideoFormat | undefined;
    if (upload.kind !== 'video' || !format || !(format in VIDEO_FORMATS) || !upload.hash) {
      throw new Error(`not a checked video upload: ${upload.field}`);
    }
    const key = videoKey(upload.hash, format);
    // Stored again even when present: a concurrent release may be removing the same file.
    await this.store.putFile(key, upload.path, VIDEO_FORMATS[format].contentType);
    return key;
  }

  url(key: string): string;
  url(key: string | null): string | null;
  url(key: string | null) {
    return key === null ? null : this.store.url(key);
  }

  /**
   * Removes the files of `keys` that no row names any more. Call it after the transaction that
   * dropped the references has committed. It never fails: the change it follows is done, and its
   * answer must say so (API.md, Operations); a file it could not remove (the bucket or the
   * database not answering) is an orphan the sweep removes later (media/housekeeping.ts), never a
   * row without its file; `log` hears of it.
   */
  async release(keys: Array<string | null | undefined>): Promise<void> {
    try {
      for (const key of new Set(keys.filter((k): k is string => typeof k === 'string'))) {
        if (await this.isUsed(key)) continue;
        // Images have a thumbnail beside them; other files (videos) do not.
        const thumb = thumbOf(key);
        await Promise.all([
          this.store.delete(key),
          thumb === key ? undefined : this.store.delete(thumb),
        ]);
      }
    } catch (err) {
      this.log.warn({ err }, 'files no row names were left for the sweep');
    }
  }

  /** The keys among `keys` that some row names (a media column, or inside rich text). */
  async usedAmong(keys: readonly string[]): Promise<Set<string>> {
    const used = new Set<string>();
    if (keys.length === 0) return used;
    for (const [table, column] of MEDIA_COLUMNS) {
      const rows = await sql<{
        key: string;
      }>`select ${sql.ref(column)} as key from ${sql.table(table)} where ${sql.ref(column)} in (${sql.join(keys)})`.execute(
        this.#db,
      );
      for (const row of rows.rows) used.add(row.key);
    }
    // Rich text is read once for the whole batch: each body is searched for every key.
    for (const [table, column] of RICH_TEXT_COLUMNS) {
      const rows = await sql<{
        body: string;
      }>`select ${sql.ref(column)} as body from ${sql.table(table)} where ${sql.ref(column)} like ${'%/media/%'} or ${sql.ref(column)} like ${'%://%'}`.execute(
        this.#db,
      );
      for (const { body } of rows.rows) {
        for (const key of keys) if (body.includes(key)) used.add(key);
      }
    }
    return used;
  }

  async isUsed(key: string): Promise<boolean> {
    for (const [table, column] of MEDIA_COLUMNS) {
      const row = await sql<{
        one: number;
      }>`select 1 as one from ${sql.table(table)} where ${sql.ref(column)} = ${key} limit 1`.execute(
        this.#db,
      );
      if (row.rows.length > 0) return true;
    }
    // Keys hold only [a-z0-9./-], so they are safe inside a LIKE pattern.
    for (const [table, column] of RICH_TEXT_COLUMNS) {
      const row = await sql<{
        one: number;
      }>`select 1 as one from ${sql.table(table)} where ${sql.ref(column)} like ${`%${key}%`} limit 1`.execute(
        this.#db,
      );
      if (row.rows.length > 0) return true;
    }
    return false;
  }
}
