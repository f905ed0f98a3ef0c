/**
 * The back-office's OpenAPI document describes exactly what the server accepts and answers: the
 * checks every document passes (openapi-suite.ts: every request it allows, at each edge, is
 * accepted and answered as documented), and its own: an If-Match, an Idempotency-Key or an email
 * outside its pattern, an empty body where one field is needed, rules between query parameters,
 * blank values, are refused with 400 naming the field.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASE, IDEMPOTENCY_KEY, IF_MATCH } from '@master-admin/contract';
import { startServer } from './harness.ts';
import { documentChecks, refused } from './openapi-suite.ts';
import { matches } from './openapi-values.ts';
import { answerProblem, documentClient, namedFields, type Operation } from './openapi-requests.ts';

const METRICS_TOKEN = 'openapi-metrics-token-0123456789';
// With METRICS_TOKEN, so that `/metrics` is in the document and its answers are checked too.
const s = await startServer({ METRICS_TOKEN });
afterAll(() => s.close());

const client = await documentClient(s);
const { operations, send, baseRequest, bodyFor } = client;
beforeAll(async () => {
  // Rows for the ids the requests name (1), so most calls reach their handler's success.
  for (const name of ['Doc App', 'Doc App 2']) {
    await s.api({ method: 'POST', url: '/master-app', token: s.adminToken, payload: { name } });
  }
});

documentChecks(client, { fileFields: 22 });

describe('rules between query parameters, as their descriptions state them', () => {
  const withParameters = (...names: string[]) =>
    operations.flatMap(({ path, method, op }) => {
      const found = names.map((n) => op.parameters?.find((p) => p.in === 'query' && p.name === n));
      return found.every((p) => p !== undefined) ? [{ path, method, op, parameters: found }] : [];
    });

  it('inDays, fromDate and toDate are taken in any combination (no rule between them)', async () => {
    const targets = withParameters('inDays', 'fromDate', 'toDate');
    expect(targets.length).toBeGreaterThanOrEqual(3);
    const problems: string[] = [];
    for (const { path, method, op } of targets) {
      const base = baseRequest(op);
      for (const given of [
        { inDays: 7, fromDate: '2026-01-15' },
        { inDays: 7, toDate: '2026-01-15' },
        { inDays: 3650, fromDate: '2026-01-10', toDate: '2026-01-15' },
      ]) {
        const res = await send(method, path, { ...base, query: { ...base.query, ...given } });
        if (res.statusCode !== 200)
          problems.push(
            `${method} ${path} ${JSON.stringify(given)}: ${res.statusCode} ${res.body}`,
          );
        const wrong = answerProblem(op, res);
        if (wrong) problems.push(`${method} ${path} ${JSON.stringify(given)}: ${wrong}`);
      }
    }
    expect(problems.join('\n')).toBe('');
  });

  it('toDate is not before fromDate: 400 naming toDate', async () => {
    const targets = withParameters('fromDate', 'toDate');
    expect(targets.length).toBeGreaterThanOrEqual(5);
    const problems: string[] = [];
    for (const { path, method, op, parameters } of targets) {
      const toDate = parameters[1]!;
      if (!toDate.description?.includes('not before fromDate'))
        problems.push(`${method} ${path} toDate: ${toDate.description}`);
      const base = baseRequest(op);
      for (const [from, to, refused] of [
        ['2026-01-16', '2026-01-15', true],
        ['2026-01-15', '2026-01-15', false],
      ] as const) {
        const query = { ...base.query, fromDate: from, toDate: to };
        const res = await send(method, path, { ...base, query });
        const named = res.statusCode === 400 && namedFields(res).includes('toDate');
        if (named !== refused) problems.push(`${method} ${path} ${from}..${to}: ${res.statusCode}`);
      }
    }
    expect(problems.join('\n')).toBe('');
  });
});

describe('a header, an email and an empty body are taken exactly as the document says', () => {
  const withIfMatch = operations.filter(({ op }) =>
    (op.parameters ?? []).some((p) => p.in === 'header' && p.name === 'if-match'),
  );
  const ifMatchOf = (op: Operation) =>
    op.parameters!.find((p) => p.in === 'header' && p.name === 'if-match')!;

  it('If-Match is documented on every change of one row with the pattern the server reads', () => {
    expect(withIfMatch.length).toBeGreaterThanOrEqual(44);
    const problems = withIfMatch
      .filter(({ op }) => ifMatchOf(op).schema.pattern !== IF_MATCH.source)
      .map(({ method, path, op }) => `${method} ${path}: ${JSON.stringify(ifMatchOf(op).schema)}`);
    expect(problems.join('\n')).toBe('');
  });

  it('If-Match: a value the pattern allows is taken, any other refused naming it', async () => {
    const values = [
      '*',
      ' * ',
      '1',
      '"1"',
      'W/"1"',
      ' "7" ',
      '"2147483647"',
      '2147483647',
      '"2147483648"',
      '"0"',
      '0',
      '"01"',
      '"-1"',
      '"1.0"',
      'W/1',
      'w/"1"',
      '"1',
      '1"',
      '""',
      'abc',
      '"1", "2"',
      '',
    ];
    // A JSON change, a status change and a file replacement: the one check serves them all.
    const targets = [
      withIfMatch.find(({ method, path }) => method === 'PATCH' && path.includes('/faqs/')),
      withIfMatch.find(({ path }) => path.includes('/status/')),
      withIfMatch.find(({ op }) => op.requestBody?.content['multipart/form-data'] !== undefined),
    ];
    const problems: string[] = [];
    for (const target of targets) {
      expect(target).toBeDefined();
      const { method, path, op } = target!;
      const schema = ifMatchOf(op).schema;
      const [type, content] = Object.entries(op.requestBody?.content ?? {})[0] ?? [];
      const body = type && content ? bodyFor(content.schema, type) : undefined;
      for (const value of values) {
        const res = await send(method, path, {
          ...baseRequest(op),
          body,
          type,
          headers: { 'if-match': value },
        });
        const taken = !(res.statusCode === 400 && namedFields(res).includes('If-Match'));
        if (taken !== matches(schema, value) || refused(res.statusCode) !== !taken)
          problems.push(`${method} ${path} If-Match ${JSON.stringify(value)}: ${res.statusCode}`);
        const wrong = answerProblem(op, res);
        if (wrong) problems.push(`${method} ${path} If-Match ${JSON.stringify(value)}: ${wrong}`);
      }
    }
    expect(problems.join('\n')).toBe('');
  });

  const changes = operations.filter(({ method }) => method !== 'GET');
  const keyOf = (op: Operation) =>
    op.parameters?.find((p) => p.in === 'header' && p.name === 'idempotency-key');

  it('Idempotency-Key is documented on every change, with its pattern, length and answers', () => {
    expect(changes.length).toBeGreaterThanOrEqual(100);
    const problems: string[] = [];
    for (const { method, path, op } of changes) {
      const schema = keyOf(op)?.schema;
      if (schema?.pattern !== IDEMPOTENCY_KEY.source || schema.maxLength !== 128)
        problems.push(`${method} ${path}: ${JSON.stringify(schema)}`);
      // A call whose answer is never kept says so, and answers neither 422 nor a key's 409.
      const ignored = op.description?.includes('`Idempotency-Key` is taken and ignored') ?? false;
      if (!ignored && !(op.responses?.['409'] && op.responses['422']))
        problems.push(`${method} ${path}: 409 and 422 not documented`);
    }
    expect(problems.join('\n')).toBe('');
  });

  it('Idempotency-Key: a value the pattern allows is taken, any other refused naming it', async () => {
    // A JSON create, an upload and a delete: the one check serves them all.
    const targets = [
      changes.find(({ method, path }) => method === 'POST' && path.endsWith('/faqs')),
      changes.find(({ op }) =>
        Object.values(op.requestBody?.content['multipart/form-data']?.schema.properties ?? {}).some(
          (p) => p.format === 'binary',
        ),
      ),
      changes.find(({ method, path }) => method === 'DELETE' && path.includes('/faqs/')),
    ];
    const problems: string[] = [];
    for (const [i, target] of targets.entries()) {
      expect(target).toBeDefined();
      const { method, path, op } = target!;
      const schema = keyOf(op)!.schema;
      const [type, content] = Object.entries(op.requestBody?.content ?? {})[0] ?? [];
      const body = type && content ? bodyFor(content.schema, type) : undefined;
      // Keys of each target's own: one sent with another request would answer 422.
      const c = String.fromCharCode(97 + i);
      const values = [c, c.repeat(128), `${c} ${c}`, `"${c}~"`, `!${c}`, '', ' ', c.repeat(129)];
      values.push(` ${c}`, `${c} `, `${c}\t${c}`, `${c}é`, `${c}\u007f`);
      for (const value of values) {
        const res = await send(method, path, {
          ...baseRequest(op),
          body,
          type,
          headers: { 'idempotency-key': value },
        });
        const taken = !(res.statusCode === 400 && namedFields(res).includes('Idempotency-Key'));
        if (taken !== matches(schema, value) || refused(res.statusCode) !== !taken)
          problems.push(`${method} ${path} key ${JSON.stringify(value)}: ${res.statusCode}`);
        const wrong = answerProblem(op, res);
        if (wrong) problems.push(`${method} ${path} key ${JSON.stringify(value)}: ${wrong}`);
      }
    }
    expect(problems.join('\n')).toBe('');
  });

  it('an email: what its pattern allows is taken (RFC 5322 characters too), the rest refused naming it', async () => {
    const values = [
      '&u@a.help',
      "o'neil+tag@sub.example.co",
      "a!#$%&'*+/=?^_`{|}~-z@example.com",
      'first.last@x-y.example',
      'A@B.CO',
      'a@b.c',
      `${'a'.repeat(64)}@${'b'.repeat(63)}.com`,
      'a@localhost',
      '"q"@example.com',
      'a@[127.0.0.1]',
      'a..b@example.com',
      '.a@example.com',
      'a.@example.com',
      'a@-example.com',
      'a@example-.com',
      'a@example..com',
      `a@${'b'.repeat(64)}.com`,
      'ä@example.com',
      'a@b_c.com',
      'a b@example.com',
      'a@@example.com',
    ];
    const problems: string[] = [];
    let fields = 0;
    for (const { path, method, op } of operations) {
      const json = op.requestBody?.content['application/json'];
      if (!json) continue;
      for (const [name, sub] of Object.entries(json.schema.properties ?? {})) {
        if (![sub, ...(sub.anyOf ?? [])].some((b) => b.format === 'email')) continue;
        fields += 1;
        for (const value of values) {
          // A body the document allows with a plain address, then this one in its place.
          const body = {
            ...bodyFor(json.schema, 'application/json', { [name]: 'person@example.com' }),
            [name]: value,
          };
          const res = await send(method, path, {
            ...baseRequest(op),
            body,
            type: 'application/json',
          });
          const taken = !(res.statusCode === 400 && namedFields(res).includes(name));
          if (taken !== matches(json.schema, body))
            problems.push(`${method} ${path} ${name}=${value}: ${res.statusCode} ${res.body}`);
        }
      }
    }
    expect(fields).toBeGreaterThanOrEqual(3);
    expect(problems.join('\n')).toBe('');
  });

  it('an empty body: refused where the document asks for a field (required, minProperties), taken elsewhere', async () => {
    const problems: string[] = [];
    let needing = 0;
    for (const { path, method, op } of operations) {
      for (const [type, { schema }] of Object.entries(op.requestBody?.content ?? {})) {
        const allowed = matches(schema, {});
        if (!allowed && (schema.minProperties ?? 0) > 0) needing += 1;
        const res = await send(method, path, { ...baseRequest(op), body: {}, type });
        if (allowed === (res.statusCode === 400))
          problems.push(
            `${method} ${path} ${type} {}: ${res.statusCode} ${res.body.slice(0, 200)}`,
          );
      }
    }
    // Each partial update (PATCH blogs …), in each of its three content types.
    expect(needing).toBeGreaterThanOrEqual(8 * 3);
    expect(problems.join('\n')).toBe('');
  });

  it('/metrics answers as documented: text with its token, JSON 401 without', async () => {
    const metrics = operations.find(({ path }) => path === '/metrics');
    expect(metrics).toBeDefined();
    const { op } = metrics!;
    expect(Object.keys(op.responses?.['401']?.content ?? {})).toEqual(['application/json']);
    for (const authorization of [`Bearer ${METRICS_TOKEN}`, 'Bearer wrong', undefined]) {
      const res = await s.app.inject({
        url: '/metrics',
        headers: authorization ? { authorization } : {},
      });
      expect(res.statusCode).toBe(authorization === `Bearer ${METRICS_TOKEN}` ? 200 : 401);
      expect(answerProblem(op, res), authorization).toBeUndefined();
    }
  });
});

describe('a blank value (empty, or spaces only) is taken where the document says so, and only there', () => {
  const BLANKS = ['', ' ', '\t'];

  it('in every query parameter', async () => {
    const problems: string[] = [];
    for (const { path, method, op } of operations) {
      const base = baseRequest(op);
      for (const p of op.parameters ?? []) {
        if (p.in !== 'query') continue;
        for (const blank of BLANKS) {
          const res = await send(method, path, {
            ...base,
            query: { ...base.query, [p.name]: blank },
          });
          const taken = !(res.statusCode === 400 && namedFields(res).includes(p.name));
          if (taken !== matches(p.schema, blank)) {
            problems.push(
              `${method} ${path} ?${p.name}=${JSON.stringify(blank)}: ${res.statusCode}, the document ${taken ? 'refuses' : 'allows'} it`,
            );
          }
        }
      }
    }
    expect(problems.join('\n')).toBe('');
  });

  it('in every body field, in each content type', async () => {
    const problems: string[] = [];
    for (const { path, method, op } of operations) {
      const base = baseRequest(op);
      for (const [type, { schema }] of Object.entries(op.requestBody?.content ?? {})) {
        for (const [name, sub] of Object.entries(schema.properties ?? {})) {
          if (sub.format === 'binary') continue;
          // A JSON body may carry the text itself; a form always does.
          for (const blank of BLANKS) {
            const body = { ...bodyFor(schema, type), [name]: blank };
            const res = await send(method, path, { ...base, body, type });
            // Refused for this field, or for the whole body ("give at least one of …").
            const taken = res.statusCode !== 400;
            // A file part is a binary string to the document.
            const described = Object.fromEntries(
              Object.entries(body).map(([k, v]) => [k, v instanceof Buffer ? 'bytes' : v]),
            );
            if (taken !== matches(schema, described)) {
              problems.push(
                `${method} ${path} ${type} ${name}=${JSON.stringify(blank)}: ${res.statusCode} ${res.body.slice(0, 200)}, the document ${taken ? 'refuses' : 'allows'} it`,
              );
            }
          }
        }
      }
    }
    expect(problems.join('\n')).toBe('');
  });
});

it('the document is where the OpenAPI UI reads it', async () => {
  const res = await s.app.inject({ url: `${API_BASE.replace('/v1', '')}/docs/json` });
  expect(res.statusCode).toBe(200);
});
