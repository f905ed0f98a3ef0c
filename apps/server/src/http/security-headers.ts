/**
 * Security headers: helmet decides them, once at start (helmet's own middleware would build them
 * again for every response). Every response gets them; media get a cross-origin resource policy
 * instead, since the content app loads them from its own domains (API.md, Media). A video's embed
 * page replaces the policy with its own (`embedPolicy`): it may be framed by the master apps'
 * domains.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/** The headers helmet sets for `options`, as a plain object. */
export function helmetHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, () => {});
  return headers;
}

/**
 * The content security policy of a video's embed page: nothing but the video (from this server
 * or `mediaOrigins`) and the page's own style (`styleHashes`, CSP hash sources), framed only by
 * this server and `frameAncestors` (CSP source expressions).
 */
export function embedPolicy(options: {
  mediaOrigins: readonly string[];
  styleHashes: readonly string[];
  frameAncestors: readonly string[];
}): string {
  return [
    "default-src 'none'",
    `media-src ${["'self'", ...options.mediaOrigins].join(' ')}`,
    `style-src ${options.styleHashes.map((h) => `'${h}'`).join(' ') || "'none'"}`,
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${["'self'", ...options.frameAncestors].join(' ')}`,
  ].join('; ');
}

export function registerSecurityHeaders(
  app: FastifyInstance,
  /** `mediaOrigins`: where stored images and videos load from besides this server. */
  options: { mediaOrigins: string[]; hsts: boolean },
) {
  const headers = helmetHeaders({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // Mantine writes its theme variables into a <style> element.
        styleSrc: ["'self'", "'unsafe-inline'"],
        // Images in object storage load from its public URL's origin.
        imgSrc: ["'self'", 'data:', 'blob:', ...options.mediaOrigins],
        // Videos in object storage play from there too.
        mediaSrc: ["'self'", 'blob:', ...options.mediaOrigins],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        frameSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    crossOriginResourcePolicy: { policy: 'same-site' },
    // CSP frame-ancestors says who may frame a page; X-Frame-Options could only contradict it.
    xFrameOptions: false,
    strictTransportSecurity: options.hsts ? undefined : false,
  });
  const mediaHeaders = { ...headers, 'cross-origin-resource-policy': 'cross-origin' };
  app.addHook('onRequest', async (request, reply) => {
    void reply.headers(request.url.startsWith('/media/') ? mediaHeaders : headers);
  });
}
