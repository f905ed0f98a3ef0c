import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { MESSAGES, STORAGE_KEYS } from '@master-admin/contract';
import {
  ApiError,
  api,
  errorText,
  failureText,
  request,
  setReauthHandler,
  setUnauthorizedHandler,
} from '../src/lib/api';
import { HttpResponse, errorJson, http, api as path, server, validationError } from './server';

describe('failureText (spec §8 order)', () => {
  it('prefers the answer’s message, then its error, then the status line', () => {
    expect(failureText(409, { message: 'Name taken', error: 'Conflict' })).toBe('Name taken');
    expect(failureText(409, { error: 'Conflict' })).toBe('Conflict');
    expect(failureText(500, '<html>', 'Internal Server Error')).toBe(
      'Request failed with status code 500 (Internal Server Error)',
    );
    expect(failureText(502, undefined)).toBe('Unknown error from API');
    expect(errorText('weird')).toBe('Unknown error from API');
  });

  it('reads "Access Denied!" for any 403', () => {
    expect(failureText(403, { message: 'Forbidden here' })).toBe('Access Denied!');
  });
});

describe('errors a user reads', () => {
  it('a server that cannot be reached', async () => {
    server.use(http.get(path('/down'), () => HttpResponse.error()));
    const err = (await api.get('/down', z.unknown()).catch((e: unknown) => e)) as ApiError;
    expect(err).toBeInstanceOf(ApiError);
    expect(err.status).toBeUndefined();
    expect(errorText(err)).toBe('The server could not be reached');
  });

  it('a 403 from the server reads "Access Denied!"', async () => {
    server.use(http.get(path('/no'), () => errorJson(403, 'Forbidden', 'Forbidden here')));
    const err = (await api.get('/no', z.unknown()).catch((e: unknown) => e)) as ApiError;
    expect(err.status).toBe(403);
    expect(errorText(err)).toBe('Access Denied!');
  });
});

describe('request', () => {
  it('sends the stored token as a bearer token', async () => {
    localStorage.setItem(STORAGE_KEYS.token, 'abc.def.ghi');
    let auth: string | null = null;
    server.use(
      http.get(path('/echo'), ({ request: r }) => {
        auth = r.headers.get('authorization');
        return HttpResponse.json({ ok: true });
      }),
    );
    await api.get('/echo', z.object({ ok: z.boolean() }));
    expect(auth).toBe('Bearer abc.def.ghi');
  });

  it('refuses an answer of the wrong shape with "Invalid response from server"', async () => {
    server.use(http.get(path('/shape'), () => HttpResponse.json({ total: 'many' })));
    await expect(api.get('/shape', z.object({ total: z.number() }))).rejects.toThrow(
      'Invalid response from server',
    );
  });

  it('sends forms form-encoded, leaving out absent values', async () => {
    let body = '';
    let type: string | null = null;
    server.use(
      http.post(path('/form'), async ({ request: r }) => {
        type = r.headers.get('content-type');
        body = await r.text();
        return HttpResponse.json({ message: 'ok' });
      }),
    );
    await api.post('/form', z.object({ message: z.string() }), {
      name: 'A & B',
      note: undefined,
      n: 3,
    });
    expect(type).toContain('application/x-www-form-urlencoded');
    expect(body).toBe('name=A+%26+B&n=3');
  });

  it('on a 401 clears the token and hands over to sign-in', async () => {
    localStorage.setItem(STORAGE_KEYS.token, 'old');
    localStorage.setItem(STORAGE_KEYS.loginId, 'me@x.y');
    const onUnauthorized = vi.fn();
    setUnauthorizedHandler(onUnauthorized);
    server.use(http.get(path('/private'), () => errorJson(401, 'Unauthorized', 'Please sign in')));
    const err = await api.get('/private', z.unknown()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(401);
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBeNull();
    expect(localStorage.getItem(STORAGE_KEYS.loginId)).toBeNull();
    expect(onUnauthorized).toHaveBeenCalledOnce();
  });

  it('on a 401 refusing a code or a passkey keeps the session, and marks the code field', async () => {
    localStorage.setItem(STORAGE_KEYS.token, 'mine');
    const onUnauthorized = vi.fn();
    setUnauthorizedHandler(onUnauthorized);
    server.use(
      http.delete(path('/account/me/totp'), () =>
        errorJson(401, 'Unauthorized', MESSAGES.invalidCode),
      ),
      http.post(path('/auth/passkey/register/verify'), () =>
        errorJson(401, 'Unauthorized', MESSAGES.passkeyRefused),
      ),
    );
    const code = (await api
      .json('DELETE', '/account/me/totp', z.unknown(), { code: '1' })
      .catch((e: unknown) => e)) as ApiError;
    expect(code.details).toEqual([{ path: 'code', message: MESSAGES.invalidCode }]);
    await api.json('POST', '/auth/passkey/register/verify', z.unknown(), {}).catch(() => undefined);
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBe('mine');
    expect(onUnauthorized).not.toHaveBeenCalled();
  });

  it('reads how long a 429 asks to wait', async () => {
    server.use(
      http.post(path('/auth/admin/login'), () =>
        HttpResponse.json(
          { statusCode: 429, message: MESSAGES.tooManyAttempts },
          { status: 429, headers: { 'Retry-After': '90' } },
        ),
      ),
    );
    const err = (await api
      .json('POST', '/auth/admin/login', z.unknown(), {})
      .catch((e: unknown) => e)) as ApiError;
    expect(err.status).toBe(429);
    expect(err.retryAfter).toBe(90);
  });

  it('keeps the field details of a validation error', async () => {
    server.use(http.post(path('/v'), () => validationError('name', 'Required')));
    const err = (await api.post('/v', z.unknown()).catch((e: unknown) => e)) as ApiError;
    expect(err.message).toBe('name: Required');
    expect(err.details).toEqual([{ path: 'name', message: 'Required' }]);
  });

  it('gives up after the time-out with a clear message', async () => {
    server.use(
      http.get(path('/slow'), async () => {
        await new Promise((r) => setTimeout(r, 200));
        return HttpResponse.json({});
      }),
    );
    await expect(request(z.unknown(), { url: '/slow', timeout: 20 })).rejects.toThrow(
      'The server took too long to answer',
    );
  });

  it('sends an upload as multipart and reports its progress', async () => {
    let type: string | null = null;
    // jsdom's File is not Node's, so the multipart body is read as text.
    let sent = '';
    server.use(
      http.post(path('/up'), async ({ request: r }) => {
        type = r.headers.get('content-type');
        sent = await r.text();
        return HttpResponse.json({ message: 'ok' });
      }),
    );
    const progress: number[] = [];
    const bytes: { loaded: number; total: number }[] = [];
    const file = new File([new Uint8Array(2048)], 'a.png', { type: 'image/png' });
    await api.upload(
      'POST',
      '/up',
      z.object({ message: z.string() }),
      { file, note: 'x' },
      (p, b) => {
        progress.push(p);
        bytes.push(b);
      },
    );
    expect(type).toMatch(/^multipart\/form-data; boundary=/);
    expect(sent).toContain('name="file"; filename="a.png"');
    expect(sent).toContain('name="note"');
    expect(progress.at(-1)).toBe(100);
    // The bytes sent of the body's total (the file and the multipart framing).
    expect(bytes.at(-1)!.loaded).toBe(bytes.at(-1)!.total);
    expect(bytes.at(-1)!.total).toBeGreaterThan(2048);
  });
});

describe('Idempotency-Key', () => {
  const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
  const ok = z.object({ message: z.string() });

  /** Answers `url`'s calls with `answers` in turn (a Response, or 'down'), noting each key sent. */
  function keysSent(
    method: 'get' | 'post' | 'put' | 'delete',
    url: string,
    answers: Array<'down' | Response>,
  ) {
    const keys: Array<string | null> = [];
    server.use(
      http[method](path(url), ({ request: r }) => {
        keys.push(r.headers.get('idempotency-key'));
        const answer = answers[keys.length - 1] ?? HttpResponse.json({ message: 'ok' });
        return answer === 'down' ? HttpResponse.error() : answer;
      }),
    );
    return keys;
  }

  it('is sent on every change (forms, JSON, uploads), never on a GET', async () => {
    const gets = keysSent('get', '/idem/read', []);
    await api.get('/idem/read', z.unknown());
    const posts = keysSent('post', '/idem/create', []);
    await api.post('/idem/create', ok, { name: 'a' });
    await api.json('POST', '/idem/create', ok, { name: 'a' });
    await api.upload('POST', '/idem/create', ok, { file: new File(['x'], 'a.png') });
    const deletes = keysSent('delete', '/idem/remove/1', []);
    await api.delete('/idem/remove/1', ok, { ifMatch: 2 });
    expect(gets).toEqual([null]);
    expect(posts).toHaveLength(3);
    for (const key of [...posts, ...deletes]) expect(key).toMatch(UUID);
    // One per action: three calls, three keys.
    expect(new Set(posts).size).toBe(3);
  });

  it('is sent again for the same call after an unknown outcome, a new one after an answer', async () => {
    const keys = keysSent('post', '/idem/save', [
      'down',
      'down',
      errorJson(503, 'Service Unavailable', 'Busy'),
      HttpResponse.json(
        { statusCode: 409, message: 'Still running' },
        { status: 409, headers: { 'Retry-After': '1' } },
      ),
      HttpResponse.json({ message: 'ok' }),
    ]);
    const save = (name: string) => api.post('/idem/save', ok, { name }).catch(() => undefined);
    await save('first');
    // Another body is another call: its own key.
    await save('second');
    await save('first');
    await save('first');
    await save('first');
    // Answered: the same call again is a new action.
    await save('first');
    const [first, second, ...rest] = keys;
    expect(second).not.toBe(first);
    expect(rest.slice(0, 3)).toEqual([first, first, first]);
    expect(rest[3]).not.toBe(first);
  });

  it('is let go after a 4xx', async () => {
    const keys = keysSent('put', '/idem/put', [errorJson(404, 'Not Found', 'Gone')]);
    for (let i = 0; i < 2; i++) await api.put('/idem/put', ok, { a: 1 }).catch(() => undefined);
    expect(keys[1]).not.toBe(keys[0]);
  });

  it('is sent again for the same upload after a network failure, the same file by name, size and date', async () => {
    const keys = keysSent('post', '/idem/upload', ['down']);
    const file = () => new File(['bytes'], 'poster.png', { lastModified: 1_700_000_000_000 });
    for (const f of [file(), file()]) {
      await api.upload('POST', '/idem/upload', ok, { file: f, title: 'T' }).catch(() => undefined);
    }
    expect(keys[1]).toBe(keys[0]);
  });

  it('is the same when a change is sent again after a proof of presence', async () => {
    setReauthHandler(() => Promise.resolve(true));
    const keys = keysSent('delete', '/idem/sessions', [
      HttpResponse.json(
        { statusCode: 403, error: 'Forbidden', message: MESSAGES.reauthRequired, reauth: true },
        { status: 403 },
      ),
    ]);
    await api.delete('/idem/sessions', ok);
    setReauthHandler(undefined);
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(keys[0]);
  });
});
