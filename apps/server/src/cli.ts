/**
 * The operator's command-line tool: `npm run admin -- <command>`. It reads the same environment
 * as the server (DATA_DIR, DATABASE_URL, …) and works while the server runs.
 */
import path from 'node:path';
import { Command, CommanderError, Option } from 'commander';
import { z } from 'zod';
import { ConfigError, loadConfig } from './config.ts';
import { openDatabase, type DatabaseHandle } from './db/connect.ts';
import { migrateToLatest } from './db/migrate.ts';
import { Redis } from 'ioredis';
import { DatabaseCounters, LoginThrottle, RedisCounters } from './auth/throttle.ts';
import { revokeSessionsOf } from './auth/sessions.ts';
import { resetFactors } from './auth/second-factor.ts';
import { generatedPassword, type PasswordOwner } from './auth/passwords.ts';
import { EMAIL_ADDRESS } from '@master-admin/contract';
import { passwordStrength } from '@master-admin/contract/password-strength';
import { createBackOfficeAccount, setPassword } from './features/accounts/service.ts';
import { BENCH_AREAS } from './seed/bench.ts';
import { existingContent, seedDemo } from './seed/demo.ts';
import { MediaService } from './media/service.ts';
import { createStore } from './media/store.ts';
import { checkList, rebuildList } from './db/list-structures.ts';
import { structureOf } from './db/lists.ts';
import { ALL_LISTS } from './features/lists.ts';
import { checkTrendCounts } from './features/dashboard/trend-counts.ts';
import { checkTopDownloads } from './features/dashboard/top-downloads.ts';
import { BackupError, restoreBackup, takeBackup } from './backup.ts';

/** A refusal the operator can act on: printed as is, exit code 1, no stack. */
class CliError extends Error {}

// The address rule of the API, so every account it can make is one this tool can name.
const email = z.string().regex(EMAIL_ADDRESS, 'is not an email address');
const password = z
  .string()
  .min(8, 'must be at least 8 characters')
  .max(128, 'must be at most 128 characters');

function check<T>(schema: z.ZodType<T>, value: unknown, option: string): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success)
    throw new CliError(`${option} ${parsed.error.issues[0]?.message ?? 'is invalid'}`);
  return parsed.data;
}

/** Opens the configured database with its schema up to date, runs `work`, and closes it. */
async function withDatabase<T>(work: (handle: DatabaseHandle) => Promise<T>): Promise<T> {
  const handle = openDatabase(loadConfig().database);
  try {
    await migrateToLatest(handle);
    return await work(handle);
  } finally {
    await handle.close();
  }
}

function findBackOfficeAccount(handle: DatabaseHandle, address: string) {
  return handle.db
    .selectFrom('accounts')
    .select(['id', 'email', 'name', 'phoneNumber', 'role'])
    .where('role', '!=', 'USER')
    .where((eb) => eb(eb.fn('lower', ['email']), '=', address.toLowerCase()))
    .executeTakeFirst();
}

/** Runs `work` with the sign-in throttle where the server keeps it: Redis when set, else the database. */
async function withThrottle(
  handle: DatabaseHandle,
  work: (throttle: LoginThrottle) => Promise<void>,
): Promise<void> {
  const config = loadConfig();
  const redis = config.redisUrl ? new Redis(config.redisUrl, { lazyConnect: true }) : undefined;
  try {
    const windowMs = config.login.windowMinutes * 60_000;
    await work(
      new LoginThrottle(
        redis ? new RedisCounters(redis, windowMs) : new DatabaseCounters(handle.db, windowMs),
        config.login,
      ),
    );
  } finally {
    redis?.disconnect();
  }
}

/**
 * A password given with --password, checked as the API checks a new one (the strength rule,
 * with the account's email and name as what it must not be built from).
 */
async function chosenPassword(value: string, owner: PasswordOwner): Promise<string> {
  const secret = check(password, value, '--password');
  const { ok, reason } = await passwordStrength(secret, owner);
  if (!ok) throw new CliError(`--password is refused: ${reason ?? 'too easy to guess'}`);
  return secret;
}

const megabytes = (bytes: number) => `${(bytes / 1_048_576).toFixed(1)} MB`;

export function buildCli(): Command {
  const program = new Command('admin')
    .description('Master Admin operator tool. Reads the same environment variables as the server.')
    .exitOverride()
    .configureOutput({ outputError: (text, write) => write(text) });

  program
    .command('create-admin')
    .description('Adds a SUPER_ADMIN account.')
    .requiredOption('--email <email>', 'the email to sign in with')
    .option('--password <password>', 'its password (default: a random one, printed once)')
    .option('--name <name>', 'its display name', 'Admin')
    .action(async (opts: { email: string; password?: string; name: string }) => {
      const address = check(email, opts.email.trim(), '--email');
      const secret =
        opts.password === undefined
          ? await generatedPassword()
          : await chosenPassword(opts.password, { email: address, name: opts.name });
      await withDatabase(async (handle) => {
        if (await findBackOfficeAccount(handle, address)) {
          throw new CliError(`An account with the email ${address} already exists.`);
        }
        const id = await createBackOfficeAccount(handle.db, {
          role: 'SUPER_ADMIN',
          email: address,
          password: secret,
          name: opts.name,
        });
        console.log(`Created the SUPER_ADMIN account ${address} (id ${id}).`);
        if (opts.password === undefined) console.log(`Password (shown only this once): ${secret}`);
      });
    });

  program
    .command('reset-password')
    .description(
      "Sets a back-office account's password, signs it out everywhere and lifts its sign-in lock.",
    )
    .requiredOption('--email <email>', 'the account’s email')
    .option('--password <password>', 'the new password (default: a random one, printed once)')
    .action(async (opts: { email: string; password?: string }) => {
      const address = check(email, opts.email.trim(), '--email');
      await withDatabase(async (handle) => {
        const account = await findBackOfficeAccount(handle, address);
        if (!account) throw new CliError(`No back-office account has the email ${address}.`);
        const secret =
          opts.password === undefined
            ? await generatedPassword()
            : await chosenPassword(opts.password, account);
        await setPassword(handle.db, account.id, secret);
        await revokeSessionsOf(handle.db, account.id);
        await withThrottle(handle, (throttle) => throttle.clearAccount(account.id));
        console.log(
          `Set the password of ${account.email} (${account.role}); its sessions are signed out.`,
        );
        if (opts.password === undefined) console.log(`Password (shown only this once): ${secret}`);
      });
    });

  program
    .command('reset-factors')
    .description(
      "Removes a back-office account's second factors (authenticator app, recovery codes, " +
        'passkeys), signs it out everywhere and lifts its sign-in locks.',
    )
    .requiredOption('--email <email>', 'the account’s email')
    .action(async (opts: { email: string }) => {
      const address = check(email, opts.email.trim(), '--email');
      await withDatabase(async (handle) => {
        const account = await findBackOfficeAccount(handle, address);
        if (!account) throw new CliError(`No back-office account has the email ${address}.`);
        const removed = await handle.db.transaction().execute(async (trx) => {
          const result = await resetFactors(trx, account.id);
          // Recorded as the account's own entry: no one signed in made it.
          await trx
            .insertInto('auditLog')
            .values({
              accountId: account.id,
              ip: null,
              device: 'npm run admin reset-factors',
              area: account.role === 'STAFF' ? 'staff' : 'auth',
              rowId: account.id,
              action: 'FACTORS_RESET',
              changes: JSON.stringify([
                { field: 'totp', old: result.totp, new: false },
                { field: 'passkeys', old: result.passkeys, new: 0 },
              ]),
              createdAt: new Date().toISOString(),
            })
            .execute();
          return result;
        });
        await withThrottle(handle, (throttle) => throttle.clearAccount(account.id));
        const what = [
          removed.totp ? 'its authenticator app and recovery codes' : undefined,
          removed.passkeys > 0
            ? `${removed.passkeys} passkey${removed.passkeys === 1 ? '' : 's'}`
            : undefined,
        ].filter(Boolean);
        console.log(
          what.length > 0
            ? `Removed ${what.join(' and ')} of ${account.email} (${account.role}); its sessions are signed out.`
            : `${account.email} (${account.role}) had no second factor; its sessions are signed out.`,
        );
      });
    });

  program
    .command('migrate')
    .description('Brings the database schema up to date (the server also does this at start).')
    .action(async () => {
      const handle = openDatabase(loadConfig().database);
      try {
        const applied = await migrateToLatest(handle);
        console.log(
          applied.length === 0
            ? 'The database schema is up to date.'
            : `Applied ${applied.length} migration(s): ${applied.join(', ')}`,
        );
      } finally {
        await handle.close();
      }
    });

  program
    .command('backup')
    .description(
      'Copies the database, the media files (local or S3) and the generated token secret into ' +
        '<dir>, while the server runs. PostgreSQL needs pg_dump.',
    )
    .argument('<dir>', 'a new or empty folder')
    .action(async (dir: string) => {
      const started = Date.now();
      const { database, media, jwtSecret } = await takeBackup(loadConfig(), dir);
      const target = path.resolve(dir);
      const what = [
        `the ${database.kind === 'sqlite' ? 'SQLite database (integrity ok)' : 'PostgreSQL database (pg_dump)'}, ${megabytes(database.bytes)}`,
        `${media.files} media files, ${megabytes(media.bytes)}`,
        ...(jwtSecret ? ['the token secret'] : []),
      ];
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      console.log(`Backed up ${what.join('; ')} to ${target} in ${seconds} s.`);
      if (media.missing.length > 0) {
        throw new CliError(
          `The database names ${media.missing.length} media file(s) the media store does not have, so the backup lacks them too (listed in backup.json):\n` +
            media.missing.map(({ key, namedBy }) => `  ${key} (${namedBy})`).join('\n'),
        );
      }
    });

  program
    .command('restore')
    .description(
      'Fills an empty data folder (and an empty PostgreSQL database, or an empty bucket with ' +
        'MEDIA_STORE=s3) from a folder that backup wrote. PostgreSQL needs pg_restore.',
    )
    .argument('<dir>', 'the backup folder')
    .action(async (dir: string) => {
      const started = Date.now();
      const config = loadConfig();
      const { manifest, files, bytes } = await restoreBackup(config, dir);
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      const where = config.database.kind === 'sqlite' ? config.database.file : 'PostgreSQL';
      console.log(
        `Restored the backup of ${manifest.createdAt} (${files} media files, ${megabytes(bytes)}${manifest.jwtSecret ? ', the token secret' : ''}) into ${where} in ${seconds} s. The server brings the schema up to date at start.`,
      );
      if (manifest.media.missing.length > 0) {
        console.log(
          `The backup lacks ${manifest.media.missing.length} media file(s) its database names (listed in its backup.json).`,
        );
      }
    });

  program
    .command('check-lists')
    .description("Compares every list's kept counts and search index with its table.")
    .action(async () => {
      await withDatabase(async (handle) => {
        const problems: string[] = [];
        for (const list of ALL_LISTS) {
          problems.push(...(await checkList(handle.db, handle.dialect, structureOf(list))));
        }
        problems.push(...(await checkTrendCounts(handle.db, handle.dialect)));
        problems.push(...(await checkTopDownloads(handle.db, handle.dialect)));
        if (problems.length > 0) {
          throw new CliError(
            `${problems.join('\n')}\nRun npm run admin -- rebuild-lists to rebuild them.`,
          );
        }
        console.log(
          `Every list (${ALL_LISTS.length}) agrees with its table, and the trends' daily counts and the top lists' downloads with theirs.`,
        );
      });
    });

  program
    .command('rebuild-lists')
    .description("Rebuilds every list's kept counts and search index from its table.")
    .action(async () => {
      await withDatabase(async (handle) => {
        for (const list of ALL_LISTS) {
          await rebuildList(handle.db, handle.dialect, structureOf(list));
        }
        console.log(`Rebuilt the counts and search indexes of ${ALL_LISTS.length} lists.`);
      });
    });

  program
    .command('demo')
    .description(
      'Fills an empty database with a demo festival-poster business: apps, categories, a year of ' +
        'special days, posters, videos, users, banners, blogs, pages, FAQs, notifications, ' +
        'enquiries and two staff members.',
    )
    .option('--force', 'add the demo rows that are missing even when the database has content')
    .addOption(
      // Fewer rows of every kind, for the tests.
      new Option('--size <size>', 'how much to make')
        .choices(['full', 'small'])
        .default('full')
        .hideHelp(),
    )
    .action(async (opts: { force?: boolean; size: 'full' | 'small' }) => {
      const config = loadConfig();
      await withDatabase(async (handle) => {
        const content = await existingContent(handle.db);
        if (content.length > 0 && !opts.force) {
          throw new CliError(
            `The database already has content (${content.join(', ')}), so demo adds nothing. ` +
              'Run it with --force to add the demo rows that are missing anyway (nothing that ' +
              'exists is changed).',
          );
        }
        const started = Date.now();
        const media = new MediaService(handle.db, await createStore(config.media), {
          maxImagePixels: config.uploads.maxImagePixels,
        });
        const { added, staff } = await seedDemo(handle.db, media, { size: opts.size });
        const seconds = ((Date.now() - started) / 1000).toFixed(1);
        const rows = Object.entries(added).map(([area, n]) => `${n} ${area}`);
        console.log(
          rows.length === 0
            ? `Every demo row is there already; nothing added (${seconds} s).`
            : `Added the demo in ${seconds} s: ${rows.join(', ')}.`,
        );
        for (const member of staff) {
          console.log(
            member.password === undefined
              ? `Staff ${member.email} (${member.name}) was there already; its password is unchanged.`
              : `Staff ${member.email} (${member.name}, ${member.menus.join(', ')}): password (shown only this once): ${member.password}`,
          );
        }
      });
    });

  program
    .command('seed-bench')
    .description('Adds generated rows to an area, in bulk, for benchmarks (npm run bench).')
    .requiredOption('--area <area>', `the area to fill: ${Object.keys(BENCH_AREAS).join(', ')}`)
    .option('--rows <n>', 'how many rows to add', '1000000')
    .option('--history-rows <n>', 'users: how many login-history rows to add (default: --rows)')
    .option('--wallet-rows <n>', 'users: how many wallet rows to add (default: --rows)')
    .option('--copy-rows <n>', 'PostgreSQL: rows per COPY statement (for measuring the load)')
    .action(
      async (opts: {
        area: string;
        rows: string;
        historyRows?: string;
        walletRows?: string;
        copyRows?: string;
      }) => {
        const area = BENCH_AREAS[opts.area];
        if (!area) {
          throw new CliError(
            `--area must be one of ${Object.keys(BENCH_AREAS).join(', ')} (got ${opts.area}).`,
          );
        }
        const count = (value: string | undefined, name: string) =>
          value === undefined
            ? undefined
            : check(z.coerce.number().int().min(1).max(1_000_000_000), value, name);
        const rows = count(opts.rows, '--rows')!;
        const sizes = {
          rows,
          historyRows: count(opts.historyRows, '--history-rows'),
          walletRows: count(opts.walletRows, '--wallet-rows'),
        };
        const copyRows = count(opts.copyRows, '--copy-rows');
        const database = loadConfig().database;
        await withDatabase(async (handle) => {
          const started = Date.now();
          // Each table's progress every tenth, and its rate when it is in.
          const tables = new Map<string, { started: number; shown: number }>();
          await area.seed(
            {
              handle,
              pgUrl: database.kind === 'postgres' ? database.url : undefined,
              copyRows,
            },
            sizes,
            (table, done, total) => {
              let seen = tables.get(table);
              if (!seen) tables.set(table, (seen = { started: Date.now(), shown: 0 }));
              if (done - seen.shown < total / 10 && done !== total) return;
              seen.shown = done;
              const seconds = (Date.now() - seen.started) / 1000;
              process.stdout.write(
                `  ${table}: ${done.toLocaleString('en')} / ${total.toLocaleString('en')}` +
                  (done === total
                    ? ` in ${seconds.toFixed(1)} s (${Math.round(done / Math.max(seconds, 0.001)).toLocaleString('en')} rows/s)\n`
                    : '\n'),
              );
            },
          );
          const seconds = ((Date.now() - started) / 1000).toFixed(1);
          console.log(
            `Added ${rows.toLocaleString('en')} ${opts.area} (${area.description}) in ${seconds} s.`,
          );
        });
      },
    );

  return program;
}

async function main() {
  try {
    await buildCli().parseAsync(process.argv);
  } catch (err) {
    if (err instanceof CommanderError) {
      // Commander has printed the usage or the problem already.
      process.exitCode = err.exitCode;
      return;
    }
    if (err instanceof CliError || err instanceof ConfigError || err instanceof BackupError) {
      console.error(err.message);
    } else {
      console.error(`Failed: ${err instanceof Error ? err.message : String(err)}`);
    }
    process.exitCode = 1;
  }
}

await main();
