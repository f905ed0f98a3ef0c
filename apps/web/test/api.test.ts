import { describe, expect, it, vi } from 'vitest';
import { AxiosError, AxiosHeaders } from 'axios';
import { z } from 'zod';
import { STORAGE_KEYS } from '@master-admin/contract';
import { ApiError, api, errorText, request, setUnauthorizedHandler } from '../src/lib/api';
import { HttpResponse, errorJson, http, api as path, server } from './server';

function axiosError(
  status: number | undefined,
  data: unknown,
  message = 'Request failed',
): AxiosError {
  const config = { headers: new AxiosHeaders() };
  return new AxiosError(
    message,
    'ERR_BAD_RESPONSE',
    config,
    undefined,
    status === undefined ? undefined : { status, statusText: '', headers: {}, config, data },
  );
}

describe('errorText (spec §8 order)', () => {
  it('prefers the response message, then its error, then the client message', () => {
    expect(errorText(axiosError(409, { message: 'Name taken', error: 'Conflict' }))).toBe(
      'Name taken',
    );
    expect(errorText(axiosError(409, { error: 'Conflict' }))).toBe('Conflict');
    expect(errorText(axiosError(500, '<html>', 'Request failed with status code 500'))).toBe(
      'Request failed with status code 500',
    );
    expect(errorText(axiosError(undefined, undefined, ''))).toBe('Unknown error from API');
    expect(errorText('weird')).toBe('Unknown error from API');
  });

  it('reads "Access Denied!" for any 403', () => {
    expect(errorText(axiosError(403, { message: 'Forbidden here' }))).toBe('Access Denied!');
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

  it('keeps the field details of a validation error', async () => {
    server.use(
      http.post(path('/v'), () =>
        HttpResponse.json(
          {
            statusCode: 400,
            error: 'Bad Request',
            message: 'name: Required',
            details: [{ path: 'name', message: 'Required' }],
          },
          { status: 400 },
        ),
      ),
    );
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
});
