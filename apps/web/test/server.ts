/** The HTTP side of web tests: MSW answers the API calls the real client makes (fetch, XHR). */
import { http, HttpResponse } from 'msw/http';
import { setupServer } from 'msw/node';
import {
  BUILT_IN_MENUS,
  PERMISSION_KINDS,
  type MyFactors,
  type MyPermissions,
} from '@master-admin/contract';

export { http, HttpResponse };

/** An API path as the browser calls it. */
export const api = (path: string) => `*/api/v1${path}`;

/** What `account/me/permissions` answers for a SUPER_ADMIN: every kind of every menu. */
export const ALL_GRANTS: MyPermissions = {
  role: 'SUPER_ADMIN',
  grants: Object.fromEntries(BUILT_IN_MENUS.map((m) => [m.name, [...PERMISSION_KINDS]])),
};

/** A STAFF account holding exactly `grants`. */
export const staffGrants = (grants: MyPermissions['grants']) =>
  http.get(api('/account/me/permissions'), () =>
    HttpResponse.json({ role: 'STAFF', grants } satisfies MyPermissions),
  );

/**
 * An event stream (`GET events`) that writes `chunks` (server-sent event text), then stays open
 * until the client lets go, as the server's does.
 */
export const eventStream = (chunks: readonly string[] = []): Response => {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
    },
  });
  // Chunked, as the server's: a body that ends when the connection closes would, once the client
  // let go, be completed by Node's fetch (undici) after its abort, failing an assertion there.
  return new HttpResponse(body, {
    headers: { 'Content-Type': 'text/event-stream', 'Transfer-Encoding': 'chunked' },
  });
};

/**
 * What `account/me/factors` answers: none set up, and none required unless `overrides` say; given
 * as a function, what it returns at the time of each call (a test whose factors change).
 */
export const myFactors = (overrides: Partial<MyFactors> | (() => Partial<MyFactors>) = {}) =>
  http.get(api('/account/me/factors'), () =>
    HttpResponse.json({
      totp: false,
      passkeys: 0,
      recoveryCodesLeft: 0,
      enrolmentRequired: false,
      ...(typeof overrides === 'function' ? overrides() : overrides),
    } satisfies MyFactors),
  );

// Tests sign in as a SUPER_ADMIN unless they say otherwise (server.use(staffGrants(...))), with no
// second factor and none required. The signed-in shell opens the event stream: by default one that
// tells nothing; nobody else edits.
export const server = setupServer(
  http.get(api('/account/me/permissions'), () => HttpResponse.json(ALL_GRANTS)),
  myFactors(),
  // The security section's, the staff screens' and the user page's reads: nothing signed in
  // elsewhere, nothing required.
  http.get(api('/account/me/sessions'), () => HttpResponse.json({ result: [] })),
  http.get(api('/account/me/passkeys'), () => HttpResponse.json({ result: [] })),
  http.get(api('/account/staff/sessions/:accountId'), () => HttpResponse.json({ result: [] })),
  http.get(api('/account/user/:accountId/sessions'), () => HttpResponse.json({ result: [] })),
  http.get(api('/account/security'), () => HttpResponse.json({ requireSecondFactor: false })),
  http.get(api('/events'), () => eventStream(['retry: 2000\nid: 0\n\n'])),
  http.put(api('/presence'), () => HttpResponse.json({ editors: [] })),
  http.delete(api('/presence'), () => HttpResponse.json({ editors: [] })),
);

/** The server's error answer; `field` names the field it refuses, as a 400 or a 409 on a name does. */
export const errorJson = (
  statusCode: number,
  error: string,
  message: string,
  field?: string,
): Response =>
  HttpResponse.json(
    { statusCode, error, message, ...(field ? { details: [{ path: field, message }] } : {}) },
    { status: statusCode },
  );

/** The server's 400 for one field it refuses: "field: message", with the field's own message. */
export const validationError = (field: string, message: string): Response =>
  HttpResponse.json(
    {
      statusCode: 400,
      error: 'Bad Request',
      message: `${field}: ${message}`,
      details: [{ path: field, message }],
    },
    { status: 400 },
  );
