import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderApp } from './render';
import { HttpResponse, errorJson, http, api, server } from './server';

const faq = (id: number, overrides: Record<string, unknown> = {}) => ({
  id,
  version: 1,
  question: `Question ${id}?`,
  answer: `Answer ${id}.`,
  createdAt: '2026-11-20T10:00:00.000Z',
  ...overrides,
});

describe('faqs', () => {
  it('lists FAQs and keeps the search in the URL', async () => {
    const seen: string[] = [];
    server.use(
      http.get(api('/faqs/list'), ({ request }) => {
        seen.push(new URL(request.url).search);
        return HttpResponse.json({ result: [faq(3)], total: 1, nextCursor: null });
      }),
    );
    const { router } = renderApp('/faqs?q=refund', { signedInAs: 'a@b.c' });
    expect(await screen.findByText('Question 3?')).toBeInTheDocument();
    expect(screen.getByText('Answer 3.')).toBeInTheDocument();
    expect(screen.getByText('1–1 of 1')).toBeInTheDocument();
    expect(seen[0]).toBe('?limit=20&offset=0&keyword=refund');
    expect(screen.getByRole('textbox', { name: 'Search FAQs' })).toHaveValue('refund');

    await userEvent.click(screen.getByRole('button', { name: 'Clear search' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    await waitFor(() => expect(seen.at(-1)).toBe('?limit=20&offset=0'));
  });

  it('creates a FAQ: required fields first, then a form body and the toast', async () => {
    let created = false;
    let body: string | undefined;
    server.use(
      http.get(api('/faqs/list'), () =>
        HttpResponse.json({
          result: created ? [faq(1)] : [],
          total: created ? 1 : 0,
          nextCursor: null,
        }),
      ),
      http.post(api('/faqs'), async ({ request }) => {
        body = await request.text();
        created = true;
        return HttpResponse.json({ message: 'Faq Created Successfully', result: faq(1) });
      }),
    );
    renderApp('/faqs', { signedInAs: 'a@b.c' });
    expect(await screen.findByText('No FAQs yet')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'New FAQ' }));
    const dialog = await screen.findByRole('dialog', { name: 'New FAQ' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findAllByText('Required')).toHaveLength(2);
    expect(body).toBeUndefined();

    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Question' }), 'Can I pay?');
    await userEvent.type(
      within(dialog).getByRole('textbox', { name: 'Answer' }),
      'Yes & by card.{Enter}Or cash.',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('Faq Created Successfully')).toBeInTheDocument();
    expect(new URLSearchParams(body)).toEqual(
      new URLSearchParams({ question: 'Can I pay?', answer: 'Yes & by card.\nOr cash.' }),
    );
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await screen.findByText('Question 1?')).toBeInTheDocument();
  });

  it('edits a FAQ with both fields filled in, and sends both', async () => {
    let body: string | undefined;
    server.use(
      http.get(api('/faqs/list'), () =>
        HttpResponse.json({ result: [faq(5)], total: 1, nextCursor: null }),
      ),
      http.patch(api('/faqs/update/5'), async ({ request }) => {
        body = await request.text();
        return HttpResponse.json({
          message: 'Faq Updated Successfully',
          result: faq(5, { answer: 'New answer.' }),
        });
      }),
    );
    renderApp('/faqs', { signedInAs: 'a@b.c' });
    await userEvent.click(await screen.findByRole('button', { name: 'Actions for Question 5?' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit FAQ' });
    expect(within(dialog).getByRole('textbox', { name: 'Question' })).toHaveValue('Question 5?');
    const answer = within(dialog).getByRole('textbox', { name: 'Answer' });
    expect(answer).toHaveValue('Answer 5.');
    await userEvent.clear(answer);
    await userEvent.type(answer, 'New answer.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Faq Updated Successfully')).toBeInTheDocument();
    expect(body).toBe('question=Question+5%3F&answer=New+answer.');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('asks before deleting, then deletes', async () => {
    let deleted = false;
    server.use(
      http.get(api('/faqs/list'), () =>
        HttpResponse.json(
          deleted
            ? { result: [], total: 0, nextCursor: null }
            : { result: [faq(8)], total: 1, nextCursor: null },
        ),
      ),
      http.delete(api('/faqs/remove/8'), () => {
        deleted = true;
        return HttpResponse.json({ message: 'Faq Deleted Successfully', result: { id: 8 } });
      }),
    );
    renderApp('/faqs', { signedInAs: 'a@b.c' });
    await userEvent.click(await screen.findByRole('button', { name: 'Actions for Question 8?' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Delete' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete this FAQ?' });
    expect(within(confirm).getByText(/Question 8\?/)).toBeInTheDocument();
    expect(deleted).toBe(false);
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Faq Deleted Successfully')).toBeInTheDocument();
    expect(await screen.findByText('No FAQs yet')).toBeInTheDocument();
  });

  it('empties the list on a failed load and offers to try again', async () => {
    server.use(http.get(api('/faqs/list'), () => errorJson(500, 'Internal Server Error', 'Boom')));
    renderApp('/faqs', { signedInAs: 'a@b.c' });
    expect(await screen.findByText('Could not load the list')).toBeInTheDocument();
    expect(screen.getByText('0 of 0')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});
