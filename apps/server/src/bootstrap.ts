import type { Config } from './config.ts';
import type { AppContext } from './context.ts';
import { openDatabase } from './db/connect.ts';
import { migrateToLatest } from './db/migrate.ts';
import { LoginThrottle } from './auth/throttle.ts';
import { loadSecret } from './auth/tokens.ts';
import { MediaService } from './media/service.ts';
import { createStore } from './media/store.ts';

/** Opens the database, brings its schema up to date and gathers what the routes share. */
export async function createContext(config: Config): Promise<AppContext> {
  const database = openDatabase(config.database);
  try {
    await migrateToLatest(database);
  } catch (err) {
    await database.close();
    throw err;
  }
  return {
    config,
    database,
    db: database.db,
    dialect: database.dialect,
    secret: loadSecret(config.jwtSecret, config.dataDir),
    throttle: new LoginThrottle(database.db, config.login),
    media: new MediaService(database.db, createStore(config.media), {
      maxImagePixels: config.uploads.maxImagePixels,
    }),
  };
}
