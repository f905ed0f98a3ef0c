import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  RICH_TEXT_MAX_LENGTH,
  bannerCreateBody,
  blogCreateBody,
  blogEditForm,
  categoryBody,
  faqCreateBody,
  pageEditForm,
} from '@master-admin/contract';
import { maxLengthOf } from '../src/components/form-context';
import { renderApp } from './render';
import { HttpResponse, http, api, server, validationError } from './server';

const created = {
  id: 1,
  version: 1,
  name: 'Festivals',
  downloadCount: 0,
  status: 'ACTIVE',
  createdAt: '2026-11-20T10:00:00.000Z',
};

/** The categories screen, empty, with its "New category" dialog open. */
async function openNewCategory() {
  server.use(
    http.get(api('/category/list'), () =>
      HttpResponse.json({ result: [], total: 0, nextCursor: null }),
    ),
  );
  const view = renderApp('/category', { signedInAs: 'a@b.c' });
  await userEvent.click(await screen.findByRole('button', { name: 'New category' }));
  const dialog = await screen.findByRole('dialog', { name: 'New category' });
  const name = within(dialog).getByRole('textbox', { name: 'Name' });
  return { ...view, dialog, name };
}

const discardDialog = () => screen.findByRole('dialog', { name: 'Discard changes?' });

describe('the form dialog', () => {
  it('closes a clean form at once, and asks before discarding typed work', async () => {
    const { name } = await openNewCategory();
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    await userEvent.click(screen.getByRole('button', { name: 'New category' }));
    const dialog = await screen.findByRole('dialog', { name: 'New category' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Half typed');
    expect(name).not.toBeInTheDocument(); // a fresh form each time

    await userEvent.keyboard('{Escape}');
    const ask = await discardDialog();
    await userEvent.click(within(ask).getByRole('button', { name: 'Keep editing' }));
    await waitFor(() => expect(screen.queryByText('Discard changes?')).not.toBeInTheDocument());
    expect(within(dialog).getByRole('textbox', { name: 'Name' })).toHaveValue('Half typed');

    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await userEvent.click(within(await discardDialog()).getByRole('button', { name: 'Discard' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('asks before a move to another screen while the form holds changes', async () => {
    const { dialog, name, router } = await openNewCategory();
    await userEvent.type(name, 'Half typed');
    void router.navigate('/faqs');
    const ask = await discardDialog();
    expect(router.state.location.pathname).toBe('/category');
    await userEvent.click(within(ask).getByRole('button', { name: 'Keep editing' }));
    expect(within(dialog).getByRole('textbox', { name: 'Name' })).toHaveValue('Half typed');
    expect(router.state.location.pathname).toBe('/category');

    void router.navigate('/faqs');
    await userEvent.click(within(await discardDialog()).getByRole('button', { name: 'Discard' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/faqs'));
  });

  it('sends one request for a double submit, and stays locked until it has closed', async () => {
    let posts = 0;
    let answer: () => void = () => undefined;
    server.use(
      http.post(api('/category'), async () => {
        posts++;
        await new Promise<void>((resolve) => (answer = resolve));
        return HttpResponse.json({ message: 'Category Created Successfully', result: created });
      }),
    );
    const { dialog, name } = await openNewCategory();
    await userEvent.type(name, 'Festivals');
    const form = name.closest('form')!;
    fireEvent.submit(form);
    fireEvent.submit(form);
    await waitFor(() => expect(posts).toBe(1));
    await userEvent.type(name, '{Enter}');
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBeDisabled();
    answer();
    expect(await screen.findByText('Category Created Successfully')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(posts).toBe(1);
  });

  it('says a refusal of a field it shows on that field alone; any other in a toast that stays until closed', async () => {
    let field = 'name';
    server.use(
      http.post(api('/category'), () => validationError(field, 'Must not be a reserved word')),
    );
    const { dialog, name } = await openNewCategory();
    await userEvent.type(name, 'Admin{Enter}');
    await waitFor(() => expect(name).toHaveAccessibleDescription('Must not be a reserved word'));
    // One message for one failure: no toast beside the field's.
    await new Promise((r) => setTimeout(r, 100));
    expect(screen.queryByRole('alert')).toBeNull();
    // The form can be sent again once the server has answered.
    expect(within(dialog).getByRole('button', { name: 'Create' })).toBeEnabled();

    // A field the form does not show: the toast says it, and stays.
    field = 'slug';
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    const toast = await screen.findByRole('alert');
    expect(toast).toHaveTextContent('slug: Must not be a reserved word');
    await new Promise((r) => setTimeout(r, 2500));
    expect(screen.getByRole('alert')).toHaveTextContent('slug: Must not be a reserved word');
  });

  it('names a Select by its label too when the server refuses it', async () => {
    server.use(
      http.get(api('/master-app/options'), () =>
        HttpResponse.json({ result: [{ id: 2, name: 'Festival', timeZone: 'UTC' }] }),
      ),
      http.get(api('/banner/list'), () =>
        HttpResponse.json({
          result: [
            {
              id: 3,
              version: 1,
              image: `/media/banners/ab/${'a'.repeat(64)}.webp`,
              status: 'ACTIVE',
              link: 'https://example.com/3',
              linkType: 'EXTERNAL',
              liveFrom: null,
              liveUntil: null,
              createdAt: created.createdAt,
              updatedAt: created.createdAt,
              masterApp: { id: 2, name: 'Festival' },
            },
          ],
          total: 1,
          nextCursor: null,
        }),
      ),
      http.put(api('/banner/linktype/3'), () =>
        validationError('linkType', 'Not offered in this app'),
      ),
    );
    renderApp('/banner', { signedInAs: 'a@b.c' });
    await userEvent.click(await screen.findByRole('button', { name: 'Actions for Banner #3' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Edit link' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit link' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    // On the field, by its label's place, and not again in a toast.
    await waitFor(() =>
      expect(
        within(dialog).getByRole('combobox', { name: 'Link type' }),
      ).toHaveAccessibleDescription('Not offered in this app'),
    );
    expect(screen.getAllByText('Not offered in this app')).toHaveLength(1);
  });

  it('keeps a pasted text past the limit whole, counts it and says the limit', async () => {
    const { name } = await openNewCategory();
    expect(screen.getByText('0 / 100')).toBeInTheDocument();
    await userEvent.type(name, 'Diwali');
    expect(screen.getByText('6 / 100')).toBeInTheDocument();
    await userEvent.clear(name);
    await userEvent.click(name);
    await userEvent.paste('x'.repeat(300));
    expect(name).toHaveValue('x'.repeat(300));
    expect(screen.getByText('300 / 100')).toBeInTheDocument();
    await waitFor(() => expect(name).toHaveAccessibleDescription('Must be at most 100 characters'));
  });

  it('guards a form on a screen too: leaving with a half-typed password asks first', async () => {
    server.use(
      http.get(api('/account/admin-detail'), () =>
        HttpResponse.json({
          id: 1,
          phoneNumber: null,
          email: 'a@b.c',
          status: 'ACTIVE',
          createdAt: created.createdAt,
        }),
      ),
    );
    const { router } = renderApp('/profile', { signedInAs: 'a@b.c' });
    // Untouched: leaving is not held.
    await screen.findByLabelText('Current password', { selector: 'input' });
    void router.navigate('/faqs');
    await waitFor(() => expect(router.state.location.pathname).toBe('/faqs'));
    // Shown, not only routed: typing into the profile screen still on show while the move to
    // /faqs renders would be lost when it lands.
    await screen.findByRole('heading', { name: 'FAQs', level: 2 });
    void router.navigate('/profile');
    await waitFor(() => expect(screen.queryByRole('heading', { name: 'FAQs' })).toBeNull());
    await userEvent.type(
      await screen.findByLabelText('Current password', { selector: 'input' }),
      'half',
    );
    void router.navigate('/faqs');
    await userEvent.click(
      within(await discardDialog()).getByRole('button', { name: 'Keep editing' }),
    );
    expect(router.state.location.pathname).toBe('/profile');
    expect(screen.getByLabelText('Current password', { selector: 'input' })).toHaveValue('half');
    // A sign-out (or an ended session) is not held: the session is gone, nothing could be saved.
    void router.navigate('/auth/sign-in');
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/sign-in'));
    expect(screen.queryByText('Discard changes?')).not.toBeInTheDocument();
  });

  it('reads each text field’s limit from the contract schema', () => {
    expect(maxLengthOf(categoryBody, 'name')).toBe(100);
    expect(maxLengthOf(faqCreateBody, 'answer')).toBeGreaterThan(100);
    expect(maxLengthOf(bannerCreateBody, 'link')).toBeGreaterThan(0);
    expect(maxLengthOf(categoryBody, 'nothing')).toBeUndefined();
    // Rich text: its HTML, as sent.
    expect(maxLengthOf(blogCreateBody, 'desc')).toBe(RICH_TEXT_MAX_LENGTH);
    expect(maxLengthOf(blogEditForm, 'desc')).toBe(RICH_TEXT_MAX_LENGTH);
    expect(maxLengthOf(pageEditForm, 'desc')).toBe(RICH_TEXT_MAX_LENGTH);
  });
});
