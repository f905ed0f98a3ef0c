import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import './rich-text';
import { renderApp } from './render';
import { HttpResponse, errorJson, http, api, server } from './server';

const IMAGE = `/media/blogs/ab/${'b'.repeat(64)}.webp`;

const blog = (id: number, overrides: Record<string, unknown> = {}) => ({
  id,
  version: 1,
  title: `Blog ${id}`,
  author: 'Asha Rao',
  popular: false,
  shortDesc: `Short text of blog ${id}`,
  image: null,
  desc: '<p>Hello</p>',
  date: '2026-11-20',
  status: 'ACTIVE',
  createdAt: '2026-11-20T10:00:00.000Z',
  updatedAt: '2026-11-20T10:00:00.000Z',
  ...overrides,
});

/** A multipart field's value in a body read as text. */
const part = (body: string, name: string) =>
  new RegExp(`name="${name}"\\r\\n\\r\\n([\\s\\S]*?)\\r\\n--`).exec(body)?.[1];

describe('blogs', () => {
  it('lists blogs with thumbnail, author, date and popular, and keeps search and status in the URL', async () => {
    const seen: string[] = [];
    server.use(
      http.get(api('/blogs/all'), ({ request }) => {
        seen.push(new URL(request.url).search);
        return HttpResponse.json({
          result: [blog(7, { image: IMAGE, popular: true, status: 'DEACTIVE' }), blog(6)],
          total: 2,
          nextCursor: null,
        });
      }),
    );
    const { router } = renderApp('/blogs?status=DEACTIVE', { signedInAs: 'a@b.c' });
    const thumb = await screen.findByRole('img', { name: 'Image of Blog 7' });
    expect(thumb).toHaveAttribute('src', IMAGE.replace('.webp', '.thumb.webp'));
    expect(screen.getByRole('link', { name: 'Blog 7' })).toHaveAttribute('href', '/blogs/detail/7');
    expect(screen.getByRole('switch', { name: 'Popular: Blog 7' })).toBeChecked();
    expect(screen.getByRole('switch', { name: 'Popular: Blog 6' })).not.toBeChecked();
    expect(screen.getAllByText('20 Nov 2026')).toHaveLength(2);
    expect(screen.getAllByText('Asha Rao')).toHaveLength(2);
    expect(screen.getByText('1–2 of 2')).toBeInTheDocument();
    expect(seen[0]).toBe('?limit=20&offset=0&status=DEACTIVE');

    await userEvent.type(screen.getByRole('textbox', { name: 'Search blogs' }), 'asha');
    await waitFor(() => expect(router.state.location.search).toBe('?status=DEACTIVE&q=asha'));
    await waitFor(() =>
      expect(seen.at(-1)).toBe('?limit=20&offset=0&keyword=asha&status=DEACTIVE'),
    );

    await userEvent.click(screen.getByRole('combobox', { name: 'Status' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Active' }));
    await waitFor(() => expect(router.state.location.search).toBe('?status=ACTIVE&q=asha'));
    await waitFor(() => expect(seen.at(-1)).toBe('?limit=20&offset=0&keyword=asha&status=ACTIVE'));
  });

  it('creates a blog: checks the fields first, then sends them with the image and the formatted text', async () => {
    let created = false;
    let sent: string | undefined;
    server.use(
      http.get(api('/blogs/all'), () =>
        HttpResponse.json({
          result: created ? [blog(1, { title: 'Diwali offers' })] : [],
          total: created ? 1 : 0,
          nextCursor: null,
        }),
      ),
      http.post(api('/blogs'), async ({ request }) => {
        sent = await request.text();
        created = true;
        return HttpResponse.json({
          message: 'Blog Created Successfully',
          result: blog(1, { title: 'Diwali offers' }),
        });
      }),
    );
    renderApp('/blogs', { signedInAs: 'a@b.c' });
    expect(await screen.findByText('No blogs yet')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'New blog' }));
    const dialog = await screen.findByRole('dialog', { name: 'New blog' });

    await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(within(dialog).getAllByText('Required')).toHaveLength(4));
    const editor = await within(dialog).findByRole('textbox', { name: 'Description' });
    expect(editor).toHaveAttribute('aria-invalid', 'true');
    expect(sent).toBeUndefined();

    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Title' }), 'Diwali offers');
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Author' }), 'Asha Rao');
    await userEvent.type(
      within(dialog).getByRole('textbox', { name: 'Short description' }),
      'Lights & sweets',
    );
    await userEvent.click(editor);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Bullet list' }));
    await userEvent.paste('Lamps for every home');
    await waitFor(() => expect(editor).not.toHaveAttribute('aria-invalid'));

    await userEvent.click(within(dialog).getByRole('button', { name: 'Date' }));
    await userEvent.click(await screen.findByRole('button', { name: /^15 / }));
    const file = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'lamps.png', {
      type: 'image/png',
    });
    await userEvent.upload(dialog.querySelector('input[type=file]')!, file);
    expect(
      await within(dialog).findByRole('img', { name: 'Preview of lamps.png' }),
    ).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }));

    expect(await screen.findByText('Blog Created Successfully')).toBeInTheDocument();
    expect(part(sent!, 'title')).toBe('Diwali offers');
    expect(part(sent!, 'author')).toBe('Asha Rao');
    expect(part(sent!, 'shortDesc')).toBe('Lights & sweets');
    expect(part(sent!, 'desc')).toBe('<ul><li><p>Lamps for every home</p></li></ul>');
    expect(part(sent!, 'date')).toMatch(/^\d{4}-\d{2}-15$/);
    expect(sent).toContain('name="image"; filename="lamps.png"');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    // The list is read again from the server (spec §4: create does not add the row locally).
    expect(await screen.findByRole('link', { name: 'Diwali offers' })).toBeInTheDocument();
  });

  it('creates a blog without image or date: neither is sent', async () => {
    let sent = '';
    server.use(
      http.get(api('/blogs/all'), () =>
        HttpResponse.json({ result: [], total: 0, nextCursor: null }),
      ),
      http.post(api('/blogs'), async ({ request }) => {
        sent = await request.text();
        return HttpResponse.json({ message: 'Blog Created Successfully', result: blog(2) });
      }),
    );
    renderApp('/blogs', { signedInAs: 'a@b.c' });
    await userEvent.click(await screen.findByRole('button', { name: 'New blog' }));
    const dialog = await screen.findByRole('dialog', { name: 'New blog' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Title' }), 'Plain');
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Author' }), 'Ravi');
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Short description' }), 'S');
    await userEvent.click(await within(dialog).findByRole('textbox', { name: 'Description' }));
    await userEvent.paste('Body');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('Blog Created Successfully')).toBeInTheDocument();
    expect(part(sent, 'desc')).toBe('<p>Body</p>');
    expect(sent).not.toContain('name="image"');
    expect(sent).not.toContain('name="date"');
  });

  it('edits a blog: the stored values fill the form, clearing the date sends it empty', async () => {
    let body: URLSearchParams | undefined;
    server.use(
      http.get(api('/blogs/all'), () =>
        HttpResponse.json({
          result: [blog(3, { desc: '<p><strong>Bold</strong> start</p>' })],
          total: 1,
          nextCursor: null,
        }),
      ),
      http.patch(api('/blogs/3'), async ({ request }) => {
        body = new URLSearchParams(await request.text());
        return HttpResponse.json({ message: 'Blog Updated Successfully', result: blog(3) });
      }),
    );
    renderApp('/blogs', { signedInAs: 'a@b.c' });
    await userEvent.click(await screen.findByRole('button', { name: 'Actions for Blog 3' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit blog' });
    expect(within(dialog).getByRole('textbox', { name: 'Title' })).toHaveValue('Blog 3');
    const editor = await within(dialog).findByRole('textbox', { name: 'Description' });
    await waitFor(() => expect(editor.querySelector('strong')).toHaveTextContent('Bold'));

    const title = within(dialog).getByRole('textbox', { name: 'Title' });
    await userEvent.clear(title);
    await userEvent.type(title, 'Blog three');
    expect(within(dialog).getByRole('button', { name: 'Date' })).toHaveTextContent('20 Nov 2026');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Clear the date' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Blog Updated Successfully')).toBeInTheDocument();
    expect(body?.get('title')).toBe('Blog three');
    expect(body?.get('desc')).toBe('<p><strong>Bold</strong> start</p>');
    expect(body?.get('date')).toBe('');
    expect(body?.get('author')).toBe('Asha Rao');
  });

  it('toggles popular at once with PUT blogs/popular/{id}', async () => {
    let popular = false;
    let sent = '';
    server.use(
      http.get(api('/blogs/all'), () =>
        HttpResponse.json({ result: [blog(5, { popular })], total: 1, nextCursor: null }),
      ),
      http.put(api('/blogs/popular/5'), async ({ request }) => {
        sent = await request.text();
        popular = new URLSearchParams(sent).get('popular') === 'true';
        return HttpResponse.json({
          message: 'Successfully Updated.',
          result: blog(5, { popular }),
        });
      }),
    );
    renderApp('/blogs', { signedInAs: 'a@b.c' });
    const toggle = await screen.findByRole('switch', { name: 'Popular: Blog 5' });
    expect(toggle).not.toBeChecked();
    await userEvent.click(toggle);
    expect(await screen.findByText('Successfully Updated.')).toBeInTheDocument();
    expect(sent).toBe('popular=true');
    await waitFor(() =>
      expect(screen.getByRole('switch', { name: 'Popular: Blog 5' })).toBeChecked(),
    );
    await waitFor(() =>
      expect(screen.getByRole('switch', { name: 'Popular: Blog 5' })).toBeEnabled(),
    );
  });

  it('asks before deleting; the row goes once the server confirms', async () => {
    let deleted = false;
    let deletes = 0;
    server.use(
      http.get(api('/blogs/all'), () =>
        HttpResponse.json({
          result: deleted ? [] : [blog(4)],
          total: deleted ? 0 : 1,
          nextCursor: null,
        }),
      ),
      http.delete(api('/blogs/remove/4'), () => {
        deletes += 1;
        deleted = true;
        return HttpResponse.json({ message: 'Blog deleted successfully', result: { id: 4 } });
      }),
    );
    renderApp('/blogs', { signedInAs: 'a@b.c' });
    await userEvent.click(await screen.findByRole('button', { name: 'Actions for Blog 4' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Delete' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete this blog?' });
    expect(confirm).toHaveTextContent('“Blog 4” will be deleted.');
    await userEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(deletes).toBe(0);

    await userEvent.click(screen.getByRole('button', { name: 'Actions for Blog 4' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Delete' }));
    await userEvent.click(
      within(await screen.findByRole('dialog', { name: 'Delete this blog?' })).getByRole('button', {
        name: 'Delete',
      }),
    );
    expect(await screen.findByText('Blog deleted successfully')).toBeInTheDocument();
    expect(deletes).toBe(1);
    expect(await screen.findByText('No blogs yet')).toBeInTheDocument();
  });

  it('shows a whole blog on its detail screen, with the formatted text', async () => {
    server.use(
      http.get(api('/blogs/9'), () =>
        HttpResponse.json(
          blog(9, {
            image: IMAGE,
            popular: true,
            desc: '<h2>Why lamps</h2><p><strong>Bright</strong> and <em>warm</em></p><ul><li><p>One</p></li><li><p>Two</p></li></ul>',
          }),
        ),
      ),
    );
    renderApp('/blogs/detail/9', { signedInAs: 'a@b.c' });
    expect(await screen.findByRole('heading', { name: 'Blog 9', level: 2 })).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Image of Blog 9' })).toHaveAttribute('src', IMAGE);
    expect(screen.getByText('Short text of blog 9')).toBeInTheDocument();
    expect(screen.getByRole('switch', { name: 'Popular: Blog 9' })).toBeChecked();
    const body = screen.getByRole('region', { name: 'Blog text' });
    expect(within(body).getByRole('heading', { name: 'Why lamps', level: 2 })).toBeInTheDocument();
    expect(body.querySelector('strong')).toHaveTextContent('Bright');
    expect(body.querySelector('em')).toHaveTextContent('warm');
    expect(within(body).getAllByRole('listitem')).toHaveLength(2);
    expect(screen.getByRole('link', { name: 'All blogs' })).toHaveAttribute('href', '/blogs');
    expect(screen.getByRole('button', { name: 'Edit' })).toBeInTheDocument();
  });

  it('says so when the blog does not exist', async () => {
    server.use(http.get(api('/blogs/404'), () => errorJson(404, 'Not Found', 'Blog not found')));
    const first = renderApp('/blogs/detail/404', { signedInAs: 'a@b.c' });
    expect(await screen.findByText('Blog not found')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to blogs' })).toHaveAttribute('href', '/blogs');
    first.unmount();

    // An address that cannot name a blog is not asked for.
    let asked = false;
    server.use(
      http.get(api('/blogs/:id'), () => {
        asked = true;
        return HttpResponse.json(blog(1));
      }),
    );
    renderApp('/blogs/detail/abc', { signedInAs: 'a@b.c' });
    expect(await screen.findByText('Blog not found')).toBeInTheDocument();
    expect(asked).toBe(false);
  });
});
