/**
 * docs/app-api.md's examples run as written: each `sh` block of the guide, in order, with bash
 * and curl against a listening server, the variables the guide tells the reader to set taken from
 * the answers before (the code from the log sender, the tokens from the sign-in).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { APP_API_BASE } from '@master-admin/contract';
import { multipart, startServer } from './harness.ts';
import { images } from './images.ts';

const run = promisify(execFile);
const GUIDE = path.resolve(import.meta.dirname, '../../../docs/app-api.md');
const logLines: Array<Record<string, unknown>> = [];
const s = await startServer({ LOG_LEVEL: 'info' }, { logLines });
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'ma-guide-'));
afterAll(async () => {
  await s.close();
  fs.rmSync(work, { recursive: true, force: true });
});

/** The guide's shell blocks, but those that only set variables the reader fills in. */
function blocks(): string[] {
  const text = fs.readFileSync(GUIDE, 'utf8');
  return [...text.matchAll(/```sh\n([\s\S]*?)```/g)]
    .map((m) => m[1]!)
    .filter(
      (block) => !block.split('\n').every((line) => line === '' || line.startsWith('export ')),
    );
}

it('the guide’s day of an end user runs against the server', async () => {
  const admin = (options: Parameters<typeof s.api>[0]) =>
    s.api({ token: s.adminToken, ...options });
  const app = (
    await admin({ method: 'POST', url: '/master-app', payload: { name: 'Guide App' } })
  ).json().result;
  const key = (await admin({ method: 'GET', url: `/master-app/${app.id}/app-key` })).json().result
    .key;
  const category = (
    await admin({ method: 'POST', url: '/category', payload: { name: 'Guide Wishes' } })
  ).json().result;
  const form = await multipart(
    {
      position: 'LEFT',
      topDefNum: '1',
      selfDefNum: '1',
      bottomDefNum: '1',
      masterAppId: String(app.id),
    },
    { file: { name: 'p.png', data: await images.png(300, 400), type: 'image/png' } },
  );
  const poster = (
    await admin({ method: 'POST', url: `/poster/only-cat/${category.id}`, ...form })
  ).json().result;
  const note = await admin({
    method: 'POST',
    url: '/notifications/single',
    ...(await multipart({
      title: 'Holi',
      desc: 'New frames',
      type: 'festival',
      masterAppId: String(app.id),
    })),
  });
  fs.writeFileSync(path.join(work, 'me.png'), await images.png(90, 120));
  await s.app.listen({ port: 0, host: '127.0.0.1' });
  const address = s.app.server.address() as { port: number };

  const phone = '+919876543210';
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    BASE: `http://127.0.0.1:${address.port}${APP_API_BASE}`,
    KEY: key,
    PHONE: phone,
    POSTER: String(poster.id),
    NOTIFICATION: String(note.json().result.id),
  };
  const list = blocks();
  expect(list.length).toBeGreaterThanOrEqual(9);
  for (const block of list) {
    let out: string;
    try {
      // Not the sync form: the server answering curl runs in this very process.
      ({ stdout: out } = await run('bash', ['-euo', 'pipefail', '-c', block], {
        cwd: work,
        env,
        timeout: 30_000,
      }));
    } catch (err) {
      throw new Error(`${block}\nfailed: ${(err as { stderr?: string }).stderr ?? String(err)}`, {
        cause: err,
      });
    }
    if (block.includes('/auth/otp/request')) {
      const sent = logLines.findLast(
        (l) => (l.otp as { phoneNumber?: string } | undefined)?.phoneNumber === phone,
      );
      env.CODE = (sent!.otp as { code: string }).code;
    }
    if (block.includes('/auth/otp/verify') || block.includes('/auth/refresh')) {
      const pair = JSON.parse(out) as { accessToken: string; refreshToken: string };
      env.ACCESS = pair.accessToken;
      env.REFRESH = pair.refreshToken;
    }
    if (block.includes('If-None-Match')) expect(out.trim()).toBe('304');
  }
  // What the day left: a composed poster on disk, one download, the user's name.
  expect(fs.statSync(path.join(work, 'poster.webp')).size).toBeGreaterThan(0);
  const row = await s.ctx.db
    .selectFrom('posters')
    .select('downloadCount')
    .where('id', '=', poster.id)
    .executeTakeFirstOrThrow();
  expect(row.downloadCount).toBe(1);
  const user = await s.ctx.db
    .selectFrom('accounts')
    .select(['name', 'status'])
    .where('phoneNumber', '=', phone)
    .executeTakeFirstOrThrow();
  expect(user).toEqual({ name: 'Asha Rao', status: 'ACTIVE' });
});
