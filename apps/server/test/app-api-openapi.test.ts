/**
 * The apps API's own OpenAPI document (`/api/app/docs`) describes exactly what it accepts and
 * answers: the checks every document of this server passes (openapi-suite.ts), each request sent
 * with the app's key and a fresh end user's token; and it holds the apps API's calls only.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { APP_API_BASE, APP_API_DOCS } from '@master-admin/contract';
import { startServer } from './harness.ts';
import { documentClient } from './openapi-requests.ts';
import { documentChecks } from './openapi-suite.ts';
import { startSession } from '../src/auth/sessions.ts';
import { issueAccessToken } from '../src/features/app-api/access.ts';
import { images } from './images.ts';
import { multipart } from './harness.ts';

// Contact-us is limited per user; the document's requests all come from one.
const s = await startServer({ CONTACT_RATE_PER_HOUR: '100000' });
afterAll(() => s.close());

let key = '';
let userId = 0;
/** A token of a new session of the app's user: a request that signs out ends only its own. */
async function userToken() {
  const { sessionId } = await startSession(s.ctx.db, {
    accountId: userId,
    ip: '127.0.0.1',
    userAgent: undefined,
    ttlHours: 1,
    method: 'otp',
    app: { masterAppId: 1, deviceName: 'Doc phone', platform: 'android' },
  });
  return issueAccessToken(s.ctx.secret, sessionId, userId);
}

const client = await documentClient(s, {
  document: `${APP_API_DOCS}/json`,
  credentials: async () => ({ 'x-app-key': key, authorization: `Bearer ${await userToken()}` }),
});

beforeAll(async () => {
  // Rows for the ids the requests name (1): the app, a poster of it, its pages, a user.
  const admin = (options: Parameters<typeof s.api>[0]) =>
    s.api({ token: s.adminToken, ...options });
  for (const name of ['Doc App', 'Doc App 2']) {
    expect(
      (await admin({ method: 'POST', url: '/master-app', payload: { name } })).statusCode,
    ).toBe(200);
  }
  key = (await admin({ method: 'GET', url: '/master-app/1/app-key' })).json().result.key;
  await admin({ method: 'POST', url: '/category', payload: { name: 'Doc Category' } });
  const form = await multipart(
    { position: 'LEFT', topDefNum: '1', selfDefNum: '1', bottomDefNum: '1', masterAppId: '1' },
    { file: { name: 'p.png', data: await images.png(60, 90), type: 'image/png' } },
  );
  expect((await admin({ method: 'POST', url: '/poster/only-cat/1', ...form })).statusCode).toBe(
    200,
  );
  const user = await admin({
    method: 'POST',
    url: '/auth/user/register',
    payload: { name: 'Doc User', phoneNumber: '+919811111111', masterAppId: 1 },
  });
  expect(user.statusCode, user.body).toBe(200);
  userId = user.json().result.id;
});

documentChecks(client, { fileFields: 1 });

it('holds the apps API’s calls, and nothing of the back-office’s (which has its own)', async () => {
  const paths = client.operations.map((o) => o.path);
  expect(paths.length).toBeGreaterThanOrEqual(24);
  expect(paths.every((p) => p.startsWith(`${APP_API_BASE}/`))).toBe(true);
  const office = (await s.app.inject({ url: '/api/docs/json' })).json<{ paths: object }>();
  expect(Object.keys(office.paths).some((p) => p.startsWith(APP_API_BASE))).toBe(false);
  const page = await s.app.inject({ url: APP_API_DOCS });
  expect(page.statusCode).toBe(200);
  expect(page.headers['content-type']).toMatch(/^text\/html/);
});
