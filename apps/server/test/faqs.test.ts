import { afterAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@master-admin/contract';
import { startServer } from './harness.ts';

const s = await startServer();
afterAll(() => s.close());

type Faq = { id: number; version: number; question: string; answer: string; createdAt: string };

const create = (payload: unknown, token = s.adminToken, headers: Record<string, string> = {}) =>
  s.api({ method: 'POST', url: '/faqs', token, headers, payload: payload as string });

async function created(question: string, answer = 'An answer.'): Promise<Faq> {
  const res = await create({ question, answer });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().result as Faq;
}

const list = (query = '', token = s.adminToken) =>
  s.api({ method: 'GET', url: `/faqs/list${query}`, token });

const update = (id: number | string, payload: unknown, token = s.adminToken) =>
  s.api({ method: 'PATCH', url: `/faqs/update/${id}`, token, payload: payload as string });

const remove = (id: number | string, token = s.adminToken) =>
  s.api({ method: 'DELETE', url: `/faqs/remove/${id}`, token });

const countFaqs = async () =>
  Number(
    (
      await s.ctx.db
        .selectFrom('faqs')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

const stored = (id: number) =>
  s.ctx.db.selectFrom('faqs').selectAll().where('id', '=', id).executeTakeFirst();

/** The paths a 400 names. */
const paths = (res: { json(): unknown }) =>
  ((res.json() as { details?: Array<{ path: string }> }).details ?? []).map((d) => d.path);

const ids = async (query: string) =>
  (await list(query)).json().result.map((r: { id: number }) => r.id) as number[];

describe('creating a FAQ', () => {
  it('answers the message and the row as the list shows it', async () => {
    const res = await create({ question: '  How do I share a poster?  ', answer: 'Tap Share.' });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toEqual({
      message: MESSAGES.faqCreated,
      result: {
        id: expect.any(Number),
        version: 1,
        question: 'How do I share a poster?',
        answer: 'Tap Share.',
        createdAt: expect.any(String),
      },
    });
    expect(new Date(body.result.createdAt).toISOString()).toBe(body.result.createdAt);
    expect((await list()).json().result[0]).toEqual(body.result);
  });

  it('accepts form-encoded and multipart bodies', async () => {
    const form = await create('question=Form%3F&answer=Yes', s.adminToken, {
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(form.statusCode, form.body).toBe(200);
    expect(form.json().result).toMatchObject({ question: 'Form?', answer: 'Yes' });
    const data = new FormData();
    data.append('question', 'Multipart?');
    data.append('answer', 'Also yes');
    const multi = await s.api({ method: 'POST', url: '/faqs', token: s.adminToken, payload: data });
    expect(multi.statusCode, multi.body).toBe(200);
    expect(multi.json().result).toMatchObject({ question: 'Multipart?', answer: 'Also yes' });
  });

  it('takes a 500-character question and a 5000-character answer', async () => {
    const row = await created('Q'.repeat(500), 'A'.repeat(5000));
    expect(row.question).toHaveLength(500);
    expect(row.answer).toHaveLength(5000);
  });

  it.each([
    ['a missing question', { answer: 'x' }, ['question']],
    ['a missing answer', { question: 'x' }, ['answer']],
    ['an empty body', {}, ['question', 'answer']],
    ['an empty question', { question: '', answer: 'x' }, ['question']],
    ['a blank answer', { question: 'x', answer: '   ' }, ['answer']],
    ['a 501-character question', { question: 'Q'.repeat(501), answer: 'x' }, ['question']],
    ['a 5001-character answer', { question: 'x', answer: 'A'.repeat(5001) }, ['answer']],
    ['a number as question', { question: 12, answer: 'x' }, ['question']],
    ['null as answer', { question: 'x', answer: null }, ['answer']],
    ['an unknown key', { question: 'x', answer: 'y', id: 7 }, ['id']],
  ])('refuses %s naming the field, storing nothing', async (_name, payload, fields) => {
    const before = await countFaqs();
    const res = await create(payload);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    expect(paths(res).sort()).toEqual([...fields].sort());
    expect(await countFaqs()).toBe(before);
  });
});

describe('listing FAQs', () => {
  it('searches question and answer case-insensitively, newest first, and counts every match', async () => {
    const a = await created('Where are my DOWNLOADS kept?', 'In the gallery.');
    const b = await created('Can I print?', 'Yes, downloads are full size.');
    await created('Unrelated', 'Nothing here.');
    expect(await ids('?keyword=downloads')).toEqual([b.id, a.id]);
    expect(await ids('?keyword=GALLERY')).toEqual([a.id]);
    expect(await ids('?keyword=%25')).toEqual([]);
    expect(await ids('?keyword=_')).toEqual([]);

    const page = (await list('?keyword=downloads&limit=1&offset=1')).json();
    expect(page).toEqual({
      result: [expect.objectContaining({ id: a.id })],
      total: 2,
      nextCursor: null,
    });
    const beyond = (await list('?keyword=downloads&offset=5')).json();
    expect(beyond).toEqual({ result: [], total: 2, nextCursor: null });
  });

  it('answers 10 rows by default and the total of all', async () => {
    while ((await countFaqs()) < 12) await created('Filler question', 'Filler answer');
    const body = (await list()).json();
    expect(body.result).toHaveLength(10);
    expect(body.total).toBe(await countFaqs());
  });

  it('takes the path with a trailing slash as API.md writes it', async () => {
    const res = await s.api({ method: 'GET', url: '/faqs/list/', token: s.adminToken });
    expect(res.statusCode).toBe(200);
  });

  it.each([
    ['?limit=1000', 'limit'],
    ['?limit=0', 'limit'],
    ['?offset=-1', 'offset'],
    ['?limit=abc', 'limit'],
    ['?keyword=' + 'k'.repeat(101), 'keyword'],
    ['?status=ACTIVE', 'status'],
  ])('refuses %s naming the field', async (query, field) => {
    const res = await list(query);
    expect(res.statusCode).toBe(400);
    expect(paths(res)).toContain(field);
  });
});

describe('changing a FAQ', () => {
  it('changes the question, the answer or both, keeping the other', async () => {
    const faq = await created('Old question', 'Old answer');
    const q = await update(faq.id, { question: 'New question' });
    expect(q.statusCode, q.body).toBe(200);
    expect(q.json()).toEqual({
      message: MESSAGES.faqUpdated,
      result: { ...faq, question: 'New question', version: faq.version + 1 },
    });
    const a = await update(faq.id, { answer: 'New answer', question: '' });
    expect(a.json().result).toMatchObject({ question: 'New question', answer: 'New answer' });
    const both = await update(faq.id, { question: 'Q2', answer: 'A2' });
    expect(both.json().result).toMatchObject({ question: 'Q2', answer: 'A2' });
    const row = await stored(faq.id);
    expect(row).toMatchObject({ question: 'Q2', answer: 'A2' });
    expect(row!.updatedAt >= row!.createdAt).toBe(true);
  });

  it.each([
    ['an empty body', {}, ['question', 'answer']],
    ['only empty strings', { question: '', answer: ' ' }, ['question', 'answer']],
    ['a 501-character question', { question: 'Q'.repeat(501) }, ['question']],
    ['a 5001-character answer', { answer: 'A'.repeat(5001) }, ['answer']],
    ['a number as answer', { answer: 5 }, ['answer']],
    ['an unknown key', { question: 'x', createdAt: '2000-01-01' }, ['createdAt']],
  ])('refuses %s naming the fields, changing nothing', async (_name, payload, fields) => {
    const faq = await created('Keep me', 'As I am');
    const res = await update(faq.id, payload);
    expect(res.statusCode, res.body).toBe(400);
    expect(paths(res).sort()).toEqual([...fields].sort());
    expect(await stored(faq.id)).toMatchObject({ question: 'Keep me', answer: 'As I am' });
  });

  it('answers 404 for a missing FAQ and 400 for an id that is not one', async () => {
    const missing = await update(999_999, { question: 'x' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe(MESSAGES.faqNotFound);
    for (const id of ['abc', '-1', '0', '1.5']) {
      const res = await update(id, { question: 'x' });
      expect(res.statusCode, id).toBe(400);
      expect(paths(res), id).toEqual(['id']);
    }
  });
});

describe('deleting a FAQ', () => {
  it('deletes it for real, then answers 404', async () => {
    const faq = await created('Delete me');
    const res = await remove(faq.id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: MESSAGES.faqDeleted, result: { id: faq.id } });
    expect(await stored(faq.id)).toBeUndefined();
    const again = await remove(faq.id);
    expect(again.statusCode).toBe(404);
    expect(again.json().message).toBe(MESSAGES.faqNotFound);
  });

  it('refuses ids that are not positive integers', async () => {
    for (const id of ['abc', '-1', '0']) {
      const res = await remove(id);
      expect(res.statusCode, id).toBe(400);
      expect(paths(res)).toEqual(['id']);
    }
  });
});

describe('permissions', () => {
  it('needs the faqs menu: 403 without, each call with its own kind', async () => {
    const faq = await created('Guarded');
    const none = await s.staff({ category: ['VIEW', 'CREATE', 'UPDATE', 'DELETE'] });
    for (const res of [
      await list('', none.token),
      await create({ question: 'x', answer: 'y' }, none.token),
      await update(faq.id, { question: 'x' }, none.token),
      await remove(faq.id, none.token),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe(MESSAGES.accessDenied);
    }

    const viewer = await s.staff({ faqs: ['VIEW'] });
    expect((await list('', viewer.token)).statusCode).toBe(200);
    expect((await create({ question: 'x', answer: 'y' }, viewer.token)).statusCode).toBe(403);

    const editor = await s.staff({ faqs: ['CREATE', 'UPDATE', 'DELETE'] });
    expect((await create({ question: 'x', answer: 'y' }, editor.token)).statusCode).toBe(200);
    expect((await update(faq.id, { answer: 'z' }, editor.token)).statusCode).toBe(200);
    expect((await remove(faq.id, editor.token)).statusCode).toBe(200);
    expect((await list('', editor.token)).statusCode).toBe(403);
  });

  it('needs a token', async () => {
    expect((await s.api({ method: 'GET', url: '/faqs/list' })).statusCode).toBe(401);
  });
});
