import { afterAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@master-admin/contract';
import { startServer } from './harness.ts';

const RATE = 3;
const s = await startServer({ CONTACT_RATE_PER_HOUR: String(RATE) });
afterAll(() => s.close());

type Contact = {
  id: number;
  fName: string;
  lName: string;
  email: string;
  phoneNumber: string;
  query: string;
  createdAt: string;
};

const VALID = {
  fName: 'Asha',
  lName: 'Rao',
  email: 'asha@example.com',
  phoneNumber: '+919876543210',
  query: 'How do I change my poster frame?',
};

let ipCount = 0;
/** A fresh client address, so each test has the whole hourly allowance. */
const freshIp = () => {
  ipCount += 1;
  return `10.0.${Math.floor(ipCount / 250)}.${(ipCount % 250) + 1}`;
};

const submit = (
  payload: unknown,
  ip = freshIp(),
  extra: { headers?: Record<string, string>; token?: string } = {},
) =>
  s.api({
    method: 'POST',
    url: '/public/contact-us',
    remoteAddress: ip,
    payload: payload as string,
    ...extra,
  });

const list = (query = '', token = s.adminToken) =>
  s.api({ method: 'GET', url: `/contact-us/all${query}`, token });

const countContacts = async () =>
  Number(
    (
      await s.ctx.db
        .selectFrom('contactUs')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

/** The paths a 400 names. */
const paths = (res: { json(): unknown }) =>
  ((res.json() as { details?: Array<{ path: string }> }).details ?? []).map((d) => d.path);

const ids = async (query: string) =>
  (await list(query)).json().result.map((r: { id: number }) => r.id) as number[];

async function submitted(fields: Partial<typeof VALID> = {}): Promise<Contact> {
  const res = await submit({ ...VALID, ...fields });
  expect(res.statusCode, res.body).toBe(200);
  const { id } = res.json().result as { id: number };
  return (await list(`?limit=100`)).json().result.find((r: Contact) => r.id === id) as Contact;
}

describe('sending an enquiry', () => {
  it('needs no token, answers the message and stores the enquiry', async () => {
    const before = await countContacts();
    const res = await submit({ ...VALID, fName: '  Asha  ' });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toEqual({ message: MESSAGES.contactReceived, result: { id: expect.any(Number) } });
    expect(await countContacts()).toBe(before + 1);
    const row = await s.ctx.db
      .selectFrom('contactUs')
      .selectAll()
      .where('id', '=', body.result.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ ...VALID, fName: 'Asha' });
  });

  it('ignores a bad token: the call is public', async () => {
    const res = await submit(VALID, freshIp(), { token: 'not-a-token' });
    expect(res.statusCode, res.body).toBe(200);
  });

  it('accepts a form-encoded body', async () => {
    const form = new URLSearchParams(VALID).toString();
    const res = await submit(form, freshIp(), {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.statusCode, res.body).toBe(200);
  });

  it('takes the longest values', async () => {
    const email = `${'e'.repeat(64)}@${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(57)}.com`;
    expect(email).toHaveLength(254);
    const res = await submit({
      fName: 'F'.repeat(100),
      lName: 'L'.repeat(100),
      email,
      phoneNumber: `+${'9'.repeat(19)}`,
      query: 'Q'.repeat(5000),
    });
    expect(res.statusCode, res.body).toBe(200);
    const short = await submit({ ...VALID, phoneNumber: '123456' });
    expect(short.statusCode, short.body).toBe(200);
  });

  it.each([
    ['an empty body', {}, ['email', 'fName', 'lName', 'phoneNumber', 'query']],
    ['a missing first name', { fName: undefined }, ['fName']],
    ['an empty last name', { lName: '' }, ['lName']],
    ['a blank query', { query: '   ' }, ['query']],
    ['a 101-character first name', { fName: 'f'.repeat(101) }, ['fName']],
    ['a 101-character last name', { lName: 'l'.repeat(101) }, ['lName']],
    ['a 5001-character query', { query: 'q'.repeat(5001) }, ['query']],
    ['an email without @', { email: 'asha.example.com' }, ['email']],
    ['an email with spaces', { email: 'asha rao@example.com' }, ['email']],
    ['a 255-character email', { email: `${'e'.repeat(243)}@example.com` }, ['email']],
    ['a phone number with letters', { phoneNumber: '98765abc10' }, ['phoneNumber']],
    ['a phone number with a + inside', { phoneNumber: '98+7654321' }, ['phoneNumber']],
    ['a phone number with spaces', { phoneNumber: '98765 43210' }, ['phoneNumber']],
    ['a 5-character phone number', { phoneNumber: '12345' }, ['phoneNumber']],
    ['a 21-character phone number', { phoneNumber: `+${'1'.repeat(20)}` }, ['phoneNumber']],
    ['a number as phone number', { phoneNumber: 9876543210 }, ['phoneNumber']],
    ['an unknown key', { status: 'ACTIVE' }, ['status']],
    ['a createdAt', { createdAt: '2000-01-01T00:00:00.000Z' }, ['createdAt']],
  ])('refuses %s naming the field, storing nothing', async (_name, fields, named) => {
    const before = await countContacts();
    const payload = Object.keys(fields).length === 0 ? {} : { ...VALID, ...fields };
    const res = await submit(payload);
    expect(res.statusCode, res.body).toBe(400);
    expect(paths(res).sort()).toEqual(named);
    expect(await countContacts()).toBe(before);
  });
});

describe('the hourly limit per IP address', () => {
  it(`refuses the submission after ${RATE} with 429 and Retry-After; another IP still passes`, async () => {
    const ip = freshIp();
    for (let i = 0; i < RATE; i += 1) {
      const res = await submit(VALID, ip);
      expect(res.statusCode, `submission ${i + 1}`).toBe(200);
    }
    const before = await countContacts();
    const refused = await submit(VALID, ip);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({
      statusCode: 429,
      error: 'Too Many Requests',
      message: MESSAGES.tooManyRequests,
    });
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(await countContacts()).toBe(before);

    // A forwarded-for header does not change the address (no trusted proxy configured).
    const spoofed = await submit(VALID, ip, { headers: { 'x-forwarded-for': '203.0.113.9' } });
    expect(spoofed.statusCode).toBe(429);

    expect((await submit(VALID, freshIp())).statusCode).toBe(200);
  });

  it('counts refused submissions too', async () => {
    const ip = freshIp();
    for (let i = 0; i < RATE; i += 1) expect((await submit({}, ip)).statusCode).toBe(400);
    expect((await submit(VALID, ip)).statusCode).toBe(429);
  });

  it('does not limit the back-office list', async () => {
    for (let i = 0; i < RATE + 2; i += 1) expect((await list()).statusCode).toBe(200);
  });
});

describe('listing enquiries', () => {
  it('answers rows newest first, as API.md lists them', async () => {
    const older = await submitted({ fName: 'Older' });
    const newer = await submitted({ fName: 'Newer' });
    const body = (await list('?limit=2')).json();
    expect(body.result.map((r: Contact) => r.id)).toEqual([newer.id, older.id]);
    expect(body.result[0]).toEqual({
      id: newer.id,
      version: 1,
      ...VALID,
      fName: 'Newer',
      createdAt: expect.any(String),
    });
    expect(new Date(newer.createdAt).toISOString()).toBe(newer.createdAt);
    expect(body.total).toBe(await countContacts());
  });

  it('searches first and last name, email, phone number and query, case-insensitively', async () => {
    const a = await submitted({ fName: 'Zephyrine' });
    const b = await submitted({ lName: 'ZEPHYRSON' });
    const c = await submitted({ email: 'zephyr@mail.example' });
    const d = await submitted({ phoneNumber: '5550123499' });
    const e = await submitted({ query: 'Is there a zephyr theme?' });
    expect(await ids('?keyword=zephyr')).toEqual([e.id, c.id, b.id, a.id]);
    expect(await ids('?keyword=0123499')).toEqual([d.id]);
    expect(await ids('?keyword=%25zephyr')).toEqual([]);

    const page = (await list('?keyword=Zephyr&limit=2&offset=1')).json();
    expect(page.result.map((r: Contact) => r.id)).toEqual([c.id, b.id]);
    expect(page.total).toBe(4);
  });

  it.each([
    ['?limit=1000', 'limit'],
    ['?offset=-1', 'offset'],
    ['?limit=ten', 'limit'],
    ['?status=ACTIVE', 'status'],
  ])('refuses %s naming the field', async (query, field) => {
    const res = await list(query);
    expect(res.statusCode).toBe(400);
    expect(paths(res)).toContain(field);
  });

  it('needs a token and the contactUs menu', async () => {
    expect((await s.api({ method: 'GET', url: '/contact-us/all' })).statusCode).toBe(401);
    const none = await s.staff({ faqs: ['VIEW'], settings: ['VIEW'] });
    const denied = await list('', none.token);
    expect(denied.statusCode).toBe(403);
    expect(denied.json().message).toBe(MESSAGES.accessDenied);
    const viewer = await s.staff({ contactUs: ['VIEW'] });
    expect((await list('', viewer.token)).statusCode).toBe(200);
  });

  it('offers no way to change or delete an enquiry', async () => {
    const row = await submitted();
    for (const method of ['PATCH', 'PUT', 'DELETE'] as const) {
      for (const url of [`/contact-us/${row.id}`, `/contact-us/remove/${row.id}`]) {
        const res = await s.api({ method, url, token: s.adminToken });
        expect(res.statusCode, `${method} ${url}`).toBe(404);
      }
    }
  });
});
