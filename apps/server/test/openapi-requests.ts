/**
 * Requests made from the OpenAPI document, as a client reading it would make them: the document's
 * operations, a minimal request for each (`baseRequest`, `bodyFor`) and a way to send one in any
 * content type the document lists (`send`). Shared by the tests that compare the document with
 * what the server does, so that a route added later is covered by all of them.
 */
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { injectStreaming, type TestServer } from './harness.ts';
import { images } from './images.ts';
import { videos } from '../src/seed/video-files.ts';
import { matches, valid, type JsonSchema } from './openapi-values.ts';

export type Parameter = {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  description?: string;
  schema: JsonSchema;
};
export type Operation = {
  description?: string;
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content: Record<string, { schema: JsonSchema }> };
  security?: unknown[];
  responses?: Record<string, { content?: Record<string, { schema?: JsonSchema }> }>;
};
export type Request = {
  path: Record<string, string>;
  query: Record<string, unknown>;
  body?: unknown;
  type?: string;
  /** Request headers beyond the admin's authorization (an If-Match). */
  headers?: Record<string, string>;
};

/** A document's operations and how to send the requests it describes. */
export type DocumentClient = Awaited<ReturnType<typeof documentClient>>;

/**
 * The operations of the document at `options.document` (the back-office's by default), sending
 * each request with `options.credentials` (by default a fresh token of the admin, or the
 * metrics token where the operation takes it).
 */
export async function documentClient(
  s: TestServer,
  options: {
    document?: string;
    credentials?: () => Promise<Record<string, string>>;
  } = {},
) {
  const doc = (await s.app.inject({ url: options.document ?? '/api/docs/json' })).json<{
    paths: Record<string, Record<string, Operation>>;
  }>();
  // Operations whose answer is a stream that stays open (the event stream).
  const streaming = new Set(
    Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops)
        .filter(([, op]) => op.responses?.['200']?.content?.['text/event-stream'])
        .map(([method]) => `${method.toUpperCase()} ${path}`),
    ),
  );
  const operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => ({ path, method: method.toUpperCase(), op })),
  );
  const adminId = s.adminId;
  const png = await images.png();
  const mp4 = videos.mp4();
  /** A file of the kind the field's description says it takes. */
  const fileFor = (field: JsonSchema & { description?: string }) =>
    field.description?.startsWith('A video') ? mp4 : png;

  let address = 0;
  async function send(
    method: string,
    template: string,
    request: Request,
  ): Promise<LightMyRequestResponse> {
    const url = template.replace(/\{(\w+)\}/g, (_, name: string) =>
      encodeURIComponent(request.path[name] ?? ''),
    );
    const query = new URLSearchParams(
      Object.entries(request.query).map(([k, v]): [string, string] => [k, `${v as string}`]),
    );
    // `/metrics` takes its own token (METRICS_TOKEN) rather than a sign-in's.
    const metricsToken = doc.paths[template]?.[method.toLowerCase()]?.security?.some(
      (scheme) => typeof scheme === 'object' && scheme !== null && 'metricsToken' in scheme,
    );
    const credentials = options.credentials
      ? await options.credentials()
      : {
          authorization: `Bearer ${metricsToken ? s.config.metricsToken : await s.tokenFor(adminId)}`,
        };
    const headers: Record<string, string> = { ...credentials, ...request.headers };
    let payload: string | Buffer | undefined;
    if (request.body !== undefined) {
      const body = request.body as Record<string, unknown>;
      if (request.type === 'application/x-www-form-urlencoded') {
        headers['content-type'] = request.type;
        payload = new URLSearchParams(
          Object.entries(body).map(([k, v]): [string, string] => [
            k,
            v === null ? '' : `${v as string}`,
          ]),
        ).toString();
      } else if (request.type === 'multipart/form-data') {
        const form = new FormData();
        for (const [k, v] of Object.entries(body)) {
          if (v instanceof Buffer)
            form.append(k, new Blob([new Uint8Array(v)], { type: 'image/png' }), 'a.png');
          else form.append(k, v === null ? '' : `${v as string}`);
        }
        const encoded = new Response(form);
        headers['content-type'] = encoded.headers.get('content-type')!;
        payload = Buffer.from(await encoded.arrayBuffer());
      } else {
        headers['content-type'] = 'application/json';
        payload = JSON.stringify(body);
      }
    }
    address += 1;
    const inject = streaming.has(`${method} ${template}`)
      ? (options: InjectOptions) => injectStreaming(s.app, options)
      : (options: InjectOptions) => s.app.inject(options);
    return inject({
      method,
      url: `${url}${query.size > 0 ? `?${query.toString()}` : ''}`,
      headers,
      payload,
      // Rate limits count per address; each request comes from its own.
      remoteAddress: `10.9.${Math.floor(address / 250) % 250}.${(address % 250) + 1}`,
    });
  }

  function baseRequest(op: Operation): Request {
    const path: Record<string, string> = {};
    const query: Record<string, unknown> = {};
    for (const p of op.parameters ?? []) {
      if (p.in === 'path') path[p.name] = String(valid(p.schema));
      else if (p.required) query[p.name] = valid(p.schema);
    }
    return { path, query };
  }

  /** A body for `type`, with a real file in each binary field the schema requires. */
  function bodyFor(schema: JsonSchema, type: string, fields?: Record<string, unknown>) {
    const body = valid(schema, fields) as Record<string, unknown>;
    for (const [key, sub] of Object.entries(schema.properties ?? {})) {
      if (sub.format === 'binary' && (schema.required ?? []).includes(key))
        body[key] = fileFor(sub);
    }
    return type === 'multipart/form-data'
      ? body
      : Object.fromEntries(Object.entries(body).filter(([, v]) => !(v instanceof Buffer)));
  }

  return { operations, send, baseRequest, bodyFor, fileFor };
}

/** The fields an error answer names (`details[].path`). */
export function namedFields(res: LightMyRequestResponse): string[] {
  const details = res.json<{ details?: Array<{ path: string }> }>().details ?? [];
  return details.map((d) => d.path);
}

/**
 * What is wrong with `res` as an answer of `op`, by its document, if anything: its status must be
 * listed (itself, its class such as `4XX`, or `default`), its content type among that answer's,
 * and a JSON body must match that answer's schema.
 */
export function answerProblem(op: Operation, res: LightMyRequestResponse): string | undefined {
  const status = String(res.statusCode);
  const answers = op.responses ?? {};
  const documented = answers[status] ?? answers[`${status[0]}XX`] ?? answers.default;
  if (!documented) return `${status} is not documented (${Object.keys(answers).join(', ')})`;
  const type = String(res.headers['content-type'] ?? '')
    .split(';')[0]!
    .trim();
  const content = documented.content ?? {};
  if (type === '' && res.body === '') return undefined;
  if (!(type in content)) {
    return `${status} answered ${type}, documented ${Object.keys(content).join(', ') || 'no body'}`;
  }
  const schema = content[type]?.schema;
  if (type === 'application/json' && schema && !matches(schema, JSON.parse(res.body))) {
    return `${status} answered ${res.body.slice(0, 300)}, not the documented schema`;
  }
  return undefined;
}
