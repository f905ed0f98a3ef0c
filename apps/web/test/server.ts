/** The HTTP side of web tests: MSW answers the API calls the real axios client makes. */
import { http, HttpResponse } from 'msw/http';
import { setupServer } from 'msw/node';

export const server = setupServer();
export { http, HttpResponse };

/** An API path as the browser calls it. */
export const api = (path: string) => `*/api/v1${path}`;

export const errorJson = (statusCode: number, error: string, message: string): Response =>
  HttpResponse.json({ statusCode, error, message }, { status: statusCode });
