/**
 * App keys (API.md "Apps API"): every call of the apps API names its master app with
 * `X-App-Key`. A key is not a secret (it ships inside the app): it identifies. A rotation makes a
 * new key and lets the old one work for APP_KEY_GRACE_HOURS more, so installed apps keep working
 * while an update with the new key rolls out.
 */
import { APP_KEY_GRACE_HOURS } from '@master-admin/contract';
import type { Db } from '../../db/connect.ts';
import { now } from '../../db/dialect.ts';
import { newAppKey } from '../../db/migrations/0027-apps-api.ts';

/** How long an instance trusts a key it looked up; a retired key's end is checked on each call. */
const KEPT_MS = 30_000;
const MAX_KEPT = 10_000;

export type AppKeyRow = { key: string; createdAt: string; retiresAt: string | null };

/** The master app behind each key, looked up once per KEPT_MS per instance. */
export class AppKeys {
  readonly #db: Db;
  readonly #kept = new Map<
    string,
    { masterAppId: number; retiresAt: string | null; until: number }
  >();

  constructor(db: Db) {
    this.#db = db;
  }

  /** The master app `key` names, or undefined when no working key is `key`. */
  async appOf(key: string): Promise<number | undefined> {
    const at = Date.now();
    let kept = this.#kept.get(key);
    if (!kept || kept.until <= at) {
      const row = await this.#db
        .selectFrom('appKeys')
        .select(['masterAppId', 'retiresAt'])
        .where('key', '=', key)
        .executeTakeFirst();
      if (!row) return undefined;
      if (this.#kept.size >= MAX_KEPT) this.#kept.clear();
      kept = { masterAppId: row.masterAppId, retiresAt: row.retiresAt, until: at + KEPT_MS };
      this.#kept.set(key, kept);
    }
    if (kept.retiresAt !== null && Date.parse(kept.retiresAt) <= at) return undefined;
    return kept.masterAppId;
  }

  /** Forgets what this instance kept (a rotation here; another instance's is 24 h away anyway). */
  forget() {
    this.#kept.clear();
  }
}

/** The app's current key and the one it replaced while that still works. */
export async function keysOf(db: Db, masterAppId: number) {
  const rows = await db
    .selectFrom('appKeys')
    .select(['key', 'createdAt', 'retiresAt'])
    .where('masterAppId', '=', masterAppId)
    .where((eb) => eb.or([eb('retiresAt', 'is', null), eb('retiresAt', '>', now())]))
    .orderBy('createdAt', 'desc')
    .execute();
  const current = rows.find((r) => r.retiresAt === null);
  const previous = rows.find((r) => r.retiresAt !== null);
  return {
    current,
    previous: previous ? { key: previous.key, until: previous.retiresAt! } : null,
  };
}

/** Gives `masterAppId` a new key; the current one retires in APP_KEY_GRACE_HOURS (in `trx`). */
export async function rotateKey(trx: Db, masterAppId: number): Promise<string> {
  const at = now();
  const until = new Date(Date.parse(at) + APP_KEY_GRACE_HOURS * 3_600_000).toISOString();
  // A key retired earlier stops now: at most one old key works besides the current one.
  await trx
    .updateTable('appKeys')
    .set({ retiresAt: at })
    .where('masterAppId', '=', masterAppId)
    .where('retiresAt', '>', at)
    .execute();
  await trx
    .updateTable('appKeys')
    .set({ retiresAt: until })
    .where('masterAppId', '=', masterAppId)
    .where('retiresAt', 'is', null)
    .execute();
  return issueKey(trx, masterAppId, at);
}

/** A new current key for `masterAppId` (a new app's first). */
export async function issueKey(trx: Db, masterAppId: number, at = now()): Promise<string> {
  const key = newAppKey();
  await trx
    .insertInto('appKeys')
    .values({ key, masterAppId, createdAt: at, retiresAt: null })
    .execute();
  return key;
}
