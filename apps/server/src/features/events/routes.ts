/**
 * Lists that update themselves, and who is editing what (API.md "Events"): `GET events`, a
 * server-sent event stream per signed-in tab, and `PUT`/`DELETE presence`. The machinery lives in
 * events/ (bus, streams, presence); these routes check the caller and hand over.
 */
import type { OutgoingHttpHeaders } from 'node:http';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  MESSAGES,
  PATHS,
  PRESENCE_TTL_SECONDS,
  errorResponse,
  presenceAnswer,
  presenceBody,
  type EventArea,
} from '@master-admin/contract';
import type { FastifyRequest } from 'fastify';
import { access } from '../../http/access.ts';
import { answers } from '../../http/schemas.ts';
import { HttpError, forbidden, invalidField } from '../../http/errors.ts';
import {
  MAX_STREAMS_PER_ACCOUNT,
  REPLAY_SLACK_MS,
  REPLAY_WINDOW_MS,
  accessOf,
} from '../../events/streams.ts';

// Loose: the other headers stay as they came.
const lastEventIdHeader = z.looseObject({
  'last-event-id': z.string().optional().meta({
    description:
      'The id of the last event received (EventSource sends it by itself on reconnecting).',
  }),
});

const STREAM_DESCRIPTION = [
  'A `text/event-stream` (server-sent events), with the usual `Authorization: Bearer` header ' +
    '(never a token in the URL). Events:',
  '- `event: change`, with `id: <audit entry id>` and `data: { area, action, id, version, by: ' +
    '{ id, name } }`: row `id` of `area` (a menu name: `poster`, `users` …) was created, changed ' +
    'or deleted by `by` (`name`: the account’s name, else its email) and is now at `version` ' +
    '(on a delete, the version it had; null for a row without one). Only the areas the ' +
    'account may view (VIEW on the menu; `staff`: SUPER_ADMIN only); sign-ins yield none. ' +
    'Events come after their change has committed, in commit order.',
  '- `event: presence`, `data: { area, id, editors: [{ id, name }] }`: who is editing that row ' +
    'now (an empty list: nobody any more), whenever that changes (see `PUT presence`); and, ' +
    'when the stream opens, one for every row that has editors. The caller’s own presence is ' +
    'included: a client leaves itself out.',
  '- `event: reset`, `data: {}`: what was missed cannot be replayed; refetch everything.',
  '- A comment line `: ping` when nothing else was written for 20 s (configurable, under 25 s).',
  '',
  'A new stream sends nothing from the past: its first lines are `retry: 2000` and ' +
    '`id: <newest audit entry>` (no event), so a reconnect resumes from there. Open the stream ' +
    'before fetching a list, so nothing falls between the two.',
  '',
  `Resuming: \`Last-Event-ID\` replays every event since that id, for ${REPLAY_WINDOW_MS / 1000} s ` +
    '(at least 60 s); older, unknown, or more than 5,000 entries since → `event: reset`. ' +
    'Entry ids are taken before commit, so on PostgreSQL a lower id may commit just after a ' +
    `higher one: the replay also sends the entries of the ${REPLAY_SLACK_MS / 1000} s before ` +
    'the id given, and a client drops ids it has already had (an event says "row N is now ' +
    'version V": a repeat is harmless). A replayed event carries the row’s version now (null ' +
    'once it is gone): the log keeps no versions, and now is what a refetch would read. ' +
    'Malformed `Last-Event-ID` → 400.',
  '',
  'The stream ends when its session does (sign-out, revocation, expiry, the account no longer ' +
    'active: checked within a few seconds, and at once after a change of sessions, grants or ' +
    'menus), when the server stops (reconnect: another instance answers), when the client ' +
    'stops reading (256 kB unsent: reconnect with `Last-Event-ID`), or when it is the oldest ' +
    `of more than ${MAX_STREAMS_PER_ACCOUNT} open streams of its account: an account holds at ` +
    `most ${MAX_STREAMS_PER_ACCOUNT} (all its sessions and every instance together), and ` +
    'opening one more ends its oldest (at once on the same instance, within a few seconds on ' +
    'another). Grant changes apply to an open stream. While the server is stopping, a new ' +
    'stream answers 503.',
].join('\n');

const eventRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.ctx;
  const { eventStreams, presence } = app;

  app.get(
    PATHS.events,
    {
      config: { access: access.signedIn, streaming: true },
      schema: {
        tags: ['events'],
        summary: 'The event stream: changes and presence in the areas the account may view',
        description: STREAM_DESCRIPTION,
        headers: lastEventIdHeader,
        produces: ['text/event-stream'],
        response: {
          200: z.string().meta({ description: 'A text/event-stream that stays open' }),
          '4xx': errorResponse,
          '5xx': errorResponse,
        },
      },
    },
    async (request, reply) => {
      const lastEventId = parseLastEventId(request.headers['last-event-id']);
      if (eventStreams.closing) {
        throw new HttpError(503, MESSAGES.serverStopping, { headers: { 'retry-after': '1' } });
      }
      const { sessionId } = request.account;
      const streamAccess = (await accessOf(db, [sessionId])).get(sessionId);
      // Ended between the access check and now (a sign-out under way).
      if (!streamAccess) throw new HttpError(401, MESSAGES.sessionExpired);
      void reply.hijack();
      reply.raw.writeHead(200, {
        // The security headers and the request id, set when the request came in.
        ...(reply.getHeaders() as OutgoingHttpHeaders),
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache',
        // nginx would otherwise hold events in its buffer.
        'x-accel-buffering': 'no',
      });
      // A HEAD asks for the head alone: a stream without a body would never end.
      if (request.method === 'HEAD') {
        reply.raw.end();
        return;
      }
      await eventStreams.open(
        request.raw,
        reply.raw,
        { sessionId, access: streamAccess },
        lastEventId,
      );
    },
  );

  const presenceSchema = {
    tags: ['events'],
    body: presenceBody,
    response: answers(presenceAnswer),
  };

  /** The area the body names, if the caller may view it; else 403. */
  async function viewable(request: FastifyRequest, area: EventArea) {
    const { account } = request;
    if (account.role === 'SUPER_ADMIN') return;
    if (area === 'staff') throw forbidden();
    const found = await app.sessionLookup.find(account.sessionId, { menu: area, action: 'VIEW' });
    if (!found?.granted) throw forbidden();
  }

  app.put(
    PATHS.presence,
    {
      // Not a change of any row: nothing to audit. A renewal every few seconds: an Idempotency-Key
      // is ignored (a replayed answer would not renew it).
      config: { access: access.signedIn, audit: false, keepAnswer: false },
      schema: {
        ...presenceSchema,
        summary: '"I am editing this row": shown to the others who may view the area',
        description:
          `Holds for ${PRESENCE_TTL_SECONDS} s (configurable: PRESENCE_TTL_SECONDS), renewed by ` +
          'calling again (every 10-15 s while the dialog is open); expiry is noticed within a ' +
          'few seconds. `area` is a menu name the caller may view (else 403); the row is not ' +
          'looked up (an id with no row is harmless and expires). Answers the row’s editors ' +
          'now, the caller included. Others see `event: presence` on their stream when the ' +
          'editors change (not on a renewal). Never a lock: anyone may still save. Kept in the ' +
          'database, so every instance sees it.',
      },
    },
    async (request) => {
      const { area, id } = request.body;
      await viewable(request, area);
      return { editors: await presence.hold(request.account.id, area, id) };
    },
  );

  app.delete(
    PATHS.presence,
    {
      config: { access: access.signedIn, audit: false, keepAnswer: false },
      schema: {
        ...presenceSchema,
        summary: 'Stops editing a row: the others see its editors without the caller',
        description:
          'The same body as `PUT presence`, and the same rule (VIEW on the area). Answers the ' +
          'row’s editors left. Ending a presence the caller did not hold changes nothing.',
      },
    },
    async (request) => {
      const { area, id } = request.body;
      await viewable(request, area);
      return { editors: await presence.release(request.account.id, area, id) };
    },
  );
};

/** `Last-Event-ID`: absent, or an entry id (digits); anything else is a 400 naming it. */
function parseLastEventId(value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  if (!/^(0|[1-9]\d{0,14})$/.test(value)) {
    throw invalidField('last-event-id', 'Must be the id of an event: digits only');
  }
  return Number(value);
}

export default eventRoutes;
