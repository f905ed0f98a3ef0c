/**
 * What a fuzzing run found: malformed multipart bodies, control characters, lenient path ids, and
 * uploads whose path was only checked after the file was read. Each refused with a clear 4xx that
 * names the field, and nothing changed.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES, NO_CONTROL_CHARACTERS } from '@master-admin/contract';
import { multipart, startServer } from './harness.ts';
import { images } from './images.ts';

const BODY_LIMIT = 4096;
const s = await startServer({ BODY_LIMIT_BYTES: String(BODY_LIMIT) });
afterAll(() => s.close());

let appId: number;
beforeAll(async () => {
  const res = await s.api({
    method: 'POST',
    url: '/master-app',
    token: s.adminToken,
    payload: { name: 'Hardening' },
  });
  appId = res.json().result.id;
});

let address: string | undefined;
const listening = async () => (address ??= await s.app.listen({ port: 0, host: '127.0.0.1' }));

const counts = async () =>
  Object.fromEntries(
    await Promise.all(
      (['masterApps', 'banners', 'blogs', 'faqs', 'settings', 'notifications'] as const).map(
        async (t) => [t, await s.rowCount(t)] as const,
      ),
    ),
  );

describe('a malformed or truncated multipart body', () => {
  it('answers 400 with the error shape on every route that takes a body, and changes nothing', async () => {
    const routes = s.app.declaredRoutes.filter((r) => ['POST', 'PUT', 'PATCH'].includes(r.method));
    expect(routes.length).toBeGreaterThan(15);
    const full = await multipart(
      { link: 'https://example.com/x', name: 'Z' },
      {
        file: { name: 'a.png', data: await images.png(), type: 'image/png' },
      },
    );
    const bodies: Array<[string, Record<string, string>, Buffer | string]> = [
      ['cut short', full.headers, full.payload.subarray(0, full.payload.length - 40)],
      ['cut inside the headers', full.headers, full.payload.subarray(0, 30)],
      ['no boundary', { 'content-type': 'multipart/form-data' }, 'garbage'],
      ['a wrong boundary', { 'content-type': 'multipart/form-data; boundary=nope' }, full.payload],
    ];
    const before = await counts();
    for (const route of routes) {
      const url = route.url
        .replace('/api/v1', '')
        .replace(/:(\w+)/g, (_, name: string) => (name === 'year' ? '2030' : String(appId)));
      for (const [label, headers, payload] of bodies) {
        const res = await s.api({
          method: route.method,
          url,
          token: s.adminToken,
          headers,
          payload,
        });
        expect(res.statusCode, `${route.method} ${route.url}: ${label}: ${res.body}`).toBeLessThan(
          500,
        );
        expect(res.statusCode, `${route.method} ${route.url}: ${label}`).not.toBe(200);
        expect(res.json(), `${route.method} ${route.url}: ${label}`).toMatchObject({
          statusCode: res.statusCode,
          error: expect.any(String),
          message: expect.any(String),
        });
      }
    }
    expect(await counts()).toEqual(before);
  });

  it('answers 413 naming a field whose value is over the body limit', async () => {
    const body = await multipart(
      { link: `https://example.com/${'x'.repeat(BODY_LIMIT)}` },
      {
        file: { name: 'a.png', data: await images.png(), type: 'image/png' },
      },
    );
    const res = await s.api({
      method: 'POST',
      url: `/banner/${appId}`,
      token: s.adminToken,
      ...body,
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().details).toEqual([{ path: 'link', message: 'The value is too large' }]);
  });
});

describe('an upload over a real connection', () => {
  it('refused by its content answers 415 naming the field, however small the file', async () => {
    const address = await listening();
    for (const body of ['<html><script>alert(1)</script></html>', 'x'.repeat(200_000)]) {
      const form = new FormData();
      form.append('file', new Blob([body], { type: 'image/png' }), 'evil.png');
      const res = await fetch(`${address}/api/v1/banner/${appId}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${s.adminToken}` },
        body: form,
      });
      expect(res.status).toBe(415);
      expect(((await res.json()) as { details: unknown }).details).toEqual([
        { path: 'file', message: 'Only JPEG, PNG, WebP or GIF images are accepted' },
      ]);
    }
    // fetch keeps its connection alive, which would hold the server's close.
    s.app.server.closeAllConnections();
  });
});

describe('an upload’s path and query', () => {
  it('are checked before a byte of the file is read', async () => {
    const port = Number(new URL(await listening()).port);
    const socket = net.connect(port, '127.0.0.1');
    await new Promise((r) => socket.once('connect', r));
    const boundary = 'b0undary';
    // Announces a 50 MB body and sends only its start: the answer must come without the rest.
    socket.write(
      `POST /api/v1/banner/1%20 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${s.adminToken}\r\n` +
        `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: 50000000\r\n\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n` +
        'Content-Type: image/png\r\n\r\n\x89PNG',
    );
    const answer = await new Promise<string>((resolve, reject) => {
      let text = '';
      socket.setEncoding('utf8');
      socket.on('data', (d: string) => {
        text += d;
        if (text.includes('\r\n\r\n{')) resolve(text);
      });
      socket.on('error', reject);
      setTimeout(() => reject(new Error(`no answer while the body was still open: ${text}`)), 5000);
    });
    socket.destroy();
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer).toContain('"path":"masterAppId"');
  });
});

describe('control characters', () => {
  const faq = (payload: object) =>
    s.api({ method: 'POST', url: '/faqs', token: s.adminToken, payload });

  it('are refused in single-line text, naming the field, and nothing is stored', async () => {
    const before = await s.rowCount('masterApps');
    for (const name of [
      'A\u0000B',
      'Bell\u0007',
      'Tab\there',
      'New\nline',
      'Del\u007f',
      'C1\u0085',
    ]) {
      const res = await s.api({
        method: 'POST',
        url: '/master-app',
        token: s.adminToken,
        payload: { name },
      });
      expect(res.statusCode, JSON.stringify(name)).toBe(400);
      expect(res.json().details).toEqual([{ path: 'name', message: NO_CONTROL_CHARACTERS }]);
    }
    expect(await s.rowCount('masterApps')).toBe(before);
  });

  it('keep tab and newline in multi-line text, and read a carriage return as a newline', async () => {
    const res = await faq({ question: 'Where?\r\nHere', answer: 'One\tTwo\r\nThree\rFour' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().result).toMatchObject({
      question: 'Where?\nHere',
      answer: 'One\tTwo\nThree\nFour',
    });
    const refused = await faq({ question: 'Fine', answer: 'Not \u0000 this' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().details).toEqual([{ path: 'answer', message: NO_CONTROL_CHARACTERS }]);
  });

  it('are refused in a form body and in a search keyword', async () => {
    const form = await s.api({
      method: 'POST',
      url: '/category',
      token: s.adminToken,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'name=Eid%00Mubarak',
    });
    expect(form.statusCode).toBe(400);
    expect(form.json().details).toEqual([{ path: 'name', message: NO_CONTROL_CHARACTERS }]);
    const list = await s.api({
      method: 'GET',
      url: '/banner/list?keyword=ab%01cd',
      token: s.adminToken,
    });
    expect(list.statusCode).toBe(400);
    expect(list.json().details).toEqual([{ path: 'keyword', message: NO_CONTROL_CHARACTERS }]);
  });

  it('are refused in a password, so none is ever stored with one', async () => {
    const res = await s.api({
      method: 'POST',
      url: '/auth/admin/pass-reset',
      token: s.adminToken,
      payload: { oldPassword: 'whatever', newPassword: 'new\u0000password' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().details).toEqual([{ path: 'newPassword', message: NO_CONTROL_CHARACTERS }]);
  });
});

describe('path ids', () => {
  it('are digits only: a padded, signed or spaced id never names row 1', async () => {
    const original = (
      await s.api({ method: 'GET', url: '/master-app/list?limit=100', token: s.adminToken })
    )
      .json()
      .result.find((a: { id: number }) => a.id === appId).name;
    for (const id of [
      `${appId}%20`,
      `0${appId}`,
      `+${appId}`,
      `${appId}.0`,
      `%20${appId}`,
      `${appId}e0`,
    ]) {
      const res = await s.api({
        method: 'PATCH',
        url: `/master-app/update/${id}`,
        token: s.adminToken,
        payload: { name: `Renamed ${id}` },
      });
      expect(res.statusCode, id).toBe(400);
      expect(res.json().details[0].path, id).toBe('id');
    }
    const after = (
      await s.api({ method: 'GET', url: '/master-app/list?limit=100', token: s.adminToken })
    )
      .json()
      .result.find((a: { id: number }) => a.id === appId).name;
    expect(after).toBe(original);
    // Beyond the largest id there can be no row: refused as not an id, not looked up.
    const huge = await s.api({
      method: 'DELETE',
      url: '/banner/remove/99999999999',
      token: s.adminToken,
    });
    expect(huge.statusCode).toBe(400);
    expect(
      (
        await s.api({ method: 'DELETE', url: '/banner/remove/2147483647', token: s.adminToken })
      ).json(),
    ).toMatchObject({
      statusCode: 404,
      message: MESSAGES.bannerNotFound,
    });
  });
});
