/**
 * The one API client: bearer token, 50 s time-out, every response checked against its contract
 * schema, and one way of turning a failure into the text a user reads (spec §8). Built on fetch
 * (and XMLHttpRequest for uploads, whose progress fetch cannot report): every screen loads it,
 * the sign-in screen first.
 */
import type { z } from 'zod';
import { API_BASE, MESSAGES, PATHS, type ErrorResponse } from '@master-admin/contract';
import { session } from './session';

export const REQUEST_TIMEOUT_MS = 50_000;

export type FieldError = { path: string; message: string };

/**
 * What a 409 on a stale version says (API.md, "Versions"): the row as it is now (null when it was
 * deleted meanwhile), who changed it last and when; for a bulk call, every stale id and their rows.
 * A 409 for a taken unique name has none of this.
 */
export type Conflict = {
  current: Record<string, unknown> | null;
  changedBy: { id: number; name: string } | null;
  changedAt: string | null;
  /** A bulk call's stale ids. */
  stale?: number[];
};

export class ApiError extends Error {
  readonly status: number | undefined;
  readonly details: FieldError[];
  /** Set when the call was refused for a stale version. */
  readonly conflict: Conflict | undefined;
  /** A 429's Retry-After: how many seconds to wait before trying again. */
  readonly retryAfter: number | undefined;
  constructor(
    message: string,
    status?: number,
    details: FieldError[] = [],
    conflict?: Conflict,
    retryAfter?: number,
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.details = details;
    this.conflict = conflict;
    this.retryAfter = retryAfter;
  }
}

/** The conflict of a 409 on a stale version, if `err` is one. */
export function conflictOf(err: unknown): Conflict | undefined {
  return err instanceof ApiError ? err.conflict : undefined;
}

function readConflict(status: number, data: unknown): Conflict | undefined {
  if (status !== 409 || typeof data !== 'object' || data === null) return undefined;
  const body = data as Record<string, unknown>;
  if (!('current' in body) && !('stale' in body)) return undefined;
  const row = (v: unknown) =>
    typeof v === 'object' && v !== null && !Array.isArray(v)
      ? (v as Record<string, unknown>)
      : null;
  const by = row(body.changedBy);
  return {
    current: row(body.current),
    changedBy:
      by && typeof by.id === 'number' && typeof by.name === 'string'
        ? { id: by.id, name: by.name }
        : null,
    changedAt: typeof body.changedAt === 'string' ? body.changedAt : null,
    ...(Array.isArray(body.stale)
      ? { stale: body.stale.filter((id): id is number => typeof id === 'number') }
      : {}),
  };
}

let onUnauthorized: () => void = () => {
  window.location.assign('/auth/sign-in');
};

/** What to do when the server says the token no longer works (the router sends to sign-in). */
export function setUnauthorizedHandler(handler: () => void) {
  onUnauthorized = handler;
}

let onForbidden: () => void = () => undefined;

/**
 * What to do when the server refuses a call (403): the signed-in shell reads the caller's grants
 * again, so the screens stop offering what was taken away.
 */
export function setForbiddenHandler(handler: () => void) {
  onForbidden = handler;
}

/**
 * Asks the person to prove who they are (the signed-in shell's prompt, components/ReauthPrompt):
 * resolves true once proved, false when they decline. Unset, nobody can be asked.
 */
let onReauth: () => Promise<boolean> = () => Promise.resolve(false);

export function setReauthHandler(handler: (() => Promise<boolean>) | undefined) {
  onReauth = handler ?? (() => Promise.resolve(false));
}

/** The prompt under way: every call refused meanwhile waits for the same answer. */
let proving: Promise<boolean> | undefined;

/** Whether an answer asks for a recent proof of presence (API.md "Proof of presence"). */
function asksProof(status: number, data: unknown): boolean {
  return status === 403 && (data as { reauth?: unknown } | undefined)?.reauth === true;
}

/**
 * The text of a failure answer: its message, else its error, else the status line, else
 * "Unknown error from API". A 403 reads "Access Denied!", unless it says a second factor is
 * required first, or a proof of presence (what to do about them differs).
 */
export function failureText(status: number, data: unknown, statusText = ''): string {
  const body = data as Partial<ErrorResponse> | undefined;
  if (status === 403) {
    if (asksProof(status, data)) return MESSAGES.reauthCancelled;
    return body?.message === MESSAGES.secondFactorRequired
      ? MESSAGES.secondFactorRequired
      : MESSAGES.accessDenied;
  }
  if (body && typeof body === 'object') {
    if (typeof body.message === 'string' && body.message) return body.message;
    if (typeof body.error === 'string' && body.error) return body.error;
  }
  if (statusText) return `Request failed with status code ${status} (${statusText})`;
  return MESSAGES.unknownApiError;
}

/**
 * The text of any failure, as a user reads it. A server message made of its fields' failures
 * ("file: Only JPEG…") names each field by its label in `labels` when it has one ("Image: …").
 */
export function errorText(err: unknown, labels?: ReadonlyMap<string, string>): string {
  if (err instanceof ApiError) {
    const { details, message } = err;
    const named = details.map((d) => `${d.path}: ${d.message}`).join('; ');
    if (!labels || details.length === 0 || message !== named) return message;
    return details.map((d) => `${labels.get(d.path) ?? d.path}: ${d.message}`).join('; ');
  }
  if (err instanceof Error && err.message) return err.message;
  return MESSAGES.unknownApiError;
}

/** The calls of signing in: their 401 is a refused sign-in, not a session that ended. */
const SIGN_IN_CALLS: ReadonlySet<string> = new Set([
  PATHS.login,
  PATHS.loginVerify,
  PATHS.passkeyLoginOptions,
  PATHS.passkeyLoginVerify,
]);

/** What a 401 says when it refuses a code or a passkey, not the session. */
const REFUSED_PROOFS: ReadonlySet<string> = new Set([
  MESSAGES.invalidCode,
  MESSAGES.passkeyRefused,
]);

/** A Retry-After header's seconds (the delay form; the date form is not sent by the server). */
function retryAfterSeconds(header: string | null): number | undefined {
  const seconds = header === null ? NaN : Number(header);
  return Number.isFinite(seconds) && seconds >= 0 ? Math.ceil(seconds) : undefined;
}

function failure(
  status: number,
  data: unknown,
  statusText: string,
  url: string,
  retryAfter?: string | null,
): ApiError {
  const message = failureText(status, data, statusText);
  // A refused proof (a code when turning the authenticator app off, a passkey being added) ends
  // no session.
  if (status === 401 && !SIGN_IN_CALLS.has(url) && !REFUSED_PROOFS.has(message)) {
    session.clear();
    onUnauthorized();
  }
  // Not a grant taken away: the person declined to prove who they are.
  if (status === 403 && !asksProof(status, data)) onForbidden();
  const sent = (data as Partial<ErrorResponse> | undefined)?.details;
  const details: FieldError[] = Array.isArray(sent) ? sent : [];
  // Every body that carries a one-time code names it `code`: a refused one is marked there.
  if (message === MESSAGES.invalidCode && details.length === 0) {
    details.push({ path: 'code', message });
  }
  return new ApiError(
    message,
    status,
    details,
    readConflict(status, data),
    status === 429 ? retryAfterSeconds(retryAfter ?? null) : undefined,
  );
}

type Body = URLSearchParams | FormData | object | undefined;

export type RequestConfig = {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  params?: Values | undefined;
  body?: Body;
  timeout?: number;
  /**
   * 0..100 as the body goes out (an upload), with the bytes sent and their total; only then is
   * XMLHttpRequest used, and `timeout` is then how long the request may stay idle (no byte sent,
   * no answer), so a large file on a slow line is not cut off while it is still moving.
   */
  onProgress?: UploadProgress | undefined;
  /** The sign-out call itself: sent with the session's token after its other requests were cut. */
  endsSession?: boolean;
} & Change;

/**
 * A change call's options: `ifMatch`, the version of the row it was based on, sent as
 * `If-Match: "<version>"` (API.md, "Versions"); left out, the call changes whatever is stored.
 */
export type Change = { ifMatch?: number | undefined };

/**
 * Signing out cuts the requests under way and refuses every new one but the sign-out call until the
 * sign-in screen shows: once the server has ended the session they could only answer 401 (and,
 * after the token is gone, a screen still mounted would ask without one), to a screen being left.
 */
let cut = new AbortController();
let signingOut = false;
export function endSessionRequests(): { done: () => void } {
  signingOut = true;
  cut.abort();
  cut = new AbortController();
  return { done: () => void (signingOut = false) };
}

/** An upload's progress: 0..100, and the bytes sent of the body's total. */
export type UploadProgress = (percent: number, bytes: { loaded: number; total: number }) => void;

function target(config: RequestConfig): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(config.params ?? {})) {
    if (value !== undefined && value !== null && value !== '') query.append(key, String(value));
  }
  const search = query.toString();
  return `${API_BASE}${config.url}${search ? `?${search}` : ''}`;
}

/** The body as fetch and XMLHttpRequest take it, and its content type when they would not set one. */
function encode(body: Body): { data: BodyInit | undefined; type: string | undefined } {
  if (body === undefined) return { data: undefined, type: undefined };
  if (body instanceof URLSearchParams || body instanceof FormData)
    return { data: body, type: undefined };
  return { data: JSON.stringify(body), type: 'application/json' };
}

const parse = (text: string): unknown => {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
};

type Answer = { status: number; statusText: string; data: unknown; retryAfter: string | null };

/**
 * Idempotency keys (API.md "Operations"): every change call sends one, so the server answers a
 * retried change with its first answer instead of making it twice. A call whose outcome is unknown
 * (no answer: the network failed, it timed out; a 5xx; a 409 with Retry-After: the first is still
 * being answered) keeps its key, so the person's retry of that same call (method, URL, If-Match,
 * body) sends it again; a definite answer lets it go. At most MAX_KEPT_KEYS are kept, oldest out.
 */
const keptKeys = new Map<string, string>();
const MAX_KEPT_KEYS = 100;

/** A new key: a random UUID (v4). */
export function idempotencyKey(): string {
  // randomUUID needs a secure context (HTTPS or localhost); an app served over plain HTTP on a
  // local network has only getRandomValues.
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const hex = Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte, i) =>
    (i === 6 ? (byte & 0x0f) | 0x40 : i === 8 ? (byte & 0x3f) | 0x80 : byte)
      .toString(16)
      .padStart(2, '0'),
  ).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** What makes two calls the same call; undefined for a GET, which takes no key. */
function callOf(config: RequestConfig): string | undefined {
  const method = config.method ?? 'GET';
  if (method === 'GET') return undefined;
  const { body } = config;
  const sent =
    body instanceof URLSearchParams
      ? body.toString()
      : body instanceof FormData
        ? // A file by what the browser knows of it: the same file picked again is the same call.
          [...body.entries()].map(([name, value]) =>
            typeof value === 'string'
              ? [name, value]
              : [name, value.name, value.size, value.lastModified],
          )
        : (body ?? null);
  return JSON.stringify([method, target(config), config.ifMatch ?? null, sent]);
}

/** The key for `call`: the one kept from an attempt whose outcome is unknown, else a new one. */
function keyFor(call: string): string {
  return keptKeys.get(call) ?? idempotencyKey();
}

/** Keeps `key` for `call` when the outcome is unknown (`answer` undefined: none came), else lets it go. */
function settleKey(call: string, key: string, answer: Answer | undefined) {
  keptKeys.delete(call);
  const unknown =
    answer === undefined ||
    answer.status >= 500 ||
    (answer.status === 409 && answer.retryAfter !== null);
  if (!unknown) return;
  keptKeys.set(call, key);
  if (keptKeys.size > MAX_KEPT_KEYS) keptKeys.delete(keptKeys.keys().next().value ?? '');
}

/**
 * Sends a request; resolves with its status and parsed answer, or throws the network failure.
 * `key`: a change call's Idempotency-Key.
 */
function send(config: RequestConfig, key?: string): Promise<Answer> {
  const { data, type } = encode(config.body);
  const headers: Record<string, string> = {};
  const token = session.token();
  if (signingOut && !config.endsSession) {
    return Promise.reject(new ApiError(MESSAGES.networkError));
  }
  if (token) headers.Authorization = `Bearer ${token}`;
  const cutSignal = cut.signal;
  if (type) headers['Content-Type'] = type;
  if (config.ifMatch !== undefined) headers['If-Match'] = `"${config.ifMatch}"`;
  if (key !== undefined) headers['Idempotency-Key'] = key;
  const timeout = config.timeout ?? REQUEST_TIMEOUT_MS;
  const method = config.method ?? 'GET';
  const onProgress = config.onProgress;
  if (onProgress) {
    return new Promise((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open(method, target(config));
      for (const [k, v] of Object.entries(headers)) xhr.setRequestHeader(k, v);
      // An idle time-out: every byte that goes out restarts it.
      let idle: ReturnType<typeof setTimeout> | undefined;
      const stop = () => clearTimeout(idle);
      const wait = () => {
        stop();
        idle = setTimeout(() => {
          xhr.abort();
          reject(new ApiError(MESSAGES.requestTimedOut));
        }, timeout);
      };
      xhr.upload.onprogress = (e) => {
        wait();
        if (e.lengthComputable && e.total > 0) {
          onProgress(Math.round((e.loaded / e.total) * 100), { loaded: e.loaded, total: e.total });
        }
      };
      xhr.onload = () => {
        stop();
        resolve({
          status: xhr.status,
          statusText: xhr.statusText,
          data: parse(xhr.responseText),
          retryAfter: xhr.getResponseHeader('retry-after'),
        });
      };
      xhr.onerror = () => {
        stop();
        reject(new ApiError(MESSAGES.networkError));
      };
      cutSignal.addEventListener('abort', () => {
        stop();
        xhr.abort();
        reject(new ApiError(MESSAGES.networkError));
      });
      xhr.send(data as XMLHttpRequestBodyInit | null | undefined);
      wait();
    });
  }
  return fetch(target(config), {
    method,
    headers,
    body: data,
    signal: AbortSignal.any([AbortSignal.timeout(timeout), cutSignal]),
  }).then(
    async (res) => ({
      status: res.status,
      statusText: res.statusText,
      data: parse(await res.text()),
      retryAfter: res.headers.get('retry-after'),
    }),
    (err: unknown) => {
      throw new ApiError(
        (err as { name?: unknown } | null)?.name === 'TimeoutError'
          ? MESSAGES.requestTimedOut
          : MESSAGES.networkError,
      );
    },
  );
}

/**
 * Sends a request and checks the answer against `schema`. A change that needs a recent proof of
 * presence asks for one in place (the shell's prompt) and is sent again once it is given, with
 * the same Idempotency-Key (the refusal kept nothing).
 */
export async function request<S extends z.ZodType>(
  schema: S,
  config: RequestConfig,
): Promise<z.output<S>> {
  const call = callOf(config);
  const key = call === undefined ? undefined : keyFor(call);
  const sendKeyed = async () => {
    let answer: Answer | undefined;
    try {
      answer = await send(config, key);
      return answer;
    } finally {
      if (call !== undefined && key !== undefined) settleKey(call, key, answer);
    }
  };
  let res = await sendKeyed();
  if (asksProof(res.status, res.data)) {
    proving ??= onReauth().finally(() => (proving = undefined));
    if (await proving) res = await sendKeyed();
  }
  if (res.status < 200 || res.status >= 300) {
    throw failure(res.status, res.data, res.statusText, config.url, res.retryAfter);
  }
  const parsed = schema.safeParse(res.data);
  if (!parsed.success) throw new ApiError(MESSAGES.invalidResponse);
  return parsed.data;
}

export type Values = Record<string, string | number | boolean | null | undefined>;

/** A form-encoded body (the web app sends forms, spec §7); absent values are left out. */
export function formBody(values: Values): URLSearchParams {
  const body = new URLSearchParams();
  for (const [key, value] of Object.entries(values)) {
    if (value !== undefined && value !== null) body.append(key, String(value));
  }
  return body;
}

export const api = {
  get: <S extends z.ZodType>(url: string, schema: S, params?: Values) =>
    request(schema, { method: 'GET', url, params }),
  post: <S extends z.ZodType>(url: string, schema: S, body: Values = {}) =>
    request(schema, { method: 'POST', url, body: formBody(body) }),
  patch: <S extends z.ZodType>(url: string, schema: S, body: Values = {}, change: Change = {}) =>
    request(schema, { method: 'PATCH', url, body: formBody(body), ...change }),
  put: <S extends z.ZodType>(url: string, schema: S, body: Values = {}, change: Change = {}) =>
    request(schema, { method: 'PUT', url, body: formBody(body), ...change }),
  delete: <S extends z.ZodType>(url: string, schema: S, change: Change = {}) =>
    request(schema, { method: 'DELETE', url, ...change }),
  /**
   * A multipart body with files (uploads); `onProgress` receives 0..100 (and the bytes sent of
   * their total) as the bytes go out. Absent values are left out. The File is sent as it is (the
   * browser streams it from disk), never read into memory.
   */
  upload: <S extends z.ZodType>(
    method: 'POST' | 'PUT',
    url: string,
    schema: S,
    values: Record<string, Values[string] | File>,
    onProgress?: UploadProgress,
    change: Change = {},
  ) => {
    const data = new FormData();
    for (const [key, value] of Object.entries(values)) {
      if (value instanceof File) data.append(key, value, value.name);
      else if (value !== undefined && value !== null) data.append(key, String(value));
    }
    return request(schema, {
      method,
      url,
      body: data,
      onProgress: onProgress ?? (() => {}),
      ...change,
    });
  },
  /**
   * A file the server makes (an image), with the answer's headers; a failure throws the
   * server's message as every other call does.
   */
  file: async (url: string): Promise<{ blob: Blob; headers: Headers }> => {
    const headers: Record<string, string> = {};
    const token = session.token();
    if (token) headers.Authorization = `Bearer ${token}`;
    let res: Response;
    try {
      res = await fetch(target({ url }), {
        headers,
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
    } catch (err) {
      throw new ApiError(
        (err as { name?: unknown } | null)?.name === 'TimeoutError'
          ? MESSAGES.requestTimedOut
          : MESSAGES.networkError,
      );
    }
    if (!res.ok) throw failure(res.status, parse(await res.text()), res.statusText, url);
    return { blob: await res.blob(), headers: res.headers };
  },
  /**
   * A file the server streams (a list's CSV export), saved as a download. Gathered into a Blob and
   * handed to the browser's downloads, unless `toFile` and the browser can write a file as its
   * bytes arrive (the File System Access API: Chromium): then the user picks where it goes and it
   * is written chunk by chunk, never held whole in memory, which matters at a million rows
   * (hundreds of megabytes). No time-out on the body (a large export takes minutes), only on the
   * answer's first byte. `onProgress` hears the bytes received so far. Resolves `false` when the
   * user cancels the file picker.
   */
  download: async (
    url: string,
    params: Values,
    options: { onProgress?: (bytes: number) => void; toFile?: boolean } = {},
  ): Promise<boolean> => {
    const onProgress = options.onProgress ?? (() => undefined);
    const headers: Record<string, string> = {};
    const token = session.token();
    if (token) headers.Authorization = `Bearer ${token}`;
    const abort = new AbortController();
    const timer = setTimeout(
      () => abort.abort(new DOMException('', 'TimeoutError')),
      REQUEST_TIMEOUT_MS,
    );
    let res: Response;
    try {
      res = await fetch(target({ url, params }), { headers, signal: abort.signal });
    } catch (err) {
      throw new ApiError(
        (err as { name?: unknown } | null)?.name === 'TimeoutError'
          ? MESSAGES.requestTimedOut
          : MESSAGES.networkError,
      );
    } finally {
      clearTimeout(timer);
    }
    if (!res.ok) throw failure(res.status, parse(await res.text()), res.statusText, url);
    const name =
      /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? 'export.csv';
    const body = res.body;
    if (!body) throw new ApiError(MESSAGES.networkError);
    let received = 0;
    const counted = body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          received += chunk.byteLength;
          onProgress(received);
          controller.enqueue(chunk);
        },
      }),
    );
    const file = options.toFile ? await saveTarget(name) : undefined;
    if (file === 'cancelled') {
      await counted.cancel();
      return false;
    }
    try {
      if (file) {
        await counted.pipeTo(file);
        return true;
      }
      const parts: Uint8Array[] = [];
      const reader = counted.getReader();
      for (let r = await reader.read(); !r.done; r = await reader.read()) parts.push(r.value);
      const link = document.createElement('a');
      link.href = URL.createObjectURL(new Blob(parts as BlobPart[], { type: 'text/csv' }));
      link.download = name;
      document.body.append(link);
      link.click();
      link.remove();
      // The download has taken its copy once the click is handled.
      setTimeout(() => URL.revokeObjectURL(link.href), 0);
      return true;
    } catch {
      throw new ApiError(MESSAGES.networkError);
    }
  },
  /**
   * A JSON body. The web app sends forms (spec §7) but for sign-in and the bulk calls, whose `ids`
   * are a list (API.md, Conventions).
   */
  json: <S extends z.ZodType>(
    method: 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    schema: S,
    body: object,
    change: Change = {},
  ) => request(schema, { method, url, body, ...change }),
};

type SavePicker = (options: {
  suggestedName: string;
  types: Array<{ description: string; accept: Record<string, string[]> }>;
}) => Promise<{ createWritable(): Promise<WritableStream<Uint8Array>> }>;

/**
 * A file to write a download into as it arrives, where the browser offers one (Chromium); undefined
 * elsewhere, or when the picker may not open (the click's user activation has run out).
 */
async function saveTarget(
  name: string,
): Promise<WritableStream<Uint8Array> | 'cancelled' | undefined> {
  const picker = (window as { showSaveFilePicker?: SavePicker }).showSaveFilePicker;
  if (!picker) return undefined;
  try {
    const handle = await picker({
      suggestedName: name,
      types: [{ description: 'CSV file', accept: { 'text/csv': ['.csv'] } }],
    });
    return await handle.createWritable();
  } catch (err) {
    if ((err as { name?: unknown } | null)?.name === 'AbortError') return 'cancelled';
    return undefined;
  }
}
