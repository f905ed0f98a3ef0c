import type { Config } from './config.ts';
import type { AppContext } from './context.ts';
import { openDatabase } from './db/connect.ts';
import { migrateToLatest } from './db/migrate.ts';
import { Lists } from './db/lists.ts';
import { Cursors } from './db/list-keyset.ts';
import { Redis } from 'ioredis';
import { DatabaseCounters, LoginThrottle, RedisCounters } from './auth/throttle.ts';
import { loadSecret } from './auth/tokens.ts';
import { MediaService } from './media/service.ts';
import { createStore } from './media/store.ts';
import { LocalBus, PgBus } from './events/bus.ts';

/** Opens the database, brings its schema up to date and gathers what the routes share. */
export async function createContext(config: Config): Promise<AppContext> {
  // Migrations first, unbounded (an index built on millions of rows, another instance starting at
  // the same moment and holding the migration lock); then the server's bounded connections.
  const migrating = openDatabase(config.database, { readers: 1 });
  try {
    await migrateToLatest(migrating);
  } finally {
    await migrating.close();
  }
  const database = openDatabase(config.database, {
    bounds: {
      statementMs: config.requestDeadlineMs,
      lockMs: config.lockTimeoutMs,
      // A wait for a pooled connection is a part of the deadline, a few seconds at most.
      poolWaitMs: Math.min(5000, config.requestDeadlineMs),
    },
  });
  // A command while Redis does not answer fails at once (no queue, one second at most), so the
  // call that needs it answers 503 rather than waiting; the client reconnects by itself.
  const redis = config.redisUrl
    ? new Redis(config.redisUrl, {
        connectTimeout: 2000,
        commandTimeout: 1000,
        maxRetriesPerRequest: 0,
        enableOfflineQueue: false,
      })
    : undefined;
  // The first connection is opened before serving (for up to its connect time-out): else the
  // sign-ins that reach a just-started instance would meet it still opening, and answer 503.
  // Redis down at start delays nothing more: sign-in answers 503 until it is back.
  if (redis) await firstConnection(redis, 2000);
  const windowMs = config.login.windowMinutes * 60_000;
  const secret = loadSecret(config.jwtSecret, config.dataDir);
  return {
    config,
    redis,
    database,
    db: database.db,
    dialect: database.dialect,
    // Cursors are signed with the tokens' secret: one an instance hands out works on every other.
    lists: new Lists(database.db, database.reads, database.dialect, {
      cursors: new Cursors(secret),
    }),
    secret,
    throttle: new LoginThrottle(
      redis ? new RedisCounters(redis, windowMs) : new DatabaseCounters(database.db, windowMs),
      config.login,
    ),
    // PostgreSQL: every instance hears every other's changes; SQLite: one process.
    events: config.database.kind === 'postgres' ? new PgBus(config.database.url) : new LocalBus(),
    media: new MediaService(database.db, await createStore(config.media), {
      maxImagePixels: config.uploads.maxImagePixels,
    }),
  };
}

/** Resolves once `redis` is connected, or after `ms` whatever its state. */
function firstConnection(redis: Redis, ms: number): Promise<void> {
  if (redis.status === 'ready') return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      redis.off('ready', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    redis.once('ready', done);
  });
}
