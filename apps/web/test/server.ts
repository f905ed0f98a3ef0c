/** The HTTP side of web tests: MSW answers the API calls the real client makes (fetch, XHR). */
import { http, HttpResponse } from 'msw/http';
import { setupServer } from 'msw/node';
import { BUILT_IN_MENUS, PERMISSION_KINDS, type MyPermissions } from '@master-admin/contract';

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

// Tests sign in as a SUPER_ADMIN unless they say otherwise (server.use(staffGrants(...))).
export const server = setupServer(
  http.get(api('/account/me/permissions'), () => HttpResponse.json(ALL_GRANTS)),
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
