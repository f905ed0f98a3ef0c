/**
 * Serves the built web app (long-cached hashed assets, a never-cached index.html for every other
 * path so deep links load the app) and the local media folder.
 */
import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyError, FastifyInstance } from 'fastify';
import { API_BASE, MESSAGES } from '@master-admin/contract';
import { errorBody, handleError } from './errors.ts';
import { METRICS_PATH } from './metrics.ts';

const IMMUTABLE = 'public, max-age=31536000, immutable';

export async function registerMedia(app: FastifyInstance, mediaDir: string) {
  fs.mkdirSync(mediaDir, { recursive: true });
  await app.register(async (media) => {
    // The file server refuses a path that escapes the root, a directory or a dotfile with 403;
    // API.md promises 404 for all of them: there is no such media file.
    media.setErrorHandler(function (err: FastifyError, request, reply) {
      if (err.statusCode === 403) {
        return reply.code(404).send(errorBody(404, MESSAGES.notFound));
      }
      return handleError.call(this, err, request, reply);
    });
    await media.register(fastifyStatic, {
      root: mediaDir,
      prefix: '/media/',
      decorateReply: false,
      index: false,
      list: false,
      dotfiles: 'deny',
      cacheControl: false,
      etag: true,
      setHeaders: (reply) => void reply.header('cache-control', IMMUTABLE),
    });
  });
}

export async function registerWebApp(app: FastifyInstance, dist: string | undefined) {
  const index = dist ? path.join(dist, 'index.html') : '';
  const hasBuild = dist !== undefined && fs.existsSync(index);
  if (dist && hasBuild) {
    await app.register(fastifyStatic, {
      root: dist,
      prefix: '/',
      index: 'index.html',
      // Files are looked up per request, so a rebuild is served without a restart.
      wildcard: true,
      // The build writes .br and .gz beside each asset (apps/web/precompress.ts): sent as the
      // browser accepts, with Vary: Accept-Encoding.
      preCompressed: true,
      cacheControl: false,
      setHeaders: (reply, file) =>
        void reply.header(
          'cache-control',
          file.includes(`${path.sep}assets${path.sep}`) ? IMMUTABLE : 'no-cache',
        ),
    });
  } else if (dist) {
    app.log.warn({ dist }, 'the web app is not built: only the API is served');
  }

  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0] ?? '/';
    // A deep link (no file extension) gets the app; a missing file, such as a chunk of an older
    // build, gets a 404 the browser can act on.
    const isPage =
      hasBuild &&
      (request.method === 'GET' || request.method === 'HEAD') &&
      !/\.[a-z0-9]+$/i.test(url) &&
      servedByWebApp(url);
    if (isPage) {
      return reply
        .header('cache-control', 'no-cache')
        .type('text/html')
        .send(fs.createReadStream(index));
    }
    const allowed = allowedMethods(app, url);
    if (allowed.length > 0 && !allowed.includes(request.method)) {
      return reply
        .code(405)
        .header('allow', allowed.join(', '))
        .send(errorBody(405, notAllowed(request.method, url, allowed)));
    }
    return reply.code(404).send(errorBody(404, `Route ${request.method} ${url} not found`));
  });
  answerUnknownMethods(app);
}

/**
 * Paths the web app serves (when built): all but the API, its documentation, the media and
 * `/metrics` (an unknown path without METRICS_TOKEN: API.md promises a JSON 404 there).
 */
function servedByWebApp(path: string): boolean {
  return (
    !path.startsWith(`${API_BASE}/`) &&
    path !== API_BASE &&
    !path.startsWith('/media/') &&
    !path.startsWith('/api/docs') &&
    !path.startsWith('/api/app/') &&
    path.replace(/\/+$/, '') !== METRICS_PATH
  );
}

/**
 * The methods some route takes at `path` (HEAD wherever GET is), in alphabetical order. The web
 * app's catch-all route (`/*`, whose wildcard is the whole path) counts only where it serves.
 */
function allowedMethods(app: FastifyInstance, path: string): string[] {
  const whole = path.replace(/^\/+|\/+$/g, '');
  return app.supportedMethods
    .filter((method) => {
      const route = app.findRoute({ method, url: path });
      if (!route) return false;
      const wildcard = route.params['*'];
      return wildcard === undefined || servedByWebApp(path) || !sameDecoded(wildcard, whole);
    })
    .sort();
}

function sameDecoded(value: string, encoded: string): boolean {
  try {
    return value === decodeURIComponent(encoded);
  } catch {
    return false;
  }
}

const notAllowed = (method: string, path: string, allowed: string[]) =>
  `Method ${method} is not allowed on ${path}: it takes ${allowed.join(', ')}`;

/**
 * A method Node's HTTP parser does not know (a made-up one, or written in lower case) never reaches
 * the router: the parser refuses the request before Fastify sees it. On a path some route takes,
 * it gets the not-found handler's 405 instead of the parser's 400; anything else is left to
 * Fastify's handler, which finds the socket as it was.
 */
function answerUnknownMethods(app: FastifyInstance) {
  app.server.prependListener(
    'clientError',
    (err: Error & { code?: string; rawPacket?: Buffer }, socket) => {
      if (err.code !== 'HPE_INVALID_METHOD' || !socket.writable) return;
      const line = /^(\S+) (\/\S*) HTTP\/1\.[01]\r?\n/.exec(
        err.rawPacket?.toString('latin1') ?? '',
      );
      if (!line) return;
      const [, method, target] = line as unknown as [string, string, string];
      const path = target.split('?')[0]!;
      const allowed = allowedMethods(app, path);
      if (allowed.length === 0) return;
      const body = JSON.stringify(errorBody(405, notAllowed(method, path, allowed)));
      socket.write(
        'HTTP/1.1 405 Method Not Allowed\r\n' +
          `Allow: ${allowed.join(', ')}\r\n` +
          'Content-Type: application/json; charset=utf-8\r\n' +
          `Content-Length: ${Buffer.byteLength(body)}\r\n` +
          'Connection: close\r\n\r\n' +
          body,
      );
      socket.destroy();
    },
  );
}
