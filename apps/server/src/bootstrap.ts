import type { Config } from './config.ts';
import type { AppContext } from './context.ts';
import { openDatabase } from './db/connect.ts';
import { migrateToLatest } from './db/migrate.ts';
import { Lists } from './db/lists.ts';
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
  const windowMs = config.login.windowMinutes * 60_000;
  return {
    config,
    redis,
    database,
    db: database.db,
    dialect: database.dialect,
    lists: new Lists(database.db, database.reads, database.dialect),
    secret: loadSecret(config.jwtSecret, config.dataDir),
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
