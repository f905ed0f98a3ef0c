/**
 * The checks every OpenAPI document of this server passes (the back-office's and the apps API's):
 * every request the document allows is accepted and answered as documented, and what it refuses
 * (a control character in a text field, an empty file, an unlisted query key or body field, a
 * path id that is not plain digits) is refused with 400 naming the field. Requests are made from
 * the document itself, so a route added later is covered.
 */
import { describe, expect, it } from 'vitest';
import { MESSAGES, NO_CONTROL_CHARACTERS } from '@master-admin/contract';
import { edges, isBlankBranch, matches } from './openapi-values.ts';
import {
  answerProblem,
  namedFields,
  type DocumentClient,
  type Request,
} from './openapi-requests.ts';

export const refused = (status: number) =>
  status === 400 || status === 413 || status === 415 || status >= 500;

/** `expected.fileFields`: how many file fields the document has at least (none lost). */
export function documentChecks(client: DocumentClient, expected: { fileFields: number }) {
  const { operations, send, baseRequest, bodyFor, fileFor } = client;
  /**
   * A WebAuthn response the document allows is then checked by its signature, which no request
   * made from the document can carry: that verdict, after the schema accepted the request, names
   * the response as one that could not be verified.
   */
  const unverifiedPasskey = (res: { statusCode: number; json(): unknown }) =>
    res.statusCode === 400 &&
    (res.json() as { message?: string }).message === MESSAGES.passkeyRefused;

  describe('every request the document allows is accepted', () => {
    for (const { path, method, op } of operations) {
      it(`${method} ${path}`, async () => {
        const problems: string[] = [];
        const base = baseRequest(op);
        const contents = Object.entries(op.requestBody?.content ?? {});
        const tryRequest = async (label: string, request: Request) => {
          const res = await send(method, path, request);
          if (refused(res.statusCode) && !unverifiedPasskey(res))
            problems.push(`${label}: ${res.statusCode} ${res.body}`);
          const wrong = answerProblem(op, res);
          if (wrong) problems.push(`${label}: ${wrong}`);
        };
        if (contents.length === 0) await tryRequest('minimal', base);
        for (const [type, { schema }] of contents) {
          await tryRequest(`${type} minimal`, { ...base, body: bodyFor(schema, type), type });
          for (const [name, sub] of Object.entries(schema.properties ?? {})) {
            if (sub.format === 'binary') {
              const body = { ...bodyFor(schema, type), [name]: fileFor(sub) };
              await tryRequest(`${type} with file ${name}`, { ...base, body, type });
              continue;
            }
            for (const [edge, value] of edges(sub)) {
              const body = bodyFor(schema, type, { [name]: value });
              if (!matches(schema, body)) continue; // the document itself refuses this one
              await tryRequest(`${type} ${name} ${edge}`, { ...base, body, type });
            }
          }
        }
        for (const p of op.parameters ?? []) {
          if (p.in !== 'query') continue;
          for (const [edge, value] of edges(p.schema)) {
            await tryRequest(`query ${p.name} ${edge}`, {
              ...base,
              query: { ...base.query, [p.name]: value },
            });
          }
        }
        expect(problems.join('\n')).toBe('');
      });
    }
  });

  describe('what the document refuses is refused, naming the field', () => {
    it('a control character in any text field of any body or query', async () => {
      const problems: string[] = [];
      for (const { path, method, op } of operations) {
        const base = baseRequest(op);
        const targets: Array<{ field: string; request: (value: string) => Request }> = [];
        const json = op.requestBody?.content['application/json'];
        if (json) {
          for (const [name, sub] of Object.entries(json.schema.properties ?? {})) {
            const branches = [sub, ...(sub.anyOf ?? [])].filter((b) => !isBlankBranch(b));
            const text = branches.find((b) => [b.type].flat().includes('string'));
            // Text, that is: not an enumeration, a date or a file.
            if (!text || text.enum || text.format) continue;
            targets.push({
              field: name,
              request: (value) => ({ ...base, body: { [name]: value }, type: 'application/json' }),
            });
          }
        }
        for (const p of op.parameters ?? []) {
          const branches = [p.schema, ...(p.schema.anyOf ?? [])].filter((b) => !isBlankBranch(b));
          const text = branches.find((b) => b.type === 'string');
          if (p.in === 'query' && text && !text.enum && !text.format) {
            targets.push({
              field: p.name,
              request: (value) => ({ ...base, query: { [p.name]: value } }),
            });
          }
        }
        for (const { field, request } of targets) {
          for (const character of ['\u0000', '\u0007', '\u001b', '\u007f', '\u0085']) {
            const res = await send(method, path, request(`ab${character}cd`));
            const details: Array<{ path: string; message: string }> = res.json().details ?? [];
            const named = details.some(
              (d) => d.path === field && d.message === NO_CONTROL_CHARACTERS,
            );
            if (res.statusCode !== 400 || !named) {
              problems.push(
                `${method} ${path} ${field} U+${character.charCodeAt(0).toString(16)}: ${res.statusCode} ${res.body}`,
              );
            }
          }
        }
      }
      expect(problems.join('\n')).toBe('');
    });

    it('an empty file, in every file field, as the field’s documented minimum says', async () => {
      const problems: string[] = [];
      let fields = 0;
      for (const { path, method, op } of operations) {
        const form = op.requestBody?.content['multipart/form-data'];
        if (!form) continue;
        for (const [name, sub] of Object.entries(form.schema.properties ?? {})) {
          if (sub.format !== 'binary') continue;
          fields += 1;
          if (matches(sub, ''))
            problems.push(`${method} ${path} ${name}: documented without a minimum`);
          const body = { ...bodyFor(form.schema, 'multipart/form-data'), [name]: Buffer.alloc(0) };
          const res = await send(method, path, {
            ...baseRequest(op),
            body,
            type: 'multipart/form-data',
          });
          const details = res.json<{ details?: Array<{ path: string; message: string }> }>()
            .details;
          if (
            res.statusCode !== 400 ||
            !details?.some((d) => d.path === name && d.message === 'The file is empty')
          ) {
            problems.push(`${method} ${path} ${name}: ${res.statusCode} ${res.body}`);
          }
        }
      }
      expect(fields).toBeGreaterThanOrEqual(expected.fileFields);
      expect(problems.join('\n')).toBe('');
    });

    it('a query key the operation does not list, on every operation', async () => {
      const problems: string[] = [];
      for (const { path, method, op } of operations) {
        const base = baseRequest(op);
        // With a body the document allows, so that only the query is wrong.
        const [type, content] = Object.entries(op.requestBody?.content ?? {})[0] ?? [];
        const body = type && content ? bodyFor(content.schema, type) : undefined;
        const query = { ...base.query, extra: '1' };
        const res = await send(method, path, { ...base, query, body, type });
        if (res.statusCode !== 400 || !namedFields(res).includes('extra'))
          problems.push(`${method} ${path}: ${res.statusCode} ${res.body.slice(0, 200)}`);
      }
      expect(problems.join('\n')).toBe('');
    });

    it('a body field the schema does not list, in each content type of every body', async () => {
      const problems: string[] = [];
      for (const { path, method, op } of operations) {
        for (const [type, { schema }] of Object.entries(op.requestBody?.content ?? {})) {
          if (schema.additionalProperties !== false)
            problems.push(`${method} ${path} ${type}: the document takes other fields`);
          const body = { ...bodyFor(schema, type), extra: '1' };
          const res = await send(method, path, { ...baseRequest(op), body, type });
          if (res.statusCode !== 400 || !namedFields(res).includes('extra'))
            problems.push(`${method} ${path} ${type}: ${res.statusCode} ${res.body.slice(0, 200)}`);
        }
      }
      expect(problems.join('\n')).toBe('');
    });

    it('a path id that is not plain digits, on every route with one', async () => {
      const problems: string[] = [];
      for (const { path, method, op } of operations) {
        for (const p of op.parameters ?? []) {
          if (p.in !== 'path') continue;
          for (const bad of [
            '1 ',
            ' 1',
            '+1',
            '01',
            '00001',
            '1.0',
            '1e0',
            '0x1',
            '-1',
            '0',
            '1,2',
            'abc',
            '',
          ]) {
            const res = await send(method, path, {
              ...baseRequest(op),
              path: { ...baseRequest(op).path, [p.name]: bad },
            });
            const named = (res.json().details ?? []).some(
              (d: { path: string }) => d.path === p.name,
            );
            // An empty segment routes elsewhere (404, or 405 where other routes take that path);
            // anything else is a 400 naming the parameter.
            // `/blogs/` is `/blogs`: the list the path without its id names, where there is one.
            const parent = path.slice(0, path.lastIndexOf('/'));
            const listed = operations.some((o) => o.method === method && o.path === parent);
            const elsewhere = res.statusCode === 404 || res.statusCode === 405 || listed;
            if (!(res.statusCode === 400 && named) && !(bad === '' && elsewhere)) {
              problems.push(
                `${method} ${path} ${p.name}=${JSON.stringify(bad)}: ${res.statusCode} ${res.body}`,
              );
            }
          }
        }
      }
      expect(problems.join('\n')).toBe('');
    });
  });
}
