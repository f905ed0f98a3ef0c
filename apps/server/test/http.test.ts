/**
 * The HTTP surface around the API: health, not-found, security headers, error bodies, the API
 * documentation, the web app and media serving.
 */
import fs from 'node:fs';
import zlib from 'node:zlib';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { MESSAGES } from '@master-admin/contract';
import { startServer, type TestServer } from './harness.ts';
import { images } from './images.ts';

const s = await startServer();
afterAll(() => s.close());

/** A bare 500, naming the request (its X-Request-Id) so an operator can find its log lines. */
const internalError = (res: { headers: Record<string, unknown> }) => ({
  statusCode: 500,
  error: 'Internal Server Error',
  message: 'Something went wrong on the server',
  requestId: res.headers['x-request-id'] ?? 'an X-Request-Id header',
});

/** Signs of internals that must never reach a client. */
function expectNothingInternal(body: string) {
  expect(body).not.toMatch(/\n\s+at /);
  expect(body).not.toMatch(/node_modules|\.ts:\d+/);
  expect(body).not.toMatch(/\b(select|insert|update|delete)\b.+\bfrom\b/i);
  expect(body).not.toMatch(/SQLITE_|sqlite|postgres|relation "|no such table|master_apps/i);
}

/** The test server listening on a port of its own (once), for requests over a real socket. */
let port: Promise<number> | undefined;
const listening = () =>
  (port ??= s.app
    .listen({ port: 0, host: '127.0.0.1' })
    .then(() => (s.app.server.address() as net.AddressInfo).port));

/** Sends `method target` as is, with no client checking the method or normalising the path. */
function raw(
  port: number,
  method: string,
  target: string,
): Promise<{ status: number; headers: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () =>
      socket.write(`${method} ${target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`),
    );
    let data = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (data += chunk));
    socket.on('close', () =>
      resolve({
        status: Number(data.slice(9, 12)),
        headers: data.slice(0, data.indexOf('\r\n\r\n')).toLowerCase(),
        body: data.slice(data.indexOf('\r\n\r\n') + 4),
      }),
    );
    socket.on('error', reject);
  });
}

describe('health and not found', () => {
  it('GET /api/v1/health answers {status:"ok"} without a token', async () => {
    const res = await s.api({ method: 'GET', url: '/health' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json()).toEqual({ status: 'ok' });
  });

  it('an unknown API path answers 404 in the error shape', async () => {
    for (const method of ['GET', 'POST', 'DELETE'] as const) {
      const res = await s.api({ method, url: '/no/such/thing' });
      expect(res.statusCode, method).toBe(404);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      const body = res.json();
      expect(body).toEqual({ statusCode: 404, error: 'Not Found', message: expect.any(String) });
      expect(body.message).toContain('/api/v1/no/such/thing');
    }
  });

  it('an unknown path outside the API answers 404 JSON when the web app is not served', async () => {
    const res = await s.app.inject({ url: '/masterApp' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ statusCode: 404, error: 'Not Found' });
  });
});

describe('a method the path does not take', () => {
  const expect405 = (
    res: { statusCode: number; headers: Record<string, unknown>; json: () => unknown },
    allow: string,
    what: string,
  ) => {
    expect(res.statusCode, what).toBe(405);
    expect(res.headers.allow, what).toBe(allow);
    expect(res.json(), what).toEqual({
      statusCode: 405,
      error: 'Method Not Allowed',
      message: expect.stringContaining(allow),
    });
  };

  it('answers 405 with Allow on every path of the document, listing its methods', async () => {
    const doc = (await s.app.inject({ url: '/api/docs/json' })).json<{
      paths: Record<string, Record<string, unknown>>;
    }>();
    const problems: string[] = [];
    for (const [template, operations] of Object.entries(doc.paths)) {
      const url = template.replace(/\{\w+\}/g, '1');
      const res = await s.app.inject({ method: 'TRACE', url });
      const allow = String(res.headers.allow ?? '').split(', ');
      const documented = Object.keys(operations).map((m) => m.toUpperCase());
      if (documented.includes('GET')) documented.push('HEAD');
      if (res.statusCode !== 405 || documented.some((m) => !allow.includes(m))) {
        problems.push(
          `TRACE ${url}: ${res.statusCode} allow ${res.headers.allow} (${documented.join(', ')})`,
        );
      }
    }
    expect(problems.join('\n')).toBe('');
  });

  it('TRACE, PROPFIND, OPTIONS (no CORS here) and unrouted methods, in any case', async () => {
    for (const method of ['TRACE', 'trace', 'PROPFIND', 'OPTIONS', 'DELETE', 'PUT', 'POST']) {
      const res = await s.api({
        method,
        url: '/master-app/list',
        token: s.adminToken,
      });
      expect405(res, 'GET, HEAD', method);
    }
    expect405(await s.api({ method: 'GET', url: '/master-app' }), 'POST', 'GET master-app');
    expect405(
      await s.app.inject({ method: 'TRACE', url: '/api/v1/health?x=1' }),
      'GET, HEAD',
      'query',
    );
    expect405(
      await s.app.inject({ method: 'POST', url: '/media/aa/bb.png' }),
      'GET, HEAD',
      'media',
    );
    expect405(
      await s.app.inject({ method: 'DELETE', url: '/embed/video/abc' }),
      'GET, HEAD',
      'embed',
    );
    expect405(await s.app.inject({ method: 'PUT', url: '/api/docs/json' }), 'GET, HEAD', 'docs');
    // HEAD goes where GET does; an unknown path stays a 404, whatever the method.
    expect((await s.api({ method: 'HEAD', url: '/health' })).statusCode).toBe(200);
    for (const method of ['GET', 'TRACE', 'POST'] as const) {
      const res = await s.api({ method, url: '/no/such/thing' });
      expect(res.statusCode, method).toBe(404);
      expect(res.headers.allow).toBeUndefined();
    }
  });

  it('over the wire too, where Node’s parser refuses a method it does not know', async () => {
    const port = await listening();
    for (const method of ['BREW', 'get', 'Post']) {
      const res = await raw(port, method, '/api/v1/master-app/list?limit=1');
      expect(res.status, method).toBe(405);
      expect(res.headers, method).toContain('\r\nallow: get, head\r\n');
      expect(JSON.parse(res.body), method).toMatchObject({
        statusCode: 405,
        error: 'Method Not Allowed',
      });
    }
    expect((await raw(port, 'TRACE', '/api/v1/health')).status).toBe(405);
    // On a path no route takes, the parser's own answer stands.
    expect((await raw(port, 'BREW', '/no/such/thing')).status).toBe(400);
  });
});

describe('security headers', () => {
  it('are set on API answers, successful or not', async () => {
    const answers = [
      await s.api({ method: 'GET', url: '/health' }),
      await s.api({ method: 'GET', url: '/master-app/list', token: s.adminToken }),
      await s.api({ method: 'GET', url: '/master-app/list' }),
      await s.api({ method: 'GET', url: '/no/such/thing' }),
    ];
    for (const res of answers) {
      const csp = String(res.headers['content-security-policy']);
      const directives = csp.split(';').map((d) => d.trim());
      expect(directives).toContain("default-src 'self'");
      expect(directives).toContain("script-src 'self'");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(directives).toContain("frame-ancestors 'none'");
      // Framing is CSP's to say: an X-Frame-Options beside it could only contradict it.
      expect(res.headers['x-frame-options']).toBeUndefined();
      expect(res.headers['cross-origin-resource-policy']).toBe('same-site');
    }
  });

  it('let media be loaded by the content app on other domains, and nothing else', async () => {
    fs.mkdirSync(path.join(s.config.dataDir, 'media', 'h'), { recursive: true });
    fs.writeFileSync(path.join(s.config.dataDir, 'media', 'h', 'a.png'), await images.png());
    const media = await s.app.inject({ url: '/media/h/a.png' });
    expect(media.statusCode).toBe(200);
    expect(media.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(media.headers['x-content-type-options']).toBe('nosniff');
    expect(media.headers['x-frame-options']).toBeUndefined();
    const api = await s.api({ method: 'GET', url: '/health' });
    expect(api.headers['cross-origin-resource-policy']).toBe('same-site');
  });
});

describe('error answers', () => {
  it('never carry a stack or SQL for bad input', async () => {
    const answers = [
      await s.api({
        method: 'POST',
        url: '/auth/admin/login',
        headers: { 'content-type': 'application/json' },
        payload: '{"email":',
      }),
      await s.api({
        method: 'POST',
        url: '/master-app',
        token: s.adminToken,
        headers: { 'content-type': 'application/json' },
        payload: '[1,2',
      }),
      await s.api({ method: 'PATCH', url: '/master-app/update/1e400', token: s.adminToken }),
      await s.api({
        method: 'POST',
        url: '/master-app',
        token: s.adminToken,
        headers: { 'content-type': 'application/xml' },
        payload: '<name>x</name>',
      }),
    ];
    for (const res of answers) {
      expect(res.statusCode, res.body).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, res.body).toBeLessThan(500);
      expect(Object.keys(res.json()).sort()).toEqual(
        expect.arrayContaining(['error', 'message', 'statusCode']),
      );
      expectNothingInternal(res.body);
    }
  });

  it('a database failure answers a bare 500, without the SQL or the error', async () => {
    const broken = await startServer();
    try {
      await sql`alter table master_apps rename to master_apps_gone`.execute(broken.ctx.db);
      for (const request of [
        { method: 'GET' as const, url: '/master-app/list' },
        { method: 'GET' as const, url: '/master-app/options' },
        { method: 'POST' as const, url: '/master-app', payload: { name: 'Anything' } },
      ]) {
        const res = await broken.api({ ...request, token: broken.adminToken });
        expect(res.statusCode, request.url).toBe(500);
        expect(res.json()).toEqual(internalError(res));
        expectNothingInternal(res.body);
      }
    } finally {
      await sql`alter table master_apps_gone rename to master_apps`.execute(broken.ctx.db);
      await broken.close();
    }
  });

  it('a closed database answers 500 on calls (the server’s own handle, not a part that stopped); liveness stays 200', async () => {
    const closed: TestServer = await startServer();
    try {
      await closed.ctx.database.close();
      const res = await closed.api({
        method: 'GET',
        url: '/master-app/list',
        token: closed.adminToken,
      });
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual(internalError(res));
      // Liveness says only that the process answers (API.md); readiness names the database.
      const health = await closed.api({ method: 'GET', url: '/health' });
      expect(health.json()).toEqual({ status: 'ok' });
      const ready = await closed.api({ method: 'GET', url: '/health/ready' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toMatchObject({ status: 'unavailable', failing: ['database'] });
      expectNothingInternal(ready.body);
    } finally {
      // The database is already closed: closing the app closes it again.
      await closed.close().catch(() => undefined);
    }
  });
});

describe('API documentation', () => {
  it('/api/docs/json is an OpenAPI 3.1 document of the API', async () => {
    const res = await s.app.inject({ url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\.1\./);
    expect(doc.info.title).toBe('Master Admin API');
    const list = doc.paths['/api/v1/master-app/list'];
    expect(list?.get).toBeDefined();
    const params = (list.get.parameters as Array<{ name: string; in: string }>).map(
      (p) => `${p.in}:${p.name}`,
    );
    expect(params).toEqual(
      expect.arrayContaining(['query:limit', 'query:offset', 'query:keyword']),
    );
    expect(doc.paths['/api/v1/dashboard/getCount']?.get).toBeDefined();
    expect(doc.paths['/api/v1/master-app/update/{id}']?.patch).toBeDefined();
    expect(doc.paths['/api/v1/auth/admin/login']?.post).toBeDefined();
  });

  it('documents the file fields of upload calls as multipart/form-data', async () => {
    const doc = (await s.app.inject({ url: '/api/docs/json' })).json();
    const create = doc.paths['/api/v1/banner/{masterAppId}'].post.requestBody.content;
    const multipart = create['multipart/form-data'].schema.properties;
    expect(multipart.file).toMatchObject({ type: 'string', format: 'binary' });
    expect(multipart.linkType).toBeDefined();
    const replace = doc.paths['/api/v1/banner/update/{id}'].put.requestBody.content;
    expect(Object.keys(replace['multipart/form-data'].schema.properties)).toEqual(['file']);
  });

  it('/api/docs serves the documentation UI', async () => {
    const res = await s.app.inject({ url: '/api/docs' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.body).toMatch(/swagger-ui/i);
  });
});

describe('the web app', () => {
  const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'ma-web-'));
  const INDEX = '<!doctype html><html><head><title>Master Admin</title></head><body></body></html>';
  const ASSET = 'console.log("app")';
  fs.mkdirSync(path.join(dist, 'assets'));
  fs.writeFileSync(path.join(dist, 'index.html'), INDEX);
  fs.writeFileSync(path.join(dist, 'assets', 'app-abc123.js'), ASSET);

  let web: TestServer;
  const ready = startServer({ SERVE_WEB: 'true', WEB_DIST: dist }).then((w) => (web = w));
  afterAll(async () => {
    await ready;
    await web.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  it('answers index.html, never cached, for the app’s routes and deep links', async () => {
    await ready;
    for (const url of ['/', '/masterApp', '/blogs/detail/3', '/auth/sign-in?next=%2Fposter']) {
      const res = await web.app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toMatch(/^text\/html/);
      expect(res.headers['cache-control'], url).toBe('no-cache');
      expect(res.body, url).toBe(INDEX);
    }
  });

  it('sends the built, precompressed copy of an asset the browser accepts, and says so', async () => {
    await ready;
    const big = 'console.log("a large chunk");\n'.repeat(200);
    fs.writeFileSync(path.join(dist, 'assets', 'big-abc123.js'), big);
    fs.writeFileSync(path.join(dist, 'assets', 'big-abc123.js.br'), zlib.brotliCompressSync(big));
    fs.writeFileSync(path.join(dist, 'assets', 'big-abc123.js.gz'), zlib.gzipSync(big));
    const br = await web.app.inject({
      url: '/assets/big-abc123.js',
      headers: { 'accept-encoding': 'gzip, br' },
    });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(big);
    const gz = await web.app.inject({
      url: '/assets/big-abc123.js',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.rawPayload).toString()).toBe(big);
    const plain = await web.app.inject({ url: '/assets/big-abc123.js' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(big);
  });

  it('answers hashed assets with long immutable caching', async () => {
    await ready;
    const res = await web.app.inject({ url: '/assets/app-abc123.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.body).toBe(ASSET);
  });

  it('answers 404, not the app, for a file that is not there (a chunk of an older build)', async () => {
    await ready;
    for (const url of ['/assets/app-old999.js', '/favicon.ico']) {
      const res = await web.app.inject({ url });
      expect(res.statusCode, url).toBe(404);
      expect(res.body, url).not.toContain('<!doctype html>');
    }
  });

  it('answers /metrics without METRICS_TOKEN with the JSON 404 of an unknown path, not the app', async () => {
    await ready;
    for (const url of ['/metrics', '/metrics/', '/metrics?x=1']) {
      for (const method of ['GET', 'HEAD'] as const) {
        const res = await web.app.inject({ method, url });
        expect(res.statusCode, `${method} ${url}`).toBe(404);
        expect(res.headers['content-type'], `${method} ${url}`).toMatch(/^application\/json/);
        if (method === 'GET') {
          expect(res.json()).toEqual({
            statusCode: 404,
            error: 'Not Found',
            message: `Route GET ${url.split('?')[0]} not found`,
          });
        }
      }
    }
    // A path below it is a deep link of the app like any other.
    expect((await web.app.inject({ url: '/metrics-board' })).body).toBe(INDEX);
  });

  it('still answers JSON 404 for unknown API paths, and serves the API', async () => {
    await ready;
    const res = await web.app.inject({ url: '/api/v1/unknown' });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json()).toMatchObject({ statusCode: 404, error: 'Not Found' });
    expect((await web.api({ method: 'GET', url: '/health' })).json()).toEqual({ status: 'ok' });
    // Another method: a 404 on the API, a 405 on the app's pages and files (GET and HEAD).
    const post = await web.app.inject({ method: 'POST', url: '/api/v1/unknown' });
    expect(post.statusCode).toBe(404);
    expect(post.headers['content-type']).toMatch(/^application\/json/);
    for (const url of ['/masterApp', '/assets/app-abc123.js', '/']) {
      const res = await web.app.inject({ method: 'POST', url });
      expect(res.statusCode, url).toBe(405);
      expect(res.headers.allow, url).toBe('GET, HEAD');
      expect(res.json(), url).toMatchObject({ statusCode: 405, error: 'Method Not Allowed' });
    }
  });

  it('still serves the API documentation', async () => {
    await ready;
    const res = await web.app.inject({ url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    expect(res.json().openapi).toMatch(/^3\.1\./);
  });
});

describe('compression', () => {
  it('compresses API answers over a kilobyte for a browser that accepts it, not smaller ones', async () => {
    for (let i = 0; i < 30; i++) {
      await s.api({
        method: 'POST',
        url: '/master-app',
        token: s.adminToken,
        payload: { name: `Compressed ${i}` },
      });
    }
    const big = await s.api({
      method: 'GET',
      url: '/master-app/list?limit=30',
      token: s.adminToken,
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(big.statusCode).toBe(200);
    expect(big.headers['content-encoding']).toBe('br');
    expect(big.headers.vary).toMatch(/accept-encoding/i);
    expect(JSON.parse(zlib.brotliDecompressSync(big.rawPayload).toString()).result).toHaveLength(
      30,
    );
    const small = await s.api({
      method: 'GET',
      url: '/health',
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(small.headers['content-encoding']).toBeUndefined();
    const identity = await s.api({
      method: 'GET',
      url: '/master-app/list?limit=30',
      token: s.adminToken,
    });
    expect(identity.headers['content-encoding']).toBeUndefined();
  });

  it('never compresses media (already compressed)', async () => {
    fs.mkdirSync(path.join(s.config.dataDir, 'media', 'c'), { recursive: true });
    fs.writeFileSync(
      path.join(s.config.dataDir, 'media', 'c', 'big.webp'),
      Buffer.alloc(50_000, 1),
    );
    const res = await s.app.inject({
      url: '/media/c/big.webp',
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
  });
});

describe('media', () => {
  const content = Buffer.from(Array.from({ length: 2048 }, (_, i) => i % 256));
  fs.mkdirSync(path.join(s.config.dataDir, 'media', 'x'), { recursive: true });
  fs.writeFileSync(path.join(s.config.dataDir, 'media', 'x', 'y.png'), content);
  const secret = fs.readFileSync(path.join(s.config.dataDir, 'jwt-secret'), 'utf8');

  it('serves a stored file with long immutable caching and an ETag', async () => {
    const res = await s.app.inject({ url: '/media/x/y.png' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['accept-ranges']).toBe('bytes');
    expect(res.rawPayload.equals(content)).toBe(true);
    const etag = res.headers.etag;
    expect(etag).toBeTruthy();
    const again = await s.app.inject({
      url: '/media/x/y.png',
      headers: { 'if-none-match': String(etag) },
    });
    expect(again.statusCode).toBe(304);
  });

  it('answers a range request with 206 and just those bytes', async () => {
    const res = await s.app.inject({ url: '/media/x/y.png', headers: { range: 'bytes=100-199' } });
    expect(res.statusCode).toBe(206);
    expect(res.headers['content-range']).toBe('bytes 100-199/2048');
    expect(res.rawPayload.equals(content.subarray(100, 200))).toBe(true);
    const tail = await s.app.inject({ url: '/media/x/y.png', headers: { range: 'bytes=-10' } });
    expect(tail.statusCode).toBe(206);
    expect(tail.rawPayload.equals(content.subarray(2038))).toBe(true);
    const outside = await s.app.inject({
      url: '/media/x/y.png',
      headers: { range: 'bytes=5000-6000' },
    });
    expect(outside.statusCode).toBe(416);
  });

  it('answers 404 for a missing file, a folder and a dotfile', async () => {
    fs.writeFileSync(path.join(s.config.dataDir, 'media', '.hidden'), 'hidden');
    for (const url of ['/media/x/nope.png', '/media/x', '/media/x/', '/media/', '/media/.hidden']) {
      const res = await s.app.inject({ url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json(), url).toMatchObject({ statusCode: 404, error: 'Not Found' });
      expect(res.body).not.toContain('hidden');
    }
  });

  it('never serves a file outside the media folder', async () => {
    const port = await listening();
    const targets = [
      '/media/../jwt-secret',
      '/media/%2e%2e/jwt-secret',
      '/media/%2E%2E/jwt-secret',
      '/media/x/../../jwt-secret',
      '/media/x/%2e%2e/%2e%2e/jwt-secret',
      '/media/..%2fjwt-secret',
      '/media/%2e%2e%2fjwt-secret',
      '/media/..%5cjwt-secret',
      '/media//etc/passwd',
      '/media/%2fetc%2fpasswd',
      '/media/x/y.png%00',
    ];
    for (const target of targets) {
      const res = await raw(port, 'GET', target);
      expect([400, 404], `${target} answered ${res.status}`).toContain(res.status);
      expect(res.body, target).not.toContain(secret);
      expect(res.body, target).not.toContain('root:');
    }
    // The same through inject, which normalises the path first.
    for (const target of targets.slice(0, 3)) {
      const res = await s.app.inject({ url: target });
      expect([400, 404], `${target} answered ${res.statusCode}`).toContain(res.statusCode);
      expect(res.body, target).not.toContain(secret);
    }
    expect(MESSAGES.notFound).toBe('Not found');
  });
});
