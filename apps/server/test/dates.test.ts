/**
 * Dates (API.md, Operations): every date parameter and field takes a real day written YYYY-MM-DD
 * from 1000-01-01 to 9999-12-31 and refuses anything else with a 400 naming it; no date, however
 * far out, makes the server fail. The targets are every query parameter and body field the API
 * document gives format `date`, so a date added later is covered; the dates are random
 * (fast-check), with the range's edges and leap days among them.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multipart, startServer } from './harness.ts';
import { images } from './images.ts';
import { videos } from '../src/seed/video-files.ts';
import type { JsonSchema } from './openapi-values.ts';
import { documentClient, namedFields, type Request } from './openapi-requests.ts';

const s = await startServer();
afterAll(() => s.close());
const { operations, send, baseRequest, bodyFor } = await documentClient(s);

/** Runs per target: each a request; the suite runs on two cores. */
const VALID_RUNS = 10;
const INVALID_RUNS = 25;

const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
const pad = (n: number, width: number) => String(n).padStart(width, '0');
const ymd = (y: number, m: number, d: number) => `${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}`;
const daysIn = (y: number, m: number) => new Date(Date.UTC(y, m, 0)).getUTCDate();

/** The test's own oracle: a real day in 1000-01-01 ..= 9999-12-31, written YYYY-MM-DD. */
function isValidDate(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  return y >= 1000 && mo >= 1 && mo <= 12 && d >= 1 && d <= daysIn(y, mo);
}

const DAY_MS = 86_400_000;
const FIRST = Date.UTC(1000, 0, 1);
const LAST = Date.UTC(9999, 11, 31);
const year = fc.integer({ min: 1000, max: 9999 });
const anyDay = fc
  .integer({ min: 0, max: (LAST - FIRST) / DAY_MS })
  .map((n) => new Date(FIRST + n * DAY_MS).toISOString().slice(0, 10));
const validDate = fc.oneof(
  anyDay,
  year.filter(isLeap).map((y) => `${y}-02-29`),
);
const today = new Date().toISOString().slice(0, 10);
const VALID_EXAMPLES = [
  '1000-01-01',
  '9999-12-31',
  '9999-12-01',
  '2000-02-29',
  '9996-02-29',
  today,
];

const monthDay = fc.tuple(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 28 }));
/** Unicode digits that are not ASCII: Arabic-Indic, Extended Arabic-Indic, Devanagari, fullwidth. */
const ZEROS = [0x0660, 0x06f0, 0x0966, 0xff10];
const invalidDate = fc
  .oneof(
    // Years before 1000 and after 9999.
    fc.tuple(fc.integer({ min: 0, max: 999 }), monthDay).map(([y, [m, d]]) => ymd(y, m, d)),
    fc
      .tuple(fc.integer({ min: 10_000, max: 999_999 }), monthDay)
      .map(([y, [m, d]]) => ymd(y, m, d)),
    // Month 00 or 13 and up; day 00 or past the month's last.
    fc
      .tuple(year, fc.oneof(fc.constant(0), fc.integer({ min: 13, max: 99 })))
      .map(([y, m]) => ymd(y, m, 1)),
    fc
      .tuple(year, fc.integer({ min: 1, max: 12 }))
      .chain(([y, m]) =>
        fc
          .oneof(fc.constant(0), fc.integer({ min: daysIn(y, m) + 1, max: 99 }))
          .map((d) => ymd(y, m, d)),
      ),
    // 29 February of a year that is not a leap year (1900, 2100 …).
    fc
      .oneof(
        fc.constantFrom(1900, 2100, 1000, 9999),
        year.filter((y) => !isLeap(y)),
      )
      .map((y) => `${y}-02-29`),
    // A valid day in another shape.
    validDate.chain((d) =>
      fc.constantFrom(
        d.replaceAll('-', '/'),
        d.replaceAll('-', ''),
        `${d}T00:00:00Z`,
        `+${d}`,
        `-${d}`,
        `${d.slice(8)}-${d.slice(5, 7)}-${d.slice(0, 4)}`,
        d.replaceAll('-0', '-'),
        d.slice(0, 7),
        `0${d}`,
      ),
    ),
    // A valid day with whitespace around it.
    fc
      .tuple(validDate, fc.constantFrom(' ', '\t', '\n', '\u00a0', '\u3000'), fc.boolean())
      .map(([d, space, before]) => (before ? space + d : d + space)),
    // A valid day with one digit written in another script.
    fc.tuple(validDate, fc.nat(7), fc.constantFrom(...ZEROS)).map(([d, i, zero]) => {
      const at = [0, 1, 2, 3, 5, 6, 8, 9][i]!;
      return d.slice(0, at) + String.fromCharCode(zero + Number(d[at])) + d.slice(at + 1);
    }),
    // Any other text (a blank one means "absent" and is not a date at all).
    fc.string({ minLength: 1, maxLength: 20 }).filter((v) => v.trim() !== ''),
  )
  .filter((v) => !isValidDate(v));
const INVALID_EXAMPLES = ['0020-02-29', '0999-12-31', '10000-01-01', '1900-02-29', '2100-02-29'];

// Rows the date calls name (their path ids), and special days whose next date lies past
// 9999-12-31 when looked for from the range's last days.
const ids: Record<string, number> = {};
beforeAll(async () => {
  const token = s.adminToken;
  const make = async (url: string, payload: object) => {
    const res = await s.api({ method: 'POST', url, token, payload });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ result: { id: number } }>().result.id;
  };
  const masterApp = await make('/master-app', { name: 'Dates App' });
  ids.category = await make('/category', { name: 'Dates' });
  for (const [name, month, day] of [
    ['New Year', 1, 1],
    ['Leap Day', 2, 29],
    ['Year End', 12, 31],
  ] as const) {
    await make('/special-day', { name, month, day });
  }
  const fields = { position: 'LEFT', topDefNum: '1', selfDefNum: '1', bottomDefNum: '1' };
  const upload = async (url: string, extra: Record<string, string>, data: Buffer) => {
    const res = await s.api({
      method: 'POST',
      url,
      token,
      ...(await multipart({ ...fields, ...extra }, { file: { name: 'f', data } })),
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ result: { id?: number; ids?: number[] } }>().result;
  };
  ids.poster = (await upload(`/poster/${ids.category}`, {}, await images.png())).ids![0]!;
  ids.video = (await upload('/video', { masterAppId: String(masterApp) }, videos.mp4())).id!;
  ids.blogs = await make('/blogs', { title: 'T', author: 'A', shortDesc: 'S', desc: '<p>D</p>' });
  ids.user = await make('/auth/user/register', {
    name: 'Dates User',
    phoneNumber: '5550000000',
    masterAppId: masterApp,
  });
});

/** The row a path parameter names: the fixture of its area (the path's first segment). */
function pathValues(template: string, request: Request): Record<string, string> {
  const path: Record<string, string> = {};
  for (const name of Object.keys(request.path)) {
    const area = template.split('/')[3]!;
    const id = name === 'accountId' ? ids.user : name === 'categoryId' ? ids.category : ids[area];
    if (id === undefined) throw new Error(`${template}: no row for {${name}}; add one above`);
    path[name] = String(id);
  }
  return path;
}

const isDate = (schema: JsonSchema) =>
  [schema, ...(schema.anyOf ?? [])].some((branch) => branch.format === 'date');

type Target = {
  label: string;
  field: string;
  /** The request carrying `value` in the field, in the content type `pick` chooses. */
  request: (value: string, pick: number) => Request;
  method: string;
  path: string;
};
let phone = 5_550_000_001;
const targets: Target[] = operations.flatMap(({ path, method, op }) => {
  const base = baseRequest(op);
  const found: Target[] = [];
  for (const p of op.parameters ?? []) {
    if (p.in !== 'query' || !isDate(p.schema)) continue;
    found.push({
      label: `${method} ${path} ?${p.name}`,
      field: p.name,
      method,
      path,
      request: (value) => ({
        path: pathValues(path, base),
        query: { ...base.query, [p.name]: value },
      }),
    });
  }
  const contents = Object.entries(op.requestBody?.content ?? {});
  const fields = new Set(
    contents.flatMap(([, { schema }]) =>
      Object.entries(schema.properties ?? {})
        .filter(([, sub]) => isDate(sub))
        .map(([name]) => name),
    ),
  );
  for (const field of fields) {
    found.push({
      label: `${method} ${path} body ${field}`,
      field,
      method,
      path,
      request: (value, pick) => {
        const [type, { schema }] = contents[pick % contents.length]!;
        // A body the document allows, then the value under test in the field.
        const body = { ...bodyFor(schema, type, { [field]: VALID_EXAMPLES[0] }), [field]: value };
        // A phone number is unique among an app's users: each request makes a new one.
        if ('phoneNumber' in body) body.phoneNumber = String(phone++);
        return { path: pathValues(path, base), query: base.query, body, type };
      },
    });
  }
  return found;
});

it('finds the date parameters and fields in the document', () => {
  const labels = targets.map((t) => t.label);
  expect(labels).toEqual(
    expect.arrayContaining([
      'GET /api/v1/dashboard/special-days ?fromDate',
      'GET /api/v1/dashboard/trends ?toDate',
      'GET /api/v1/audit/list ?toDate',
      'POST /api/v1/blogs body date',
      'PATCH /api/v1/poster/date-update/{id} body date',
      'POST /api/v1/auth/user/register body dateLimit',
    ]),
  );
  expect(labels.length).toBeGreaterThanOrEqual(20);
});

describe('every date parameter and field', () => {
  for (const t of targets) {
    it(`${t.label}: a day of 1000-01-01 ..= 9999-12-31 is taken, anything else is a 400 naming it`, async () => {
      let succeeded = 0;
      await fc.assert(
        fc.asyncProperty(validDate, fc.nat(), async (date, pick) => {
          const res = await send(t.method, t.path, t.request(date, pick));
          if (res.statusCode < 300) succeeded += 1;
          // A 400 about another field is the call's own rule (the trends' longest period).
          const about = res.statusCode === 400 && !namedFields(res).includes(t.field);
          expect(res.statusCode < 300 || about, `${date}: ${res.statusCode} ${res.body}`).toBe(
            true,
          );
        }),
        { numRuns: VALID_RUNS, examples: VALID_EXAMPLES.map((d) => [d, 0]) },
      );
      expect(succeeded).toBeGreaterThan(0);

      await fc.assert(
        fc.asyncProperty(invalidDate, fc.nat(), async (value, pick) => {
          const res = await send(t.method, t.path, t.request(value, pick));
          expect(
            res.statusCode === 400 && namedFields(res).includes(t.field),
            `${JSON.stringify(value)}: ${res.statusCode} ${res.body}`,
          ).toBe(true);
        }),
        { numRuns: INVALID_RUNS, examples: INVALID_EXAMPLES.map((d) => [d, 0]) },
      );
    });
  }
});
