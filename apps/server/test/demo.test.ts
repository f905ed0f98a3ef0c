/**
 * `npm run admin -- demo` as a separate process against the database of a test server (which
 * holds only its first admin): it fills every area, its staff sign in with the printed passwords
 * and see only their grants, a second run refuses and changes nothing, and `--force` adds nothing
 * that is there already. The tests use `--size small`: every kind of row, fewer of each.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { PATHS } from '@master-admin/contract';
import type { Database } from '../src/db/schema.ts';
import { runCli, startServer } from './harness.ts';

const s = await startServer();
afterAll(() => s.close());

const cli = (args: string[]) => runCli(args, s.env);

const TABLES: Array<keyof Database> = [
  'masterApps',
  'settings',
  'pages',
  'categories',
  'specialDays',
  'posters',
  'videos',
  'banners',
  'blogs',
  'faqs',
  'notifications',
  'contactUs',
  'accounts',
  'userDetails',
  'userImages',
  'wallets',
  'loginHistory',
  'userActivities',
  'userPermissions',
  'trash',
];

async function counts(): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const table of TABLES) out[table] = await s.rowCount(table);
  return out;
}

const password = (stdout: string, email: string) =>
  new RegExp(`Staff ${email.replace('.', '\\.')} .*\\(shown only this once\\): (\\S+)`).exec(
    stdout,
  )?.[1];

describe('demo', () => {
  let first: Record<string, number>;
  let stdout: string;

  it('fills every area of a database that holds only its first admin', async () => {
    const r = await cli(['demo', '--size', 'small']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Added the demo in [\d.]+ s: 3 master apps, /);
    stdout = r.stdout;
    first = await counts();
    // A poster and a FAQ the owner deleted, waiting in the trash (with the poster's file).
    const trashed = await s.ctx.db.selectFrom('trash').select(['area', 'title']).execute();
    expect(trashed.map((t) => t.area).sort()).toEqual(['faqs', 'posters']);
    expect(await s.ctx.db.selectFrom('trashMedia').select('key').execute()).toHaveLength(1);
    for (const table of TABLES) expect(first[table], table).toBeGreaterThan(0);
    // Staff and users beside the admin; the standard pages written out.
    const roles = await s.ctx.db
      .selectFrom('accounts')
      .select(['role', (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy('role')
      .orderBy('role')
      .execute();
    expect(roles.map((r) => [r.role, Number(r.n)])).toEqual([
      ['STAFF', 2],
      ['SUPER_ADMIN', 1],
      ['USER', expect.any(Number)],
    ]);
    const blank = await s.ctx.db.selectFrom('pages').select('id').where('desc', '=', '').execute();
    expect(blank).toEqual([]);
    // Numbered images of every kind, downloads on posters, dates over the past year.
    const kinds = await s.ctx.db.selectFrom('userImages').select('kind').distinct().execute();
    expect(kinds.map((k) => k.kind).sort()).toEqual(['bottom', 'self', 'top']);
    const posters = await s.ctx.db
      .selectFrom('posters')
      .select(['poster', 'downloadCount', 'createdAt'])
      .execute();
    expect(posters.some((p) => p.downloadCount > 0)).toBe(true);
    // A category's downloads are its posters'.
    const totals = await s.ctx.db
      .selectFrom('categories as c')
      .leftJoin('posters as p', 'p.categoryId', 'c.id')
      .select((eb) => [
        'c.downloadCount',
        eb.fn.coalesce(eb.fn.sum<number>('p.downloadCount'), eb.lit(0)).as('sum'),
      ])
      .groupBy(['c.id', 'c.downloadCount'])
      .execute();
    expect(totals.every((t) => Number(t.sum) === t.downloadCount)).toBe(true);
    expect(totals.some((t) => t.downloadCount > 0)).toBe(true);
    // A poster's downloads by day (the dashboard's trends) sum to its count, none in the future.
    const byDay = await s.ctx.db
      .selectFrom('posters as p')
      .leftJoin('posterDownloads as d', 'd.posterId', 'p.id')
      .select((eb) => [
        'p.downloadCount',
        eb.fn.coalesce(eb.fn.sum<number>('d.n'), eb.lit(0)).as('sum'),
        eb.fn.max('d.day').as('last'),
      ])
      .groupBy(['p.id', 'p.downloadCount'])
      .execute();
    expect(byDay.every((p) => Number(p.sum) === p.downloadCount)).toBe(true);
    const today = new Date().toISOString().slice(0, 10);
    expect(byDay.every((p) => p.last === null || String(p.last).slice(0, 10) <= today)).toBe(true);
    const ages = posters.map((p) => (Date.now() - Date.parse(p.createdAt)) / 86_400_000);
    expect(Math.min(...ages)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...ages)).toBeLessThanOrEqual(366);
    expect(Math.max(...ages) - Math.min(...ages)).toBeGreaterThan(30);
  });

  it('stores its files in the media store: posters as images, videos as MP4', async () => {
    const poster = await s.ctx.db.selectFrom('posters').select('poster').executeTakeFirstOrThrow();
    expect(await s.ctx.media.store.exists(poster.poster)).toBe(true);
    const list = await s.api({
      method: 'GET',
      url: `${PATHS.posterList}?limit=1`,
      token: s.adminToken,
    });
    expect(list.statusCode).toBe(200);
    const video = await s.ctx.db.selectFrom('videos').select('video').executeTakeFirstOrThrow();
    const bytes = await s.ctx.media.store.get(video.video);
    expect(bytes).toBeDefined();
    expect(video.video).toMatch(/\.mp4$/);
  });

  it('keeps every list’s counts and search index right', async () => {
    const r = await cli(['check-lists']);
    expect(r).toMatchObject({ code: 0, stdout: expect.stringContaining('agrees') });
  });

  it('prints staff passwords that sign in, each account seeing only its grants', async () => {
    const editor = password(stdout, 'neha.editor@example.com');
    const support = password(stdout, 'joseph.support@example.com');
    expect(editor).toBeDefined();
    expect(support).toBeDefined();
    const editorToken = await s.login('neha.editor@example.com', editor!);
    const supportToken = await s.login('joseph.support@example.com', support!);
    const status = async (url: string, token: string) =>
      (await s.api({ method: 'GET', url, token })).statusCode;
    expect(await status(`${PATHS.posterList}?limit=1`, editorToken)).toBe(200);
    expect(await status(`${PATHS.userList}?limit=1`, editorToken)).toBe(403);
    expect(await status(`${PATHS.userList}?limit=1`, supportToken)).toBe(200);
    expect(await status(`${PATHS.posterList}?limit=1`, supportToken)).toBe(403);
  });

  it('refuses a second run, naming the content and --force, and changes nothing', async () => {
    // Sign-ins above added login history: this is the state the later runs must keep.
    first = await counts();
    const files = s.storedFiles();
    const r = await cli(['demo', '--size', 'small']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/already has content \(3 master apps, .*posters.*\)/);
    expect(r.stderr).toContain('--force');
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(await counts()).toEqual(first);
    expect(s.storedFiles()).toEqual(files);
  });

  it('with --force, twice, adds nothing that is there already', async () => {
    for (let run = 0; run < 2; run += 1) {
      const r = await cli(['demo', '--size', 'small', '--force']);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/nothing added/);
      expect(r.stdout).toMatch(/neha\.editor@example\.com .*was there already/);
      expect(await counts()).toEqual(first);
    }
  });
});

describe('demo --force after a demo row was removed', () => {
  it('adds that row back and nothing else', async () => {
    await s.ctx.db.deleteFrom('faqs').where('question', '=', 'How do I put my photo on a poster?').execute(); // prettier-ignore
    const before = await counts();
    const r = await cli(['demo', '--size', 'small', '--force']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Added the demo in [\d.]+ s: 1 FAQs\./);
    expect(await counts()).toEqual({ ...before, faqs: before.faqs! + 1 });
  });
});
