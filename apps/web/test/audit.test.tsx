import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AuditEntry } from '@master-admin/contract';
import { renderApp } from './render';
import { HttpResponse, http, api, server, staffGrants } from './server';

const entry = (id: number, overrides: Partial<AuditEntry> = {}): AuditEntry => ({
  id,
  accountId: 1,
  accountName: 'admin@example.com',
  ip: '10.0.0.9',
  device: 'Chrome 142 on macOS',
  area: 'faqs',
  rowId: 7,
  action: 'UPDATE',
  changes: [
    { field: 'answer', old: 'Before.', new: 'After.' },
    { field: 'question', old: 'Q?', new: 'Q!' },
  ],
  createdAt: '2026-11-20T10:00:00.000Z',
  ...overrides,
});

describe('audit log', () => {
  it('lists entries, expands one to its changes, and keeps its filters in the URL', async () => {
    const seen: string[] = [];
    server.use(
      http.get(api('/audit/list'), ({ request }) => {
        seen.push(new URL(request.url).search);
        return HttpResponse.json({
          result: [
            entry(2),
            entry(1, {
              action: 'PASSWORD',
              area: 'staff',
              rowId: 4,
              changes: [{ field: 'password', old: null, new: null, redacted: true }],
            }),
          ],
          total: 2,
          nextCursor: null,
        });
      }),
    );
    const { router } = renderApp('/audit-log?area=faqs', { signedInAs: 'a@b.c' });
    expect(await screen.findByRole('heading', { name: 'Audit log' })).toBeInTheDocument();
    expect(await screen.findByText('FAQs #7')).toBeInTheDocument();
    expect(seen[0]).toBe('?limit=20&offset=0&area=faqs');
    expect(screen.getByText('Password changed')).toBeInTheDocument();
    // Where each change came from: the address, and the device under it.
    const row = screen.getByText('FAQs #7').closest('tr')!;
    expect(within(row).getByText('10.0.0.9')).toBeInTheDocument();
    expect(within(row).getByText('Chrome 142 on macOS')).toBeInTheDocument();

    // Expanding an entry shows its fields, old → new. Collapsed, they are not shown (React may
    // have rendered them already, hidden, ahead of time: Mantine's Collapse keeps them mounted).
    const early = screen.queryByText('Before.');
    if (early) expect(early).not.toBeVisible();
    await userEvent.click(screen.getByRole('button', { name: '2 fields' }));
    // Collapse animates open: visible once it has.
    await waitFor(() => expect(screen.getByText('Before.')).toBeVisible());
    expect(screen.getByText('After.')).toBeVisible();
    // A secret is named, never shown.
    await userEvent.click(screen.getByRole('button', { name: '1 field' }));
    await waitFor(() => expect(screen.getByText('changed (never shown)')).toBeVisible());

    // The row link filters to that row; the account link to that account.
    await userEvent.click(screen.getByRole('button', { name: 'Staff #4' }));
    await waitFor(() =>
      expect(new URLSearchParams(router.state.location.search).get('rowId')).toBe('4'),
    );
    expect(new URLSearchParams(router.state.location.search).get('area')).toBe('staff');
    await waitFor(() => expect(seen.at(-1)).toBe('?limit=20&offset=0&area=staff&rowId=4'));

    const account = screen.getByRole('textbox', { name: 'Account id' });
    await userEvent.type(account, '12{Enter}');
    await waitFor(() =>
      expect(seen.at(-1)).toBe('?limit=20&offset=0&accountId=12&area=staff&rowId=4'),
    );
  });

  it('is for SUPER_ADMIN only: a staff member sees Access Denied! and no call is made', async () => {
    let called = false;
    server.use(
      staffGrants({ faqs: ['VIEW'] }),
      http.get(api('/audit/list'), () => {
        called = true;
        return HttpResponse.json({ result: [], total: 0, nextCursor: null });
      }),
    );
    renderApp('/audit-log', { signedInAs: 'a@b.c' });
    expect(await screen.findByText('Access Denied!')).toBeInTheDocument();
    expect(called).toBe(false);
  });

  it('a row’s menu opens its History, from that area’s history call', async () => {
    server.use(
      http.get(api('/faqs/list'), () =>
        HttpResponse.json({
          result: [
            {
              id: 7,
              version: 1,
              question: 'Q!',
              answer: 'After.',
              createdAt: '2026-11-20T10:00:00Z',
            },
          ],
          total: 1,
          nextCursor: null,
        }),
      ),
      http.get(api('/audit/history/faqs/7'), () =>
        HttpResponse.json({
          result: [entry(2), entry(1, { action: 'CREATE', changes: [] })],
          total: 2,
          nextCursor: null,
        }),
      ),
    );
    renderApp('/faqs', { signedInAs: 'a@b.c' });
    await userEvent.click(await screen.findByRole('button', { name: 'Actions for Q!' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'History' }));
    const drawer = await screen.findByRole('dialog', { name: 'History of Q!' });
    expect(await within(drawer).findByText('Updated')).toBeInTheDocument();
    expect(within(drawer).getByText('Created')).toBeInTheDocument();
    expect(within(drawer).getByText('Before.')).toBeInTheDocument();
    expect(
      within(drawer).getAllByText('By admin@example.com from 10.0.0.9 (Chrome 142 on macOS)'),
    ).toHaveLength(2);
  });
});
