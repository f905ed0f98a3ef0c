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
      !url.startsWith(`${API_BASE}/`) &&
      url !== API_BASE &&
      !url.startsWith('/media/') &&
      !url.startsWith('/api/docs');
    if (isPage) {
      return reply
        .header('cache-control', 'no-cache')
        .type('text/html')
        .send(fs.createReadStream(index));
    }
    return reply.code(404).send(errorBody(404, `Route ${request.method} ${url} not found`));
  });
}
