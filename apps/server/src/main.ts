/**
 * Starts Master Admin: validates the configuration, migrates, creates the first admin if there is
 * none, and serves the API and the web app. SIGTERM and SIGINT drain it: see http/lifecycle.ts.
 */
import type { AddressInfo } from 'node:net';
import { ConfigError, loadConfig } from './config.ts';

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
  // The server's modules load once the configuration is known good: a bad variable is named at once.
  const [
    { createContext },
    { buildApp },
    { ensureFirstAdmin },
    { exitOnSignals },
    { startBanner },
  ] = await Promise.all([
    import('./bootstrap.ts'),
    import('./app.ts'),
    import('./features/accounts/service.ts'),
    import('./http/lifecycle.ts'),
    import('./banner.ts'),
  ]);
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
