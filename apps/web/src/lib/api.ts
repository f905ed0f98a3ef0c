/**
 * The one API client: bearer token, 50 s time-out, every response checked against its contract
 * schema, and one way of turning a failure into the text a user reads (spec §8).
 */
import axios, { AxiosError, type AxiosRequestConfig } from 'axios';
import type { z } from 'zod';
import { API_BASE, MESSAGES, PATHS, type ErrorResponse } from '@master-admin/contract';
import { session } from './session';

export const REQUEST_TIMEOUT_MS = 50_000;

export type FieldError = { path: string; message: string };

export class ApiError extends Error {
  readonly status: number | undefined;
  readonly details: FieldError[];
  constructor(message: string, status?: number, details: FieldError[] = []) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.details = details;
  }
}

const http = axios.create({ baseURL: API_BASE, timeout: REQUEST_TIMEOUT_MS });

http.interceptors.request.use((config) => {
  const token = session.token();
  if (token) config.headers.set('Authorization', `Bearer ${token}`);
  return config;
});

let onUnauthorized: () => void = () => {
  window.location.assign('/auth/sign-in');
};

/** What to do when the server says the token no longer works (the router sends to sign-in). */
export function setUnauthorizedHandler(handler: () => void) {
  onUnauthorized = handler;
}

/**
 * The text of a failure: the response's message, else its error, else the client's message,
 * else "Unknown error from API". A 403 always reads "Access Denied!".
 */
export function errorText(err: unknown): string {
  if (err instanceof ApiError) return err.message;
  if (err instanceof AxiosError) {
    if (err.response?.status === 403) return MESSAGES.accessDenied;
    const data = err.response?.data as Partial<ErrorResponse> | undefined;
    if (data && typeof data === 'object') {
      if (typeof data.message === 'string' && data.message) return data.message;
      if (typeof data.error === 'string' && data.error) return data.error;
    }
    if (err.code === AxiosError.ECONNABORTED || err.code === AxiosError.ETIMEDOUT) {
      return MESSAGES.requestTimedOut;
    }
    return err.message || MESSAGES.unknownApiError;
  }
  if (err instanceof Error && err.message) return err.message;
  return MESSAGES.unknownApiError;
}

function toApiError(err: unknown, url: string | undefined): ApiError {
  if (!(err instanceof AxiosError)) return new ApiError(errorText(err));
  const status = err.response?.status;
  if (status === 401 && url !== PATHS.login) {
    session.clear();
    onUnauthorized();
  }
  const data = err.response?.data as Partial<ErrorResponse> | undefined;
  return new ApiError(errorText(err), status, Array.isArray(data?.details) ? data.details : []);
}

/** Sends a request and checks the answer against `schema`. */
export async function request<S extends z.ZodType>(
  schema: S,
  config: AxiosRequestConfig,
): Promise<z.output<S>> {
  let data: unknown;
  try {
    data = (await http.request(config)).data;
  } catch (err) {
    throw toApiError(err, config.url);
  }
  const parsed = schema.safeParse(data);
  if (!parsed.success) throw new ApiError(MESSAGES.invalidResponse);
  return parsed.data;
}

type Values = Record<string, string | number | boolean | null | undefined>;

/** A form-encoded body (the web app sends forms, spec §7); absent values are left out. */
export function formBody(values: Values): URLSearchParams {
  const body = new URLSearchParams();
  for (const [key, value] of Object.entries(values)) {
    if (value !== undefined && value !== null) body.append(key, String(value));
  }
  return body;
}

/** Query parameters without empty values. */
function cleanParams(params: Values | undefined): Values | undefined {
  if (!params) return undefined;
  return Object.fromEntries(
    Object.entries(params).filter(([, v]) => v !== undefined && v !== null && v !== ''),
  );
}

export const api = {
  get: <S extends z.ZodType>(url: string, schema: S, params?: Values) =>
    request(schema, { method: 'GET', url, params: cleanParams(params) }),
  post: <S extends z.ZodType>(url: string, schema: S, body: Values = {}) =>
    request(schema, { method: 'POST', url, data: formBody(body) }),
  patch: <S extends z.ZodType>(url: string, schema: S, body: Values = {}) =>
    request(schema, { method: 'PATCH', url, data: formBody(body) }),
  put: <S extends z.ZodType>(url: string, schema: S, body: Values = {}) =>
    request(schema, { method: 'PUT', url, data: formBody(body) }),
  delete: <S extends z.ZodType>(url: string, schema: S) =>
    request(schema, { method: 'DELETE', url }),
  /**
   * A multipart body with files (uploads); `onProgress` receives 0..100 as the bytes go out.
   * Absent values are left out.
   */
  upload: <S extends z.ZodType>(
    method: 'POST' | 'PUT',
    url: string,
    schema: S,
    values: Record<string, Values[string] | File>,
    onProgress?: (percent: number) => void,
  ) => {
    const data = new FormData();
    for (const [key, value] of Object.entries(values)) {
      if (value instanceof File) data.append(key, value, value.name);
      else if (value !== undefined && value !== null) data.append(key, String(value));
    }
    return request(schema, {
      method,
      url,
      data,
      onUploadProgress: (e) => {
        if (onProgress && e.total) onProgress(Math.round((e.loaded / e.total) * 100));
      },
    });
  },
  /** JSON body: only sign-in sends JSON (spec §7). */
  postJson: <S extends z.ZodType>(url: string, schema: S, body: object) =>
    request(schema, { method: 'POST', url, data: body }),
};
