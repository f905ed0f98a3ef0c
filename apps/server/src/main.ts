/**
 * Starts Master Admin: validates the configuration, migrates, creates the first admin if there is
 * none, and serves the API and the web app. SIGTERM and SIGINT drain it: see http/lifecycle.ts.
 */
import { ConfigError, loadConfig } from './config.ts';
import { createContext } from './bootstrap.ts';
import { buildApp } from './app.ts';
import { ensureFirstAdmin } from './features/accounts/service.ts';
import { exitOnSignals } from './http/lifecycle.ts';

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

  const address = await app.listen({ port: config.port, host: config.host });
  // The log's writer retries a full pipe later: let Fastify's "listening" lines out first, so the
  // banner (with the first sign-in details) is what the terminal shows last.
  await new Promise((resolve) => setTimeout(resolve, 100));
  // The port really bound (PORT=0 picks a free one).
  const port = new URL(address).port || '80';
  const where = config.database.kind === 'sqlite' ? config.database.file : 'PostgreSQL';
  const url = `http://localhost:${port}`;
  console.log(`\nMaster Admin is running at ${url} (listening on ${address}; data: ${where})`);
  if (created) {
    console.log(`First start: created the SUPER_ADMIN account ${created.email}`);
    if (created.password) {
      console.log(`  Password (shown only this once): ${created.password}`);
      console.log('  Change it under Account after signing in.');
    }
  }
  console.log(`API documentation: ${url}/api/docs\n`);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
