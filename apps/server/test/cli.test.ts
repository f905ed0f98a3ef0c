/**
 * The operator tool (`node src/cli.ts`) as a separate process, against the database of a running
 * server: what it prints, its exit code, and what the server then does.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { PATHS } from '@master-admin/contract';
import { ADMIN, TEST_DB, createPgDatabase, runCli, startServer } from './harness.ts';
import { signInCalls } from './second-factors.ts';

const s = await startServer();
afterAll(() => s.close());

const cli = (args: string[], env: Record<string, string> = s.env) => runCli(args, env);

const loginStatus = async (email: string, password: string, remoteAddress = '127.0.0.1') =>
  (
    await s.api({
      method: 'POST',
      url: '/auth/admin/login',
      payload: { email, password },
      remoteAddress,
    })
  ).statusCode;

const GENERATED = /Password \(shown only this once\): (\S+)/;

describe('create-admin', () => {
  it('adds a SUPER_ADMIN that can sign in with the given password', async () => {
    const r = await cli([
      'create-admin',
      '--email',
      'Second@Test.local',
      '--password',
      'violet-harbour-73',
    ]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Created the SUPER_ADMIN account Second@Test.local');
    expect(r.stdout).not.toMatch(/violet-harbour-73|shown only this once/);
    expect(await loginStatus('second@test.local', 'violet-harbour-73')).toBe(200);
    const row = await s.ctx.db
      .selectFrom('accounts')
      .select(['role', 'status'])
      .where('email', '=', 'Second@Test.local')
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ role: 'SUPER_ADMIN', status: 'ACTIVE' });
  });

  it('generates and prints a password once when none is given', async () => {
    const r = await cli(['create-admin', '--email', 'third@test.local']);
    expect(r.code).toBe(0);
    const password = GENERATED.exec(r.stdout)?.[1];
    expect(password).toBeDefined();
    expect(password!.length).toBeGreaterThanOrEqual(12);
    expect(await loginStatus('third@test.local', password!)).toBe(200);
  });

  it('takes every address the API takes (the same rule: &u@a.help is one)', async () => {
    const r = await cli([
      'create-admin',
      '--email',
      '&u@a.help',
      '--password',
      'violet-harbour-73',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(await loginStatus('&u@a.help', 'violet-harbour-73')).toBe(200);
  });

  it.each([
    [['--email', 'admin@TEST.local', '--password', 'violet-harbour-73'], /already exists/],
    [
      ['--email', 'not-an-email', '--password', 'violet-harbour-73'],
      /^--email is not an email address/,
    ],
    [['--email', 'short@test.local', '--password', 'short'], /^--password must be at least 8/],
    [
      ['--email', 'weak@test.local', '--password', 'password123'],
      /^--password is refused: Too easy to guess/,
    ],
    [
      ['--email', 'jordan.lee@test.local', '--password', 'jordan.lee!', '--name', 'Jordan'],
      /^--password is refused: Must not be built from the account’s name, email or phone/,
    ],
    [['--password', 'whatever-123'], /required option '--email <email>' not specified/],
  ])('refuses %j with a clear message and adds nothing', async (args, message) => {
    const before = await s.ctx.db
      .selectFrom('accounts')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const r = await cli(['create-admin', ...args]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    const after = await s.ctx.db
      .selectFrom('accounts')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });
});

describe('reset-password', () => {
  it('sets the password, signs the account out everywhere and lifts its sign-in lock', async () => {
    const staff = await s.staff();
    // Lock the account by failures from several addresses.
    for (let i = 0; i < s.config.login.maxFailures; i += 1) {
      await s.api({
        method: 'POST',
        url: '/auth/admin/login',
        remoteAddress: `10.0.0.${i + 1}`,
        payload: { email: staff.email, password: 'wrong-password' },
      });
    }
    // Locked for the addresses that failed.
    expect(await loginStatus(staff.email, staff.password, '10.0.0.1')).toBe(429);

    const r = await cli([
      'reset-password',
      '--email',
      staff.email.toUpperCase(),
      '--password',
      'fresh-pass-99',
    ]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`Set the password of ${staff.email} (STAFF)`);

    const old = await s.api({ method: 'GET', url: '/account/admin-detail', token: staff.token });
    expect(old.statusCode).toBe(401);
    expect(await loginStatus(staff.email, staff.password, '10.0.0.1')).toBe(401);
    expect(await loginStatus(staff.email, 'fresh-pass-99', '10.0.0.2')).toBe(200);
  });

  it('refuses a password too easy to guess and changes nothing', async () => {
    const r = await cli([
      'reset-password',
      '--email',
      'third@test.local',
      '--password',
      'qwerty123',
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^--password is refused: Too easy to guess/);
    expect(await loginStatus('third@test.local', 'qwerty123')).toBe(401);
  });

  it('prints a generated password when none is given', async () => {
    const r = await cli(['reset-password', '--email', 'third@test.local']);
    expect(r.code).toBe(0);
    const password = GENERATED.exec(r.stdout)?.[1];
    expect(await loginStatus('third@test.local', password!)).toBe(200);
  });

  it('refuses an unknown email and changes nothing', async () => {
    const r = await cli([
      'reset-password',
      '--email',
      'nobody@test.local',
      '--password',
      'whatever-123',
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('No back-office account has the email nobody@test.local.');
    expect(await loginStatus(ADMIN.email, ADMIN.password)).toBe(200);
  });
});

describe('reset-factors', () => {
  it('removes an account’s factors, signs it out everywhere, lifts its code lock; audited', async () => {
    const { staffWithTotp, challengeFor, verify } = signInCalls(s);
    const staff = await staffWithTotp();
    // Someone guessed at its codes: locked for everyone without a device token.
    const { challenge } = await challengeFor(staff.email, staff.password);
    for (let i = 0; i < s.config.login.maxFailures; i += 1) {
      await verify({ challenge, method: 'recovery', code: `aaaaa-aaaa${i}` });
    }
    await expect(s.ctx.throttle.beginCode('10.8.0.1', staff.id)).rejects.toMatchObject({
      statusCode: 429,
    });
    const r = await cli(['reset-factors', '--email', staff.email]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      `Removed its authenticator app and recovery codes of ${staff.email} (STAFF)`,
    );
    expect((await s.api({ url: PATHS.adminDetail, token: staff.token })).statusCode).toBe(401);
    await expect(s.ctx.throttle.beginCode('10.8.0.1', staff.id)).resolves.toBeDefined();
    // Its password alone signs in again.
    const again = await s.api({
      method: 'POST',
      url: PATHS.login,
      payload: { email: staff.email, password: staff.password },
    });
    expect(again.json()).toHaveProperty('token');
    const [entry] = await s.auditOf(staff.id, 'FACTORS_RESET');
    expect(entry).toMatchObject({
      area: 'staff',
      rowId: staff.id,
      device: 'npm run admin reset-factors',
    });

    const none = await cli(['reset-factors', '--email', staff.email]);
    expect(none.stdout).toContain(`${staff.email} (STAFF) had no second factor`);
    const unknown = await cli(['reset-factors', '--email', 'nobody@test.local']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('No back-office account has the email nobody@test.local.');
  });
});

describe('check-lists and rebuild-lists', () => {
  it('find kept counts and search entries out of step with the tables, and rebuild them', async () => {
    await s.api({
      method: 'POST',
      url: '/faqs',
      token: s.adminToken,
      payload: { question: 'Why?', answer: 'Because' },
    });
    expect(await cli(['check-lists'])).toMatchObject({
      code: 0,
      stdout: expect.stringContaining('agrees'),
    });
    // A change that bypassed the triggers: counts and index no longer agree with the table.
    await sql`update list_counts set n = n + 5 where list = 'faqs'`.execute(s.ctx.db);
    const broken = await cli(['check-lists']);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toMatch(/faqs set 0 \[.*\]: \d+ kept, \d+ in the table/);
    expect(broken.stderr).toContain('rebuild-lists');
    const rebuilt = await cli(['rebuild-lists']);
    expect(rebuilt).toMatchObject({ code: 0, stdout: expect.stringContaining('Rebuilt') });
    expect((await cli(['check-lists'])).code).toBe(0);
    const list = await s.api({
      method: 'GET',
      url: '/faqs/list/?keyword=because',
      token: s.adminToken,
    });
    expect(list.json().total).toBe(1);
  });
});

describe('migrate', () => {
  it('creates the schema of a new database, then finds it up to date', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ma-cli-'));
    const pgDb = TEST_DB === 'postgres' ? await createPgDatabase() : undefined;
    try {
      const env = { DATA_DIR: dataDir, ...(pgDb ? { DATABASE_URL: pgDb.url } : {}) };
      const first = await cli(['migrate'], env);
      expect(first.stderr).toBe('');
      expect(first.stdout).toMatch(/Applied \d+ migration\(s\): 0001-foundation, 0002-content/);
      const second = await cli(['migrate'], env);
      expect(second.stdout).toContain('The database schema is up to date.');
    } finally {
      await pgDb?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('names a bad variable and exits with 1', async () => {
    const r = await cli(['migrate'], { DATABASE_URL: 'mysql://nope' });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/DATABASE_URL: must start with postgres:\/\//);
  });
});
