/**
 * Several staff at once (issue 23, part 2): edits send the version they were based on; a save
 * refused because the row changed since shows the conflict field by field and saves the merged
 * values; status switches and bulk actions refresh and say which rows had changed; long forms
 * keep a draft per account and offer it back.
 */
import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { STORAGE_KEYS } from '@master-admin/contract';
import './rich-text';
import { renderApp } from './render';
import { HttpResponse, http, api, server } from './server';
import { user } from './users-rows';

const faq = (id: number, overrides: Record<string, unknown> = {}) => ({
  id,
  version: 1,
  question: `Question ${id}?`,
  answer: `Answer ${id}.`,
  createdAt: '2026-11-20T10:00:00.000Z',
  ...overrides,
});

const blog = (id: number, overrides: Record<string, unknown> = {}) => ({
  id,
  version: 1,
  title: `Blog ${id}`,
  author: 'Ravi',
  popular: false,
  shortDesc: 'Short',
  image: null,
  desc: '<p>Body</p>',
  date: null,
  status: 'ACTIVE',
  createdAt: '2026-11-20T10:00:00.000Z',
  updatedAt: '2026-11-20T10:00:00.000Z',
  ...overrides,
});

/** A 409 on a stale version, as the server answers it. */
const conflict = (
  current: object | null,
  message = 'Faq was changed by Asha since you opened it',
) =>
  HttpResponse.json(
    {
      statusCode: 409,
      error: 'Conflict',
      message,
      current,
      changedBy: { id: 4, name: 'Asha' },
      changedAt: new Date(Date.now() - 2 * 60_000).toISOString(),
    },
    { status: 409 },
  );

/** A bearer token as the server signs it (a JWT): the web app reads only its subject. */
const tokenOf = (accountId: number) =>
  `e30.${btoa(JSON.stringify({ sub: String(accountId) })).replace(/=+$/, '')}.sig`;

/** FAQ 5 in the list; the PATCHes it receives are answered by `answer`. */
function withFaq(answer: (body: URLSearchParams, ifMatch: string | null) => Response) {
  const sent: Array<{ body: URLSearchParams; ifMatch: string | null }> = [];
  let reads = 0;
  server.use(
    http.get(api('/faqs/list'), () => {
      reads++;
      return HttpResponse.json({ result: [faq(5)], total: 1, nextCursor: null });
    }),
    http.patch(api('/faqs/update/5'), async ({ request }) => {
      const body = new URLSearchParams(await request.text());
      const ifMatch = request.headers.get('If-Match');
      sent.push({ body, ifMatch });
      return answer(body, ifMatch);
    }),
  );
  return { sent, reads: () => reads };
}

async function editFaq(question: string, answer: string) {
  renderApp('/faqs', { signedInAs: 'a@b.c' });
  await userEvent.click(await screen.findByRole('button', { name: /^Actions for/ }));
  await userEvent.click(await screen.findByRole('menuitem', { name: 'Edit' }));
  const dialog = await screen.findByRole('dialog', { name: 'Edit FAQ' });
  const q = within(dialog).getByRole('textbox', { name: 'Question' });
  const a = within(dialog).getByRole('textbox', { name: 'Answer' });
  await userEvent.clear(q);
  await userEvent.type(q, question);
  await userEvent.clear(a);
  await userEvent.type(a, answer);
  return dialog;
}

describe('no silent overwrite', () => {
  it('an edit form sends If-Match with the version it was opened with', async () => {
    const { sent } = withFaq(() =>
      HttpResponse.json({ message: 'Faq Updated Successfully', result: faq(5, { version: 2 }) }),
    );
    const dialog = await editFaq('Mine?', 'My answer.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Faq Updated Successfully')).toBeInTheDocument();
    expect(sent).toHaveLength(1);
    expect(sent[0]?.ifMatch).toBe('"1"');
  });

  it('shows the conflict field by field and saves the merged values on the new version', async () => {
    const theirs = faq(5, { version: 2, question: 'Theirs?', answer: 'Their answer.' });
    const { sent, reads } = withFaq((_, ifMatch) =>
      ifMatch === '"1"'
        ? conflict(theirs)
        : HttpResponse.json({ message: 'Faq Updated Successfully', result: theirs }),
    );
    const dialog = await editFaq('Mine?', 'My answer.');
    const readsBefore = reads();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));

    const panel = await within(dialog).findByRole('region', {
      name: 'Changed by Asha 2 minutes ago while you were editing',
    });
    // What was typed stays in the fields.
    expect(within(dialog).getByRole('textbox', { name: 'Question' })).toHaveValue('Mine?');
    const question = within(panel).getByRole('radiogroup', { name: 'Question' });
    expect(within(question).getByText('Mine?')).toBeInTheDocument();
    expect(within(question).getByText('Theirs?')).toBeInTheDocument();
    const answer = within(panel).getByRole('radiogroup', { name: 'Answer' });
    expect(within(answer).getByText('Their answer.')).toBeInTheDocument();
    // Both fields were typed into: each keeps what was typed until told otherwise.
    expect(within(question).getByRole('radio', { name: 'Keep mine' })).toBeChecked();
    await userEvent.click(within(answer).getByRole('radio', { name: 'Take theirs (Asha)' }));
    // Not shown twice: the panel says it, no toast.
    expect(screen.queryByText('Faq was changed by Asha since you opened it')).toBeNull();
    // The list is read again: it shows the row as stored now.
    await waitFor(() => expect(reads()).toBeGreaterThan(readsBefore));

    await userEvent.click(within(dialog).getByRole('button', { name: 'Save merged' }));
    expect(await screen.findByText('Faq Updated Successfully')).toBeInTheDocument();
    expect(sent).toHaveLength(2);
    expect(sent[1]?.ifMatch).toBe('"2"');
    expect(sent[1]?.body.get('question')).toBe('Mine?');
    expect(sent[1]?.body.get('answer')).toBe('Their answer.');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('says so when the row was deleted meanwhile; nothing can be saved', async () => {
    withFaq(() => conflict(null, 'Faq was changed by Asha since you opened it'));
    const dialog = await editFaq('Mine?', 'My answer.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText(/your changes cannot be saved/)).toBeInTheDocument();
    expect(within(dialog).getByText('Deleted by Asha 2 minutes ago')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Save' })).toBeDisabled();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('a status switch sends the row version; a conflict refreshes and names the row', async () => {
    let ifMatch: string | null = null;
    let reads = 0;
    server.use(
      http.get(api('/category/list'), () => {
        reads++;
        return HttpResponse.json({
          result: [
            {
              id: 12,
              version: 3,
              name: 'Festivals',
              downloadCount: 0,
              status: 'ACTIVE',
              createdAt: '2026-11-20T10:00:00.000Z',
            },
          ],
          total: 1,
          nextCursor: null,
        });
      }),
      http.put(api('/category/status/12'), ({ request }) => {
        ifMatch = request.headers.get('If-Match');
        return conflict(null, 'Category was changed by Asha since you opened it');
      }),
    );
    renderApp('/category', { signedInAs: 'a@b.c' });
    await userEvent.click(
      await screen.findByRole('button', { name: 'Status of Festivals: Active. Change' }),
    );
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Deactivated' }));
    expect(
      await screen.findByText(
        'Category 12 was changed by Asha since you opened it: refreshed, try again.',
      ),
    ).toBeInTheDocument();
    expect(ifMatch).toBe('"3"');
    await waitFor(() => expect(reads).toBe(2));
  });

  it('a bulk action sends the versions of the rows picked; a conflict names them and refreshes', async () => {
    const bodies: Array<{ ids: number[]; versions?: Record<string, number> }> = [];
    let reads = 0;
    server.use(
      http.get(api('/master-app/options'), () =>
        HttpResponse.json({ result: [{ id: 2, name: 'Festival', timeZone: 'UTC' }] }),
      ),
      http.get(api('/account/user/list'), () => {
        reads++;
        return HttpResponse.json({
          result: [user(4, { version: 7 }), user(9), user(12, { version: 2 })],
          total: 3,
          nextCursor: null,
        });
      }),
      http.put(api('/account/user/bulk-status'), async ({ request }) => {
        bodies.push((await request.json()) as (typeof bodies)[number]);
        return HttpResponse.json(
          {
            statusCode: 409,
            error: 'Conflict',
            message: '3 users were changed since you opened them: 4, 9, 12',
            stale: [4, 9, 12],
            current: [],
            details: [],
          },
          { status: 409 },
        );
      }),
    );
    renderApp('/users', { signedInAs: 'a@b.c' });
    await userEvent.click(
      await screen.findByRole('checkbox', { name: 'Select every row on this page' }),
    );
    const bar = screen.getByRole('region', { name: 'Selected rows' });
    await userEvent.click(within(bar).getByRole('button', { name: 'Change status' }));
    const dialog = await screen.findByRole('dialog', { name: 'Status of 3 users' });
    await userEvent.click(within(dialog).getByRole('combobox', { name: 'Status' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Suspended' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));

    expect(
      await screen.findByText(
        '3 users were changed since you opened them: 4, 9, 12. The list is refreshed; nothing was changed.',
      ),
    ).toBeInTheDocument();
    expect(bodies[0]?.ids).toEqual([4, 9, 12]);
    expect(bodies[0]?.versions).toEqual({ 4: 7, 9: 1, 12: 2 });
    await waitFor(() => expect(reads).toBe(2));
  });
});

describe('drafts of long forms', () => {
  function signIn(accountId: number) {
    localStorage.setItem(STORAGE_KEYS.token, tokenOf(accountId));
  }
  function withBlogs() {
    let body: URLSearchParams | undefined;
    let ifMatch: string | null = null;
    server.use(
      http.get(api('/blogs/all'), () =>
        HttpResponse.json({ result: [blog(3)], total: 1, nextCursor: null }),
      ),
      http.patch(api('/blogs/3'), async ({ request }) => {
        body = new URLSearchParams(await request.text());
        ifMatch = request.headers.get('If-Match');
        return HttpResponse.json({
          message: 'Blog Updated Successfully',
          result: blog(3, { version: 2 }),
        });
      }),
    );
    return { body: () => body, ifMatch: () => ifMatch };
  }
  async function openEdit() {
    await userEvent.click(await screen.findByRole('button', { name: 'Actions for Blog 3' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Edit' }));
    return screen.findByRole('dialog', { name: 'Edit blog' });
  }

  it('keeps what is typed, offers it when the form opens again, restores it, forgets it on save', async () => {
    const sent = withBlogs();
    signIn(7);
    const first = renderApp('/blogs');
    const dialog = await openEdit();
    const title = within(dialog).getByRole('textbox', { name: 'Title' });
    await userEvent.clear(title);
    await userEvent.type(title, 'Draft title');
    await waitFor(() => expect(localStorage.getItem('draft:7:blog:3')).toContain('Draft title'));
    // The tab goes (a crash, a reload): nothing is asked, the draft stays.
    first.unmount();

    renderApp('/blogs');
    const again = await openEdit();
    const notice = within(again).getByRole('region', { name: 'Unsaved draft' });
    expect(notice).toHaveTextContent(/You have unsaved changes from/);
    expect(within(again).getByRole('textbox', { name: 'Title' })).toHaveValue('Blog 3');
    await userEvent.click(within(notice).getByRole('button', { name: 'Restore' }));
    expect(within(again).getByRole('textbox', { name: 'Title' })).toHaveValue('Draft title');
    expect(within(again).getByText(/is restored/)).toBeInTheDocument();

    await userEvent.click(within(again).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Blog Updated Successfully')).toBeInTheDocument();
    expect(sent.body()?.get('title')).toBe('Draft title');
    expect(sent.ifMatch()).toBe('"1"');
    expect(localStorage.getItem('draft:7:blog:3')).toBeNull();
  });

  it('says when the row changed since the draft, and saves on the draft’s version', async () => {
    withBlogs();
    signIn(7);
    localStorage.setItem(
      'draft:7:blog:3',
      JSON.stringify({
        values: { title: 'Old draft' },
        base: { title: 'Blog 3' },
        version: 1,
        savedAt: new Date().toISOString(),
      }),
    );
    server.use(
      http.get(api('/blogs/all'), () =>
        HttpResponse.json({ result: [blog(3, { version: 4 })], total: 1, nextCursor: null }),
      ),
    );
    renderApp('/blogs');
    const dialog = await openEdit();
    expect(
      within(dialog).getByText(
        'This row was changed since your draft; saving will show what differs.',
      ),
    ).toBeInTheDocument();
  });

  it('never offers another account’s draft; discarding forgets it', async () => {
    withBlogs();
    const draft = JSON.stringify({
      values: { title: 'Theirs' },
      base: { title: 'Blog 3' },
      version: 1,
      savedAt: new Date().toISOString(),
    });
    localStorage.setItem('draft:8:blog:3', draft);
    localStorage.setItem('draft:7:blog:3', draft);
    signIn(9);
    const view = renderApp('/blogs');
    const dialog = await openEdit();
    expect(within(dialog).queryByRole('region', { name: 'Unsaved draft' })).toBeNull();
    view.unmount();

    signIn(7);
    renderApp('/blogs');
    const mine = await openEdit();
    const notice = within(mine).getByRole('region', { name: 'Unsaved draft' });
    await userEvent.click(within(notice).getByRole('button', { name: 'Discard draft' }));
    expect(within(mine).queryByRole('region', { name: 'Unsaved draft' })).toBeNull();
    expect(localStorage.getItem('draft:7:blog:3')).toBeNull();
    expect(localStorage.getItem('draft:8:blog:3')).toBe(draft);
  });
});
