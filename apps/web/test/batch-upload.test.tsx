import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MESSAGES } from '@master-admin/contract';
import { renderApp } from './render';
import { HttpResponse, errorJson, http, api, server } from './server';

const category = (id: number, name: string) => ({
  id,
  version: 1,
  name,
  downloadCount: 0,
  status: 'ACTIVE',
  createdAt: '2026-11-20T10:00:00.000Z',
});

function withChoices() {
  server.use(
    http.get(api('/master-app/options'), () =>
      HttpResponse.json({
        result: [
          { id: 2, name: 'Festival', timeZone: 'UTC' },
          { id: 4, name: 'Greetings', timeZone: 'UTC' },
        ],
      }),
    ),
    http.get(api('/category/options'), () =>
      HttpResponse.json({ result: [category(3, 'Festivals')], total: 1, nextCursor: null }),
    ),
    http.get(api('/special-day/options'), () =>
      HttpResponse.json({
        result: [
          {
            id: 5,
            name: 'Christmas',
            month: 12,
            day: 25,
            year: null,
            status: 'ACTIVE',
            createdAt: '2026-11-20T10:00:00.000Z',
            updatedAt: '2026-11-20T10:00:00.000Z',
          },
        ],
        total: 1,
        nextCursor: null,
      }),
    ),
    http.get(api('/poster/list'), () =>
      HttpResponse.json({ result: [], total: 0, nextCursor: null }),
    ),
  );
}

const png = (name: string) =>
  new File(
    [new Uint8Array([0x89, 0x50, 0x4e, 0x47, ...name.split('').map((c) => c.charCodeAt(0))])],
    name,
    {
      type: 'image/png',
    },
  );

/** The file name a multipart body carries. */
const fileName = (body: string) => /name="file"; filename="([^"]+)"/.exec(body)?.[1];

async function openBatch() {
  // The first screen of a run compiles its route: a busy machine takes a while.
  await userEvent.click(
    await screen.findByRole('button', { name: 'Many posters' }, { timeout: 20_000 }),
  );
  return screen.findByRole('dialog', { name: 'Many posters' });
}

async function chooseCategory(dialog: HTMLElement) {
  const select = within(dialog).getByRole('combobox', { name: 'Category' });
  await waitFor(() => expect(select).toBeEnabled());
  await userEvent.click(select);
  await userEvent.click(await screen.findByRole('option', { name: 'Festivals' }));
}

const filesInput = (dialog: HTMLElement) =>
  dialog.querySelectorAll('input[type=file]')[0] as HTMLInputElement;

describe('many posters at once', () => {
  it('sends each file as its own call, three at a time; a refused file never stops the others, and Retry sends it again', async () => {
    withChoices();
    let inFlight = 0;
    let most = 0;
    const keys: string[] = [];
    const sent: string[] = [];
    let refuseBad = true;
    server.use(
      http.post(api('/poster/:categoryId'), async ({ request }) => {
        inFlight += 1;
        most = Math.max(most, inFlight);
        keys.push(request.headers.get('Idempotency-Key') ?? '');
        const name = fileName(await request.text()) ?? '';
        sent.push(name);
        await new Promise((r) => setTimeout(r, 40));
        inFlight -= 1;
        if (name === 'bad.png' && refuseBad) {
          return errorJson(415, 'Unsupported Media Type', 'This file is not an image we accept');
        }
        return HttpResponse.json({
          message: 'Poster uploaded to all apps successfully',
          result: { ids: [sent.length], count: 1 },
        });
      }),
    );
    renderApp('/poster', { signedInAs: 'a@b.c' });
    const dialog = await openBatch();
    await chooseCategory(dialog);
    const files = [
      png('p1.png'),
      png('p2.png'),
      png('bad.png'),
      png('p3.png'),
      new File(['hello'], 'notes.txt', { type: 'text/plain' }),
      png('p4.png'),
      png('p5.png'),
    ];
    await userEvent.upload(filesInput(dialog), files);
    expect(within(dialog).getByText('7 files chosen: drop or choose more')).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Upload' }));

    // The settings close; the files' panel shows above the list.
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Many posters' })).toBeNull());
    const panel = await screen.findByRole(
      'region',
      { name: 'Upload finished' },
      { timeout: 10_000 },
    );
    expect(most).toBe(3);
    // The text file is refused before sending; every image is sent once, each with its own key.
    expect(sent.sort()).toEqual(['bad.png', 'p1.png', 'p2.png', 'p3.png', 'p4.png', 'p5.png']);
    expect(new Set(keys).size).toBe(6);
    const summary = within(panel).getByRole('status');
    expect(summary).toHaveTextContent('5 of 7 posters created');
    expect(summary).toHaveTextContent('bad.png: This file is not an image we accept');
    expect(summary).toHaveTextContent(`notes.txt: ${MESSAGES.batchNotImage}`);

    // Retry after the server's refusal shows the same reason again …
    await userEvent.click(within(panel).getByRole('button', { name: 'Retry bad.png' }));
    await waitFor(() => expect(sent.filter((n) => n === 'bad.png')).toHaveLength(2));
    expect(await within(panel).findByText('5 of 7 posters created')).toBeInTheDocument();
    // … and once the server takes it, the row is created.
    refuseBad = false;
    await userEvent.click(within(panel).getByRole('button', { name: 'Retry bad.png' }));
    expect(await within(panel).findByText('6 of 7 posters created')).toBeInTheDocument();
    expect(within(panel).getByRole('listitem', { name: 'bad.png' })).toHaveAttribute(
      'data-state',
      'created',
    );
    expect(within(panel).queryByRole('button', { name: 'Retry bad.png' })).toBeNull();
  }, 40_000);

  it('refuses more than 200 files before sending anything', async () => {
    withChoices();
    let calls = 0;
    server.use(
      http.post(api('/poster/:categoryId'), () => {
        calls += 1;
        return HttpResponse.json({ message: 'ok', result: { ids: [1], count: 1 } });
      }),
    );
    renderApp('/poster', { signedInAs: 'a@b.c' });
    const dialog = await openBatch();
    await chooseCategory(dialog);
    await userEvent.upload(
      filesInput(dialog),
      Array.from({ length: 201 }, (_, i) => png(`p${i}.png`)),
    );
    expect(await within(dialog).findByText(MESSAGES.batchTooMany)).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Upload' }));
    expect(await within(dialog).findByText(MESSAGES.batchTooMany)).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Many posters' })).toBeInTheDocument();
    expect(calls).toBe(0);
  });

  it('opens prefilled from the plan’s gap: that app, special day and date', async () => {
    withChoices();
    let body = '';
    let url = '';
    server.use(
      http.post(api('/poster/only-cat/:categoryId'), async ({ request }) => {
        url = new URL(request.url).pathname;
        body = await request.text();
        return HttpResponse.json({ message: 'Poster Created Successfully', result: {} });
      }),
    );
    renderApp('/poster?batch=1&specialDayId=5&masterAppId=4&date=2026-12-25', {
      signedInAs: 'a@b.c',
    });
    const dialog = await screen.findByRole('dialog', { name: 'Many posters' });
    expect(within(dialog).getByRole('radio', { name: 'One app' })).toBeChecked();
    await waitFor(() =>
      expect(within(dialog).getByRole('combobox', { name: 'Master app' })).toHaveValue('Greetings'),
    );
    await chooseCategory(dialog);
    await userEvent.upload(filesInput(dialog), [png('xmas.png')]);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Upload' }));
    await screen.findByRole('region', { name: 'Upload finished' }, { timeout: 10_000 });
    expect(url).toBe('/api/v1/poster/only-cat/3');
    expect(body).toContain('name="masterAppId"\r\n\r\n4');
    expect(body).toContain('name="specialDayId"\r\n\r\n5');
    expect(body).toContain('name="date"\r\n\r\n2026-12-25');
  });
});
