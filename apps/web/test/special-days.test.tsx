import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderApp } from './render';
import { HttpResponse, http, api, server } from './server';

const day = (id: number, overrides: Record<string, unknown> = {}) => ({
  id,
  version: 1,
  name: `Day ${id}`,
  month: 1,
  day: 14,
  year: null,
  status: 'ACTIVE',
  createdAt: '2026-11-20T10:00:00.000Z',
  updatedAt: '2026-11-20T10:00:00.000Z',
  ...overrides,
});

async function chooseMonth(dialog: HTMLElement, month: string) {
  await userEvent.click(within(dialog).getByRole('combobox', { name: 'Month' }));
  await userEvent.click(await screen.findByRole('option', { name: month }));
}

describe('special days', () => {
  it('lists days in the server’s order as "14 Jan" (+ year), with filters in the URL', async () => {
    const seen: string[] = [];
    server.use(
      http.get(api('/special-day/list'), ({ request }) => {
        seen.push(new URL(request.url).search);
        return HttpResponse.json({
          result: [
            day(1, { name: 'Makar Sankranti' }),
            day(2, { name: 'Leap day', month: 2, day: 29, year: 2028, status: 'DEACTIVE' }),
            day(3, { name: 'Christmas', month: 12, day: 25, year: 2027 }),
          ],
          total: 3,
          nextCursor: null,
        });
      }),
    );
    const { router } = renderApp('/special-day?status=ACTIVE', { signedInAs: 'a@b.c' });
    const table = await screen.findByRole('table', { name: 'Special days' });
    await within(table).findByText('Makar Sankranti');
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).getAllByRole('cell')[0]!.textContent)).toEqual([
      'Makar Sankranti',
      'Leap day',
      'Christmas',
    ]);
    expect(within(rows[0]!).getByText('14 Jan')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('29 Feb 2028')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('Deactivated')).toBeInTheDocument();
    expect(within(rows[2]!).getByText('25 Dec 2027')).toBeInTheDocument();
    expect(seen[0]).toBe('?limit=20&offset=0&status=ACTIVE');

    await userEvent.type(screen.getByRole('textbox', { name: 'Search special days' }), 'diwali');
    await waitFor(() => expect(router.state.location.search).toBe('?status=ACTIVE&q=diwali'));
    await waitFor(() =>
      expect(seen.at(-1)).toBe('?limit=20&offset=0&keyword=diwali&status=ACTIVE'),
    );
  });

  it('creates a special day: 30 February is refused before sending, 29 February is sent', async () => {
    let created = false;
    const bodies: string[] = [];
    server.use(
      http.get(api('/special-day/list'), () =>
        HttpResponse.json({
          result: created ? [day(5, { name: 'Leap day', month: 2, day: 29 })] : [],
          total: created ? 1 : 0,
          nextCursor: null,
        }),
      ),
      http.post(api('/special-day'), async ({ request }) => {
        bodies.push(await request.text());
        created = true;
        return HttpResponse.json({
          message: 'Special Day Created Successfully',
          result: day(5, { name: 'Leap day', month: 2, day: 29 }),
        });
      }),
    );
    renderApp('/special-day', { signedInAs: 'a@b.c' });
    expect(await screen.findByText('No special days yet')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'New special day' }));
    const dialog = await screen.findByRole('dialog', { name: 'New special day' });

    await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByText('Required')).toBeInTheDocument();
    expect(within(dialog).getByText('Choose a month')).toBeInTheDocument();
    expect(within(dialog).getByText('Enter a day')).toBeInTheDocument();

    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Leap day');
    await chooseMonth(dialog, 'February');
    const dayInput = within(dialog).getByRole('textbox', { name: 'Day' });
    await userEvent.type(dayInput, '30');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByText('February has days 1 to 29')).toBeInTheDocument();
    expect(bodies).toEqual([]);

    await userEvent.clear(dayInput);
    await userEvent.type(dayInput, '29');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('Special Day Created Successfully')).toBeInTheDocument();
    expect(bodies).toEqual(['name=Leap+day&month=2&day=29']);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await screen.findByText('29 Feb')).toBeInTheDocument();
  });

  it('edits a special day, refusing 31 April before sending', async () => {
    const bodies: string[] = [];
    server.use(
      http.get(api('/special-day/list'), () =>
        HttpResponse.json({
          result: [day(7, { name: 'Holi', month: 3, day: 31 })],
          total: 1,
          nextCursor: null,
        }),
      ),
      http.patch(api('/special-day/7'), async ({ request }) => {
        bodies.push(await request.text());
        return HttpResponse.json({
          message: 'Special Day Updated Successfully',
          result: day(7, { name: 'Holi', month: 3, day: 14 }),
        });
      }),
    );
    renderApp('/special-day', { signedInAs: 'a@b.c' });
    await userEvent.click(await screen.findByRole('button', { name: 'Actions for Holi' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Holi' });
    expect(within(dialog).getByRole('textbox', { name: 'Name' })).toHaveValue('Holi');
    expect(within(dialog).getByRole('combobox', { name: 'Month' })).toHaveValue('March');
    const dayInput = within(dialog).getByRole('textbox', { name: 'Day' });
    expect(dayInput).toHaveValue('31');

    await chooseMonth(dialog, 'April');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('April has days 1 to 30')).toBeInTheDocument();
    expect(bodies).toEqual([]);

    await chooseMonth(dialog, 'March');
    // The day is checked again against the new month.
    await waitFor(() =>
      expect(within(dialog).queryByText('April has days 1 to 30')).not.toBeInTheDocument(),
    );
    await userEvent.clear(dayInput);
    await userEvent.type(dayInput, '14');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Special Day Updated Successfully')).toBeInTheDocument();
    expect(bodies).toEqual(['name=Holi&month=3&day=14']);
  });

  it('changes the status', async () => {
    let body: string | undefined;
    server.use(
      http.get(api('/special-day/list'), () =>
        HttpResponse.json({ result: [day(8)], total: 1, nextCursor: null }),
      ),
      http.put(api('/special-day/status/8'), async ({ request }) => {
        body = await request.text();
        return HttpResponse.json({
          message: 'Status Updated Successfully',
          result: day(8, { status: 'DEACTIVE' }),
        });
      }),
    );
    renderApp('/special-day', { signedInAs: 'a@b.c' });
    await userEvent.click(await screen.findByRole('button', { name: 'Actions for Day 8' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Change status' }));
    const dialog = await screen.findByRole('dialog', { name: 'Status of Day 8' });
    await userEvent.click(within(dialog).getByRole('combobox', { name: 'Status' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Deactivated' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Status Updated Successfully')).toBeInTheDocument();
    expect(body).toBe('status=DEACTIVE');
  });

  it('asks before deleting; a day posters are made for gets the server’s 409; another goes with Undo', async () => {
    const deleted: string[] = [];
    server.use(
      http.get(api('/special-day/list'), () =>
        HttpResponse.json({ result: [day(8), day(9)], total: 2, nextCursor: null }),
      ),
      http.delete(api('/special-day/remove/:id'), ({ params }) => {
        deleted.push(String(params.id));
        return params.id === '8'
          ? HttpResponse.json(
              {
                statusCode: 409,
                error: 'Conflict',
                message: 'This special day still has posters: move or delete them first',
              },
              { status: 409 },
            )
          : HttpResponse.json({ message: 'Special Day deleted successfully', result: { id: 9 } });
      }),
    );
    renderApp('/special-day', { signedInAs: 'a@b.c' });
    const remove = async (name: string) => {
      await userEvent.click(await screen.findByRole('button', { name: `Actions for ${name}` }));
      await userEvent.click(await screen.findByRole('menuitem', { name: 'Delete' }));
      return screen.findByRole('dialog', { name: 'Delete this special day?' });
    };
    await userEvent.click(within(await remove('Day 8')).getByRole('button', { name: 'Cancel' }));
    expect(deleted).toEqual([]);

    await userEvent.click(within(await remove('Day 8')).getByRole('button', { name: 'Delete' }));
    expect(
      await screen.findByText('This special day still has posters: move or delete them first'),
    ).toBeInTheDocument();

    await userEvent.click(within(await remove('Day 9')).getByRole('button', { name: 'Delete' }));
    const toast = (await screen.findByText('Special Day deleted successfully')).closest(
      '[role="alert"]',
    ) as HTMLElement;
    expect(within(toast).getByRole('button', { name: 'Undo' })).toBeInTheDocument();
    expect(deleted).toEqual(['8', '9']);
  });

  it('sets the year of every day: 2000..2100, then PUT special-day/year/{year}', async () => {
    let year = null as number | null;
    const calls: string[] = [];
    server.use(
      http.get(api('/special-day/list'), () =>
        HttpResponse.json({
          result: [day(1, { name: 'Pongal', year })],
          total: 1,
          nextCursor: null,
        }),
      ),
      http.put(api('/special-day/year/:year'), ({ params }) => {
        calls.push(String(params.year));
        year = Number(params.year);
        return HttpResponse.json({
          message: 'Years Updated Successfully',
          result: { ids: [1], count: 1 },
        });
      }),
    );
    renderApp('/special-day', { signedInAs: 'a@b.c' });
    expect(await screen.findByText('14 Jan')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Set year' }));
    const dialog = await screen.findByRole('dialog', { name: 'Set the year of every special day' });
    const input = within(dialog).getByRole('textbox', { name: 'Year' });
    expect(input).toHaveValue(String(new Date().getFullYear()));

    await userEvent.clear(input);
    await userEvent.type(input, '1999');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Set year' }));
    expect(await within(dialog).findByText('Must be at least 2000')).toBeInTheDocument();
    expect(calls).toEqual([]);

    await userEvent.clear(input);
    await userEvent.type(input, '2027');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Set year' }));
    expect(await screen.findByText('Years Updated Successfully')).toBeInTheDocument();
    expect(calls).toEqual(['2027']);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await screen.findByText('14 Jan 2027')).toBeInTheDocument();
  });
});
