/**
 * The content apps' API seen from the back-office: a phone signs in with a code the server posts
 * to a signed webhook (an SMS gateway's stand-in), names itself, downloads and likes a poster;
 * the admin then finds the user, their session, activity, login history and the poster's
 * download, ends the session (its token stops working), and reads and rotates the app's key.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { APIRequestContext, Page } from '@playwright/test';
import { APP_API_BASE, APP_PATHS, PATHS, type TokenPair } from '@master-admin/contract';
import {
  adminApi,
  createMasterApp,
  createPoster,
  expect,
  expectToast,
  openSignedIn,
  test,
  unique,
} from './fixtures.ts';
import { OTP_WEBHOOK } from './settings.ts';

type OtpMessage = { phoneNumber: string; code: string; app: { id: number; name: string } };

/**
 * The SMS gateway's stand-in on OTP_WEBHOOK.port: keeps each code the server posts, once its
 * `X-Signature` (HMAC-SHA-256 of "<X-Timestamp>.<body>" with the shared secret) checks out; a
 * call that does not is refused and counted.
 */
async function startOtpWebhook() {
  const received: OtpMessage[] = [];
  let refused = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const expected = Buffer.from(
        `sha256=${createHmac('sha256', OTP_WEBHOOK.secret)
          .update(`${String(req.headers['x-timestamp'])}.${body}`)
          .digest('hex')}`,
      );
      const signature = Buffer.from(String(req.headers['x-signature']));
      const signed = signature.length === expected.length && timingSafeEqual(signature, expected);
      if (req.method !== 'POST' || req.url !== OTP_WEBHOOK.path || !signed) {
        refused += 1;
        res.writeHead(401).end();
        return;
      }
      received.push(JSON.parse(body) as OtpMessage);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(OTP_WEBHOOK.port, '127.0.0.1', resolve);
  });
  return {
    /** The code the server sent to `phoneNumber`, once it arrives. */
    async codeFor(phoneNumber: string): Promise<OtpMessage> {
      await expect
        .poll(() => received.some((m) => m.phoneNumber === phoneNumber), { timeout: 10_000 })
        .toBe(true);
      return received.findLast((m) => m.phoneNumber === phoneNumber)!;
    },
    refused: () => refused,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A call of the apps API, as the phone app makes it: its app's key, and its token when signed in. */
function appCall(request: APIRequestContext, key: string, accessToken?: string) {
  return (method: 'get' | 'post' | 'put' | 'patch', path: string, data?: object) =>
    request[method](`${APP_API_BASE}${path}`, {
      headers: {
        'X-App-Key': key,
        ...(accessToken ? { Authorization: `Bearer ${accessToken}` } : {}),
      },
      ...(data ? { data } : {}),
    });
}

/** The text of one column of a table's first row, found by its heading. */
async function firstRowCell(page: Page, table: string, heading: string) {
  const scope = page.getByRole('table', { name: table });
  const headings = await scope.locator('thead th').allInnerTexts();
  const at = headings.findIndex((h) => h.trim() === heading);
  expect(at, `a "${heading}" column in ${table}`).toBeGreaterThanOrEqual(0);
  return scope.locator('tbody tr').first().locator('td, th').nth(at);
}

test('an end user’s day in the app shows in the back-office', async ({ page, request }) => {
  const webhook = await startOtpWebhook();
  try {
    const api = await adminApi(request);
    const app = await createMasterApp(request, unique('Phone App'));
    const category = await api<{ id: number }>('post', '/category', {
      form: { name: unique('Phone Category') },
    });
    const posterId = await createPoster(api, { masterAppId: app.id, categoryId: category.id });
    const { key } = await api<{ key: string }>('get', PATHS.masterAppKey(app.id));
    const phoneNumber = `+9198${String(Date.now()).slice(-8)}`;
    const name = unique('Meera');

    // The phone: a code by "SMS", signed in on a named device; then its own calls.
    const asApp = appCall(request, key);
    const asked = await asApp('post', APP_PATHS.otpRequest, { phoneNumber });
    expect(asked.status(), await asked.text()).toBe(202);
    const sms = await webhook.codeFor(phoneNumber);
    expect(sms.app).toEqual({ id: app.id, name: app.name });
    const verified = await asApp('post', APP_PATHS.otpVerify, {
      phoneNumber,
      code: sms.code,
      device: { name: 'Pixel 8', platform: 'android' },
    });
    expect(verified.status(), await verified.text()).toBe(200);
    const { accessToken, user } = (await verified.json()) as TokenPair;
    expect(user).toMatchObject({ phoneNumber, masterAppId: app.id, name: null });
    const asUser = appCall(request, key, accessToken);
    expect((await asUser('patch', APP_PATHS.me, { name })).status()).toBe(200);
    const download = await asUser('post', APP_PATHS.download(posterId));
    expect(download.status(), await download.text()).toBe(200);
    expect(await download.json()).toMatchObject({ downloadCount: 1 });
    const like = await asUser('put', APP_PATHS.like(posterId));
    expect(await like.json()).toMatchObject({ liked: true });
    expect(webhook.refused()).toBe(0);

    // The back-office: the user in their app's list, under the name the phone gave.
    await openSignedIn(page, `/users?masterAppId=${app.id}`, { heading: 'Users' });
    await page.getByRole('table', { name: 'Users' }).getByRole('link', { name }).click();
    await expect(page.getByRole('heading', { name, level: 2 })).toBeVisible();

    // Signed in on the phone; what they did; the device in the login history.
    const sessions = page.getByRole('list', { name: `App sessions of ${name}` });
    await expect(sessions.getByRole('listitem')).toHaveCount(1);
    await expect(sessions.getByRole('listitem')).toContainText('Pixel 8 (android)');
    await page.getByRole('tab', { name: 'Activity' }).click();
    const activity = page.getByRole('table', { name: 'Activity' }).locator('tbody tr');
    await expect(activity).toHaveCount(3);
    await expect(activity.nth(0)).toContainText(`Liked#${posterId}`);
    await expect(activity.nth(1)).toContainText('Signed in');
    await expect(activity.nth(2)).toContainText('Signed up');
    await expect(activity.nth(2)).toContainText('Pixel 8 (android)');
    await page.getByRole('tab', { name: 'Login history' }).click();
    const history = page.getByRole('table', { name: 'Login history' }).locator('tbody tr');
    await expect(history).toHaveCount(1);
    await expect(history.first()).toContainText('Signed in');
    await expect(history.first()).toContainText('Pixel 8 (android)');

    // Ending the session: the phone's token stops working at once.
    await sessions.getByRole('button', { name: 'End the session on Pixel 8 (android)' }).click();
    const question = page.getByRole('dialog', { name: 'End this session?' });
    await question.getByRole('button', { name: 'End session' }).click();
    await expectToast(page, 'Session ended');
    await expect(page.getByText('Not signed in to the app anywhere.')).toBeVisible();
    expect((await asUser('get', APP_PATHS.me)).status()).toBe(401);

    // The download counted on the poster.
    await page.goto(`/poster?masterAppId=${app.id}`);
    await expect(page.getByRole('table', { name: 'Posters' }).locator('tbody tr')).toHaveCount(1);
    await expect(await firstRowCell(page, 'Posters', 'Downloads')).toHaveText('1');

    // The app's key as the owner sees it, then rotated: the old one keeps working meanwhile.
    await page.goto(`/masterApp?q=${encodeURIComponent(app.name)}`);
    await page.getByRole('button', { name: `App key of ${app.name}`, exact: true }).click();
    const panel = page.getByRole('dialog', { name: `App key of ${app.name}` });
    await expect(panel.getByRole('textbox', { name: 'Current key' })).toHaveValue(key);
    await panel.getByRole('button', { name: 'Rotate key…' }).click();
    const rotate = page.getByRole('dialog', { name: `Rotate the key of ${app.name}?` });
    await expect(rotate).toContainText('must get the new key (an app update) within that time');
    await rotate.getByRole('button', { name: 'Rotate key' }).click();
    await expectToast(page, 'A new app key is issued; the old one works for 24 more hours');
    const rotated = await api<{ key: string; previous: { key: string } }>(
      'get',
      PATHS.masterAppKey(app.id),
    );
    expect(rotated.key).not.toBe(key);
    expect(rotated.previous.key).toBe(key);
    await expect(panel.getByRole('textbox', { name: 'Current key' })).toHaveValue(rotated.key);
    await expect(panel.getByRole('textbox', { name: 'Previous key' })).toHaveValue(key);
    for (const working of [key, rotated.key]) {
      expect((await appCall(request, working)('get', APP_PATHS.home)).status()).toBe(200);
    }
  } finally {
    await webhook.close();
  }
});
