import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { TrashRow } from '@master-admin/contract';
import { renderApp } from './render';
import { HttpResponse, http, api, server, staffGrants } from './server';

const faq = (id: number) => ({
  id,
  version: 1,
  question: `Question ${id}?`,
  answer: `Answer ${id}.`,
  createdAt: '2026-11-20T10:00:00.000Z',
});

const trashed = (area: TrashRow['area'], id: number, title: string): TrashRow => ({
  area,
  id,
  title,
  thumbnail: area === 'posters' ? `/media/posters/ab/${'a'.repeat(64)}.webp` : null,
  deletedAt: '2026-11-28T09:30:00.000Z',
  deletedBy: { id: 1, name: 'Asha' },
});

describe('Undo in a delete’s toast', () => {
  it('restores what was deleted, and the row is back', async () => {
    let deleted = false;
    let restored: unknown;
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
      http.post(api('/trash/restore'), async ({ request }) => {
        restored = await request.json();
        deleted = false;
        return HttpResponse.json({
          message: 'Restored',
          result: { items: [{ area: 'faqs', id: 8 }], count: 1 },
        });
      }),
    );
    renderApp('/faqs', { signedInAs: 'a@b.c' });
    await userEvent.click(await screen.findByRole('button', { name: 'Actions for Question 8?' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Delete' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete this FAQ?' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Faq Deleted Successfully')).toBeInTheDocument();
    expect(await screen.findByText('No FAQs yet')).toBeInTheDocument();
    expect(restored).toBeUndefined();

    await userEvent.click(screen.getByRole('button', { name: 'Undo' }));
    await waitFor(() => expect(restored).toEqual({ items: [{ area: 'faqs', id: 8 }] }));
    expect(await screen.findByText('Restored')).toBeInTheDocument();
    expect(await screen.findByText('Question 8?')).toBeInTheDocument();
  });
});

describe('the Trash screen', () => {
  const rows = [
    trashed('posters', 7, 'Diwali Wishes · Festival App'),
    trashed('faqs', 3, 'Can I pay by card?'),
  ];

  it('lists, filters, restores the picked rows and (SUPER_ADMIN) deletes forever after asking', async () => {
    const seen: string[] = [];
    let restored: unknown;
    let purged: unknown;
    server.use(
      http.get(api('/trash'), ({ request }) => {
        seen.push(new URL(request.url).search);
        return HttpResponse.json({ result: rows, total: 2, nextCursor: null });
      }),
      http.post(api('/trash/restore'), async ({ request }) => {
        restored = await request.json();
        return HttpResponse.json({ message: 'Restored', result: { items: [], count: 2 } });
      }),
      http.delete(api('/trash'), async ({ request }) => {
        purged = await request.json();
        return HttpResponse.json({ message: 'Deleted forever', result: { items: [], count: 1 } });
      }),
    );
    renderApp('/trash?area=posters', { signedInAs: 'a@b.c' });
    expect(await screen.findByText('Diwali Wishes · Festival App')).toBeInTheDocument();
    expect(screen.getAllByText('Asha').length).toBeGreaterThan(0);
    expect(seen[0]).toBe('?limit=20&offset=0&area=posters');

    await userEvent.click(screen.getByRole('checkbox', { name: 'Select Poster #7' }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select FAQ #3' }));
    const bar = screen.getByRole('region', { name: 'Selected rows' });
    await userEvent.click(within(bar).getByRole('button', { name: 'Restore' }));
    await waitFor(() =>
      expect(restored).toEqual({
        items: [
          { area: 'posters', id: 7 },
          { area: 'faqs', id: 3 },
        ],
      }),
    );
    expect(await screen.findByText('Restored')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Actions for FAQ #3' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Delete forever' }));
    const confirm = await screen.findByRole('dialog', { name: /Delete .* forever\?/ });
    expect(purged).toBeUndefined();
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete forever' }));
    await waitFor(() => expect(purged).toEqual({ items: [{ area: 'faqs', id: 3 }] }));
  });

  it('offers staff restore but not delete forever, and the areas they may delete in', async () => {
    server.use(
      staffGrants({ poster: ['VIEW', 'DELETE'], faqs: ['VIEW'] }),
      http.get(api('/trash'), () =>
        HttpResponse.json({ result: [rows[0]], total: 1, nextCursor: null }),
      ),
    );
    renderApp('/trash', { signedInAs: 'a@b.c' });
    expect(await screen.findByText('Diwali Wishes · Festival App')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Trash' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Actions for Poster #7' }));
    expect(await screen.findByRole('menuitem', { name: 'Restore' })).toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: 'Delete forever' })).toBeNull();
  });

  it('is not in the sidebar of an account with DELETE in no trashable area', async () => {
    server.use(
      staffGrants({ faqs: ['VIEW'] }),
      http.get(api('/faqs/list'), () =>
        HttpResponse.json({ result: [], total: 0, nextCursor: null }),
      ),
    );
    renderApp('/faqs', { signedInAs: 'a@b.c' });
    expect(await screen.findByText('No FAQs yet')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'FAQs' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Trash' })).toBeNull();
  });
});
