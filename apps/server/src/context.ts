import type {} from 'fastify';
import type { Redis } from 'ioredis';
import type { Config } from './config.ts';
import type { Db, DatabaseHandle } from './db/connect.ts';
import type { Dialect } from './db/dialect.ts';
import type { Lists } from './db/lists.ts';
import type { LoginThrottle } from './auth/throttle.ts';
import type { MediaService } from './media/service.ts';
import type { EventBus } from './events/bus.ts';

/** What every route module needs, built once at start and shared. */
export interface AppContext {
  config: Config;
  database: DatabaseHandle;
  db: Db;
  dialect: Dialect;
  /** The one list mechanism (db/lists.ts). */
  lists: Lists;
  secret: Uint8Array;
  /** Shared counters (rate limits, sign-in throttling) when REDIS_URL is set. */
  redis: Redis | undefined;
  throttle: LoginThrottle;
  media: MediaService;
  /** Carries committed changes and presence to every instance's event streams (events/bus.ts). */
  events: EventBus;
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
}
