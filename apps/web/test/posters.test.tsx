import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderApp } from './render';
import { HttpResponse, errorJson, http, api, server } from './server';
import { PHONE_QUERY } from '../src/lib/phone';
import { image, poster } from './poster-rows';

const category = (id: number, name: string) => ({
  id,
  version: 1,
  name,
  downloadCount: 0,
  status: 'ACTIVE',
  createdAt: '2026-11-20T10:00:00.000Z',
});

/** A multipart field's value in a body read as text. */
const part = (body: string, name: string) =>
  new RegExp(`name="${name}"\\r\\n\\r\\n([\\s\\S]*?)\\r\\n--`).exec(body)?.[1];

/** The choices the filters and the create form offer: apps, categories, special days. */
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
      HttpResponse.json({
        result: [category(3, 'Festivals'), category(6, 'Quotes')],
        total: 2,
        nextCursor: null,
      }),
    ),
    http.get(api('/special-day/options'), () =>
      HttpResponse.json({
        result: [
          {
            id: 5,
            name: 'Diwali',
            month: 11,
            day: 12,
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
  );
}

function withPosters(rows: () => unknown[]) {
  server.use(
    http.get(api('/poster/list'), () => {
      const result = rows();
      return HttpResponse.json({ result, total: result.length, nextCursor: null });
    }),
  );
}

async function openCreate() {
  await userEvent.click(await screen.findByRole('button', { name: 'New poster' }));
  return screen.findByRole('dialog', { name: 'New poster' });
}

async function chooseCategory(dialog: HTMLElement, name: string) {
  const select = within(dialog).getByRole('combobox', { name: 'Category' });
  await waitFor(() => expect(select).toBeEnabled());
  await userEvent.click(select);
  await userEvent.click(await screen.findByRole('option', { name }));
}

async function choosePosterImage(dialog: HTMLElement) {
  const file = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'diwali.png', {
    type: 'image/png',
  });
  // The first picker is the poster image, the second the thumbnail.
  await userEvent.upload(dialog.querySelectorAll('input[type=file]')[0] as HTMLInputElement, file);
  expect(
    await within(dialog).findByRole('img', { name: 'Preview of diwali.png' }),
  ).toBeInTheDocument();
}

describe('the posters list on a phone', () => {
  it('keeps its filters behind “Filters (n)”, so the rows start on the first screen', async () => {
    const original = window.matchMedia;
    window.matchMedia = (query: string) => ({ ...original(query), matches: query === PHONE_QUERY });
    try {
      withChoices();
      withPosters(() => [poster(7)]);
      const { router } = renderApp('/poster?status=ACTIVE&categoryId=3', { signedInAs: 'a@b.c' });
      const toggle = await screen.findByRole(
        'button',
        { name: 'Filters (2)' },
        { timeout: 10_000 },
      );
      expect(toggle).toHaveAttribute('aria-expanded', 'false');
      // The search stays; the filters wait behind the button.
      expect(screen.getByRole('textbox', { name: 'Search posters' })).toBeVisible();
      expect(screen.queryByRole('combobox', { name: 'Status' })).toBeNull();
      await userEvent.click(toggle);
      expect(toggle).toHaveAttribute('aria-expanded', 'true');
      const status = await screen.findByRole('combobox', { name: 'Status' }, { timeout: 10_000 });
      await userEvent.click(status);
      await userEvent.click(await screen.findByRole('option', { name: 'Active' }));
      await waitFor(() => expect(router.state.location.search).toBe('?categoryId=3'));
      expect(screen.getByRole('button', { name: 'Filters (1)' })).toBeInTheDocument();
    } finally {
      window.matchMedia = original;
    }
  });
});

describe('posters', () => {
  it('lists posters with their image, and keeps the filters in the URL', async () => {
    withChoices();
    const seen: string[] = [];
    server.use(
      http.get(api('/poster/list'), ({ request }) => {
        seen.push(new URL(request.url).search);
        return HttpResponse.json({
          result: [poster(7), poster(8, { specialDay: null, specialDayId: null, date: null })],
          total: 2,
          nextCursor: null,
        });
      }),
    );
    const { router } = renderApp('/poster?status=ACTIVE', { signedInAs: 'a@b.c' });
    const thumb = await screen.findByRole('img', { name: 'Poster #7' });
    expect(thumb).toHaveAttribute('src', image(7).replace('.webp', '.thumb.webp'));
    const table = screen.getByRole('table', { name: 'Posters' });
    const row = within(table).getAllByRole('row')[1]!;
    expect(within(row).getByText('Festivals')).toBeInTheDocument();
    expect(within(row).getByText('Diwali (12 Nov)')).toBeInTheDocument();
    expect(within(row).getByText('1 / 2 / 3')).toBeInTheDocument();
    expect(within(row).getByText('Self photo left')).toBeInTheDocument();
    expect(within(row).getByText('12 Nov 2026')).toBeInTheDocument();
    expect(within(row).getByText('1,234')).toBeInTheDocument();
    expect(seen[0]).toBe('?limit=20&offset=0&status=ACTIVE');

    // Clicking a poster shows it whole.
    await userEvent.click(screen.getByRole('button', { name: 'Show Poster #7' }));
    const full = await screen.findByRole('dialog', { name: 'Poster #7' });
    expect(within(full).getByRole('img', { name: 'Poster #7' })).toHaveAttribute('src', image(7));
    await userEvent.keyboard('{Escape}');
    // Closed, focus is back on the thumbnail it opened from.
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Poster #7' })).toBeNull());
    expect(screen.getByRole('button', { name: 'Show Poster #7' })).toHaveFocus();

    const categorySelect = screen.getByRole('combobox', { name: 'Category' });
    await waitFor(() => expect(categorySelect).toBeEnabled());
    await userEvent.click(categorySelect);
    await userEvent.click(await screen.findByRole('option', { name: 'Festivals' }));
    await waitFor(() => expect(router.state.location.search).toBe('?status=ACTIVE&categoryId=3'));
    await waitFor(() => expect(seen.at(-1)).toBe('?limit=20&offset=0&status=ACTIVE&categoryId=3'));

    await userEvent.click(screen.getByRole('combobox', { name: 'Master app' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Greetings' }));
    await waitFor(() =>
      expect(router.state.location.search).toBe('?status=ACTIVE&categoryId=3&masterAppId=4'),
    );
    await waitFor(() =>
      expect(seen.at(-1)).toBe('?limit=20&offset=0&status=ACTIVE&categoryId=3&masterAppId=4'),
    );

    // Sorting by downloads goes to the URL and the server.
    await userEvent.click(screen.getByRole('button', { name: 'Downloads' }));
    await waitFor(() => expect(router.state.location.search).toContain('sort=downloadCount'));
    await waitFor(() => expect(seen.at(-1)).toContain('sort=downloadCount'));
  });

  it('changes the status of the selected posters at once', async () => {
    withChoices();
    let status = 'ACTIVE';
    let body: unknown;
    withPosters(() => [poster(7, { status }), poster(8, { status }), poster(9)]);
    server.use(
      http.put(api('/poster/bulk-status'), async ({ request }) => {
        body = await request.json();
        status = 'DEACTIVE';
        return HttpResponse.json({
          message: 'Status Updated Successfully',
          result: { ids: [7, 8], count: 2 },
        });
      }),
    );
    renderApp('/poster', { signedInAs: 'a@b.c' });
    await userEvent.click(await screen.findByRole('checkbox', { name: 'Select Poster #7' }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select Poster #8' }));
    const bar = screen.getByRole('region', { name: 'Selected rows' });
    expect(within(bar).getByText('2 selected')).toBeInTheDocument();

    await userEvent.click(within(bar).getByRole('button', { name: 'Change status' }));
    const dialog = await screen.findByRole('dialog', { name: 'Status of 2 posters' });
    await userEvent.click(within(dialog).getByRole('combobox', { name: 'Status' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Deactivated' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Status Updated Successfully')).toBeInTheDocument();
    expect(body).toEqual({ ids: [7, 8], status: 'DEACTIVE', versions: { 7: 1, 8: 1 } });
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Selected rows' })).toBeNull());
    expect(
      await screen.findByRole('button', { name: 'Status of poster #7: Deactivated. Change' }),
    ).toBeInTheDocument();
  });

  it('deletes the selected posters after confirming how many', async () => {
    withChoices();
    let deleted: number[] = [];
    let body: unknown;
    withPosters(() => [poster(7), poster(8), poster(9)].filter((p) => !deleted.includes(p.id)));
    server.use(
      http.delete(api('/poster/bulkDelete'), async ({ request }) => {
        body = await request.json();
        deleted = (body as { ids: number[] }).ids;
        return HttpResponse.json({
          message: 'Poster deleted successfully',
          result: { ids: deleted, count: deleted.length },
        });
      }),
    );
    renderApp('/poster', { signedInAs: 'a@b.c' });
    await userEvent.click(await screen.findByRole('checkbox', { name: 'Select Poster #7' }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select Poster #9' }));
    const bar = screen.getByRole('region', { name: 'Selected rows' });

    await userEvent.click(within(bar).getByRole('button', { name: 'Delete' }));
    let confirm = await screen.findByRole('dialog', { name: 'Delete 2 posters?' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(body).toBeUndefined();

    await userEvent.click(within(bar).getByRole('button', { name: 'Delete' }));
    confirm = await screen.findByRole('dialog', { name: 'Delete 2 posters?' });
    expect(within(confirm).getByText(/The 2 posters selected will be deleted/)).toBeInTheDocument();
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));

    expect(await screen.findByText('Poster deleted successfully')).toBeInTheDocument();
    expect(body).toEqual({ ids: [7, 9], versions: { 7: 1, 9: 1 } });
    await waitFor(() => expect(screen.queryByRole('img', { name: 'Poster #7' })).toBeNull());
    expect(screen.getByRole('img', { name: 'Poster #8' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Selected rows' })).toBeNull();
  });

  it('creates a poster for all apps: checks the choices, then sends multipart to poster/{categoryId}', async () => {
    withChoices();
    let created = false;
    let sent: string | undefined;
    let url = '';
    withPosters(() =>
      created ? [poster(11), poster(12, { masterApp: { id: 4, name: 'Greetings' } })] : [],
    );
    server.use(
      http.post(api('/poster/:categoryId'), async ({ request }) => {
        url = new URL(request.url).pathname;
        sent = await request.text();
        created = true;
        return HttpResponse.json({
          message: 'Poster uploaded to all apps successfully',
          result: { ids: [11, 12], count: 2 },
        });
      }),
    );
    renderApp('/poster', { signedInAs: 'a@b.c' });
    expect(await screen.findByText('No posters yet')).toBeInTheDocument();
    const dialog = await openCreate();

    await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByText('Choose a category')).toBeInTheDocument();
    expect(within(dialog).getByText('Choose an image')).toBeInTheDocument();
    expect(sent).toBeUndefined();
    // For all apps, no app is asked for.
    expect(within(dialog).getByRole('radio', { name: 'All apps' })).toBeChecked();
    expect(within(dialog).queryByRole('combobox', { name: 'Master app' })).toBeNull();

    await chooseCategory(dialog, 'Festivals');
    await userEvent.click(within(dialog).getByRole('combobox', { name: 'Special day' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Diwali (12 Nov)' }));
    await choosePosterImage(dialog);
    await userEvent.click(within(dialog).getByRole('radio', { name: 'Right' }));
    const top = within(dialog).getByRole('textbox', { name: 'Top number' });
    await userEvent.clear(top);
    await userEvent.type(top, '4');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }));

    expect(await screen.findByText('Poster uploaded to all apps successfully')).toBeInTheDocument();
    expect(url).toBe('/api/v1/poster/3');
    expect(sent).toContain('name="file"; filename="diwali.png"');
    expect(sent).not.toContain('name="thumbFile"');
    expect(sent).not.toContain('name="masterAppId"');
    expect(sent).not.toContain('name="date"');
    expect(part(sent!, 'position')).toBe('RIGHT');
    expect(part(sent!, 'topDefNum')).toBe('4');
    expect(part(sent!, 'selfDefNum')).toBe('1');
    expect(part(sent!, 'bottomDefNum')).toBe('1');
    expect(part(sent!, 'specialDayId')).toBe('5');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await screen.findByRole('img', { name: 'Poster #12' })).toBeInTheDocument();
  });

  it('creates a poster for one app: the app is required and sent to poster/only-cat/{categoryId}', async () => {
    withChoices();
    let sent: string | undefined;
    let url = '';
    withPosters(() => []);
    server.use(
      http.post(api('/poster/only-cat/:categoryId'), async ({ request }) => {
        url = new URL(request.url).pathname;
        sent = await request.text();
        return HttpResponse.json({ message: 'Poster Created Successfully', result: poster(13) });
      }),
    );
    renderApp('/poster', { signedInAs: 'a@b.c' });
    const dialog = await openCreate();
    await userEvent.click(within(dialog).getByRole('radio', { name: 'One app' }));
    await chooseCategory(dialog, 'Quotes');
    await choosePosterImage(dialog);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByText('Choose a master app')).toBeInTheDocument();
    expect(sent).toBeUndefined();

    const appSelect = within(dialog).getByRole('combobox', { name: 'Master app' });
    await waitFor(() => expect(appSelect).toBeEnabled());
    await userEvent.click(appSelect);
    await userEvent.click(await screen.findByRole('option', { name: 'Greetings' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }));

    expect(await screen.findByText('Poster Created Successfully')).toBeInTheDocument();
    expect(url).toBe('/api/v1/poster/only-cat/6');
    expect(part(sent!, 'masterAppId')).toBe('4');
    expect(part(sent!, 'position')).toBe('LEFT');
    expect(sent).not.toContain('name="specialDayId"');
  });

  it('marks the field a 400 names, and keeps the dialog open', async () => {
    withChoices();
    withPosters(() => []);
    server.use(
      http.post(api('/poster/:categoryId'), () =>
        errorJson(400, 'Bad Request', 'Must be at most 999', 'topDefNum'),
      ),
    );
    renderApp('/poster', { signedInAs: 'a@b.c' });
    const dialog = await openCreate();
    await chooseCategory(dialog, 'Festivals');
    await choosePosterImage(dialog);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }));

    expect(await within(dialog).findByText('Must be at most 999')).toBeInTheDocument();
    expect(within(dialog).getByRole('textbox', { name: 'Top number' })).toHaveAttribute(
      'aria-invalid',
      'true',
    );
    expect(screen.getByRole('dialog', { name: 'New poster' })).toBeInTheDocument();
  });

  it('changes a row’s default numbers, and clears its date by sending it empty', async () => {
    withChoices();
    let nums: FormData | undefined;
    let date: URLSearchParams | undefined;
    withPosters(() => [poster(7)]);
    server.use(
      http.patch(api('/poster/def-num-update/7'), async ({ request }) => {
        nums = await request.formData();
        return HttpResponse.json({ message: 'Updated Successfully', result: poster(7) });
      }),
      http.patch(api('/poster/date-update/7'), async ({ request }) => {
        date = new URLSearchParams(await request.text());
        return HttpResponse.json({
          message: 'Date Updated Successfully',
          result: poster(7, { date: null }),
        });
      }),
    );
    renderApp('/poster', { signedInAs: 'a@b.c' });

    await userEvent.click(await screen.findByRole('button', { name: 'Actions for Poster #7' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Change default numbers' }));
    let dialog = await screen.findByRole('dialog', { name: 'Default numbers of poster #7' });
    const bottom = within(dialog).getByRole('textbox', { name: 'Bottom number' });
    expect(bottom).toHaveValue('3');
    await userEvent.clear(bottom);
    await userEvent.type(bottom, '9');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Updated Successfully')).toBeInTheDocument();
    expect(Object.fromEntries(nums!)).toEqual({
      topDefNum: '1',
      selfDefNum: '2',
      bottomDefNum: '9',
    });

    await userEvent.click(screen.getByRole('button', { name: 'Actions for Poster #7' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Change date' }));
    dialog = await screen.findByRole('dialog', { name: 'Date of poster #7' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Clear the date' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Date Updated Successfully')).toBeInTheDocument();
    expect(date?.get('date')).toBe('');
  });

  it('creates a poster with a schedule entered in its app’s time zone, sent as instants', async () => {
    withChoices();
    server.use(
      http.get(api('/master-app/options'), () =>
        HttpResponse.json({
          result: [
            { id: 2, name: 'Festival', timeZone: 'UTC' },
            { id: 4, name: 'Greetings', timeZone: 'Asia/Kolkata' },
          ],
        }),
      ),
    );
    let sent: string | undefined;
    withPosters(() => []);
    server.use(
      http.post(api('/poster/only-cat/:categoryId'), async ({ request }) => {
        sent = await request.text();
        return HttpResponse.json({ message: 'Poster Created Successfully', result: poster(13) });
      }),
    );
    renderApp('/poster', { signedInAs: 'a@b.c' });
    const dialog = await openCreate();
    await userEvent.click(within(dialog).getByRole('radio', { name: 'One app' }));
    const appSelect = within(dialog).getByRole('combobox', { name: 'Master app' });
    await waitFor(() => expect(appSelect).toBeEnabled());
    await userEvent.click(appSelect);
    await userEvent.click(await screen.findByRole('option', { name: 'Greetings' }));
    // The zone is said beside the fields.
    expect(await within(dialog).findByText(/Times in Asia\/Kolkata/)).toBeInTheDocument();
    await chooseCategory(dialog, 'Quotes');
    await choosePosterImage(dialog);
    const from = within(dialog).getByLabelText('Live from');
    const until = within(dialog).getByLabelText('Live until');
    // Until before from: refused before sending, on "Live until".
    fireEvent.change(from, { target: { value: '2026-11-05T00:00' } });
    fireEvent.change(until, { target: { value: '2026-11-04T00:00' } });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByText('Must be after “Live from”')).toBeInTheDocument();
    expect(sent).toBeUndefined();
    fireEvent.change(until, { target: { value: '2026-11-06T00:00' } });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }));

    expect(await screen.findByText('Poster Created Successfully')).toBeInTheDocument();
    // Local midnight in Kolkata (+05:30) is 18:30 UTC the day before.
    expect(part(sent!, 'liveFrom')).toBe('2026-11-04T18:30:00.000Z');
    expect(part(sent!, 'liveUntil')).toBe('2026-11-05T18:30:00.000Z');
    // A long form, filled step by step: more than the default 15 s on a busy machine.
  }, 45_000);

  it('shows each row’s place in its schedule, and filters by it', async () => {
    withChoices();
    const seen: string[] = [];
    const hour = 3_600_000;
    const at = (ms: number) => new Date(Date.now() + ms).toISOString();
    server.use(
      http.get(api('/poster/list'), ({ request }) => {
        seen.push(new URL(request.url).search);
        const result = [
          poster(1, { liveFrom: at(-hour), liveUntil: at(hour) }),
          poster(2, { liveFrom: at(24 * hour) }),
          poster(3, { liveUntil: at(-hour) }),
          poster(4, { status: 'DEACTIVE' }),
        ];
        return HttpResponse.json({ result, total: result.length, nextCursor: null });
      }),
    );
    const { router } = renderApp('/poster', { signedInAs: 'a@b.c' });
    const row = async (id: number) =>
      (await screen.findByRole('img', { name: `Poster #${id}` })).closest('tr')!;
    expect(within(await row(1)).getByText('Live')).toBeInTheDocument();
    expect(within(await row(2)).getByText('Scheduled')).toBeInTheDocument();
    expect(within(await row(3)).getByText('Expired')).toBeInTheDocument();
    // No window: the status alone says it.
    expect(within(await row(4)).queryByText('Not live')).toBeNull();
    expect(within(await row(4)).getByText('Deactivated')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('combobox', { name: 'Schedule' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Scheduled' }));
    await waitFor(() => expect(seen.at(-1)).toBe('?limit=20&offset=0&live=scheduled'));
    expect(router.state.location.search).toContain('live=scheduled');
  });
});
