/**
 * Starts Master Admin: validates the configuration, migrates, creates the first admin if there is
 * none, and serves the API and the web app. SIGTERM and SIGINT drain it: see http/lifecycle.ts.
 */
import type { AddressInfo } from 'node:net';
import { ConfigError, loadConfig } from './config.ts';
import { createContext } from './bootstrap.ts';
import { buildApp } from './app.ts';
import { ensureFirstAdmin } from './features/accounts/service.ts';
import { exitOnSignals } from './http/lifecycle.ts';
import { startBanner } from './banner.ts';

async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  const ctx = await createContext(config);
  const created = await ensureFirstAdmin(ctx.db, config.admin);
  const app = await buildApp(ctx);

  exitOnSignals(app, config.shutdown);

  await app.listen({ port: config.port, host: config.host });
  // The first media sweep logs what it removed: before the banner, which must come last.
  await app.mediaSweeps.settled();
  // The log's writer retries a full pipe later: let Fastify's "listening" lines out first.
  await new Promise((resolve) => setTimeout(resolve, 100));
  const where = config.database.kind === 'sqlite' ? config.database.file : 'PostgreSQL';
  // One write: a reader of the pipe gets the whole banner at once.
  process.stdout.write(
    startBanner({ bound: app.server.address() as AddressInfo, data: where, firstAdmin: created }),
  );
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
