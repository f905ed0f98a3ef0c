import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { formatBytes } from '../src/lib/format';
import { renderApp } from './render';
import { HttpResponse, errorJson, http, api, server, staffGrants } from './server';

const hash = (id: number) => `${'d'.repeat(62)}${String(id).padStart(2, '0')}`;

const video = (id: number, overrides: Record<string, unknown> = {}) => ({
  id,
  version: 1,
  masterAppId: 2,
  video_id: hash(id),
  library_id: 'local',
  iframeLink: `/embed/video/${hash(id)}`,
  videoUrl: `/media/videos/dd/${hash(id)}.mp4`,
  position: 'LEFT',
  date: '2026-11-12',
  downloadCount: 1234,
  topDefNum: 1,
  selfDefNum: 2,
  bottomDefNum: 3,
  status: 'ACTIVE',
  liveFrom: null,
  liveUntil: null,
  createdAt: '2026-11-20T10:00:00.000Z',
  updatedAt: '2026-11-20T10:00:00.000Z',
  masterApp: { id: 2, name: 'Festival' },
  ...overrides,
});

/** A multipart field's value in a body read as text. */
const part = (body: string, name: string) =>
  new RegExp(`name="${name}"\\r\\n\\r\\n([\\s\\S]*?)\\r\\n--`).exec(body)?.[1];

function withApps() {
  server.use(
    http.get(api('/master-app/options'), () =>
      HttpResponse.json({
        result: [
          { id: 2, name: 'Festival', timeZone: 'UTC' },
          { id: 4, name: 'Greetings', timeZone: 'UTC' },
        ],
      }),
    ),
  );
}

function withVideos(rows: () => unknown[]) {
  server.use(
    http.get(api('/video/list'), () => {
      const result = rows();
      return HttpResponse.json({ result, total: result.length, nextCursor: null });
    }),
  );
}

async function openCreate() {
  await userEvent.click(await screen.findByRole('button', { name: 'New video' }));
  return screen.findByRole('dialog', { name: 'New video' });
}

async function chooseApp(dialog: HTMLElement, name: string) {
  const select = within(dialog).getByRole('combobox', { name: 'Master app' });
  await waitFor(() => expect(select).toBeEnabled());
  await userEvent.click(select);
  await userEvent.click(await screen.findByRole('option', { name }));
}

async function chooseVideo(dialog: HTMLElement) {
  const file = new File([new Uint8Array(3000)], 'diwali.mp4', { type: 'video/mp4' });
  await userEvent.upload(dialog.querySelector('input[type=file]') as HTMLInputElement, file);
  expect(await within(dialog).findByText('diwali.mp4')).toBeInTheDocument();
  expect(within(dialog).getByText('2.9 KB')).toBeInTheDocument();
}

describe('videos', () => {
  it('lists videos with their players, and keeps the filters in the URL', async () => {
    withApps();
    const seen: string[] = [];
    server.use(
      http.get(api('/video/list'), ({ request }) => {
        seen.push(new URL(request.url).search);
        return HttpResponse.json({
          result: [video(7), video(8, { date: null, position: 'RIGHT' })],
          total: 2,
          nextCursor: null,
        });
      }),
    );
    const { router } = renderApp('/video?status=ACTIVE', { signedInAs: 'a@b.c' });
    const table = await screen.findByRole('table', { name: 'Videos' });
    const player = await within(table).findByLabelText('Video #7');
    expect(player.tagName).toBe('VIDEO');
    expect(player).toHaveAttribute('src', video(7).videoUrl);
    expect(player).toHaveAttribute('preload', 'metadata');
    expect((player as HTMLVideoElement).muted).toBe(true);
    const row = within(table).getAllByRole('row')[1]!;
    expect(within(row).getByText('Festival')).toBeInTheDocument();
    expect(within(row).getByText('1 / 2 / 3')).toBeInTheDocument();
    expect(within(row).getByText('Self photo left')).toBeInTheDocument();
    expect(within(row).getByText('12 Nov 2026')).toBeInTheDocument();
    expect(within(row).getByText('1,234')).toBeInTheDocument();
    expect(within(row).getByText('20 Nov 2026')).toHaveAttribute(
      'title',
      expect.stringMatching(/^20 Nov 2026, \d\d:\d\d$/),
    );
    expect(
      within(within(table).getAllByRole('row')[2]!).getByText('Self photo right'),
    ).toBeInTheDocument();
    expect(seen[0]).toBe('?limit=20&offset=0&status=ACTIVE');

    // The play button opens the player page in a frame.
    await userEvent.click(within(row).getByRole('button', { name: 'Play video #7' }));
    const modal = await screen.findByRole('dialog', { name: 'Video #7 of Festival' });
    expect(within(modal).getByTitle('Player of video #7')).toHaveAttribute(
      'src',
      `/embed/video/${hash(7)}`,
    );
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    await userEvent.click(screen.getByRole('combobox', { name: 'Master app' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Greetings' }));
    await waitFor(() => expect(router.state.location.search).toBe('?status=ACTIVE&masterAppId=4'));
    await waitFor(() => expect(seen.at(-1)).toBe('?limit=20&offset=0&status=ACTIVE&masterAppId=4'));

    await userEvent.type(screen.getByRole('textbox', { name: 'Search videos' }), 'Fest');
    await waitFor(() => expect(router.state.location.search).toContain('q=Fest'));
    await waitFor(() => expect(seen.at(-1)).toContain('keyword=Fest'));

    // Sorting by downloads goes to the URL and the server.
    await userEvent.click(screen.getByRole('button', { name: 'Downloads' }));
    await waitFor(() => expect(router.state.location.search).toContain('sort=downloadCount'));
    await waitFor(() => expect(seen.at(-1)).toContain('sort=downloadCount'));
  });

  it('changes the status of the selected videos at once', async () => {
    withApps();
    let status = 'ACTIVE';
    let body: unknown;
    withVideos(() => [video(7, { status }), video(8, { status }), video(9)]);
    server.use(
      http.put(api('/video/bulk-status'), async ({ request }) => {
        body = await request.json();
        status = 'DEACTIVE';
        return HttpResponse.json({
          message: 'Status Updated Successfully',
          result: { ids: [7, 8], count: 2 },
        });
      }),
    );
    renderApp('/video', { signedInAs: 'a@b.c' });
    await userEvent.click(await screen.findByRole('checkbox', { name: 'Select Video #7' }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select Video #8' }));
    const bar = screen.getByRole('region', { name: 'Selected rows' });
    expect(within(bar).getByText('2 selected')).toBeInTheDocument();

    await userEvent.click(within(bar).getByRole('button', { name: 'Change status' }));
    const dialog = await screen.findByRole('dialog', { name: 'Status of 2 videos' });
    await userEvent.click(within(dialog).getByRole('combobox', { name: 'Status' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Deactivated' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Status Updated Successfully')).toBeInTheDocument();
    expect(body).toEqual({ ids: [7, 8], status: 'DEACTIVE', versions: { 7: 1, 8: 1 } });
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Selected rows' })).toBeNull());
    expect(
      await screen.findByRole('button', { name: 'Status of video #7: Deactivated. Change' }),
    ).toBeInTheDocument();
  });

  it('deletes the selected videos after confirming how many', async () => {
    withApps();
    let deleted: number[] = [];
    let body: unknown;
    withVideos(() => [video(7), video(8), video(9)].filter((v) => !deleted.includes(v.id)));
    server.use(
      http.delete(api('/video/remove-all-app'), async ({ request }) => {
        body = await request.json();
        deleted = (body as { ids: number[] }).ids;
        return HttpResponse.json({
          message: 'Video deleted successfully',
          result: { ids: deleted, count: deleted.length },
        });
      }),
    );
    renderApp('/video', { signedInAs: 'a@b.c' });
    await userEvent.click(await screen.findByRole('checkbox', { name: 'Select Video #7' }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select Video #9' }));
    const bar = screen.getByRole('region', { name: 'Selected rows' });

    await userEvent.click(within(bar).getByRole('button', { name: 'Delete' }));
    let confirm = await screen.findByRole('dialog', { name: 'Delete 2 videos?' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(body).toBeUndefined();

    await userEvent.click(within(bar).getByRole('button', { name: 'Delete' }));
    confirm = await screen.findByRole('dialog', { name: 'Delete 2 videos?' });
    expect(within(confirm).getByText(/The 2 videos selected will be deleted/)).toBeInTheDocument();
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));

    expect(await screen.findByText('Video deleted successfully')).toBeInTheDocument();
    expect(body).toEqual({ ids: [7, 9], versions: { 7: 1, 9: 1 } });
    await waitFor(() => expect(screen.queryByLabelText('Video #7')).toBeNull());
    expect(screen.getByLabelText('Video #8')).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Selected rows' })).toBeNull();
  });

  it('uploads a video as multipart to /video with its app and fields, and toasts the answer', async () => {
    withApps();
    let created = false;
    let sent: string | undefined;
    withVideos(() => (created ? [video(11, { masterApp: { id: 4, name: 'Greetings' } })] : []));
    server.use(
      http.post(api('/video'), async ({ request }) => {
        sent = await request.text();
        created = true;
        return HttpResponse.json({
          message: 'Video Created Successfully',
          videoId: 11,
          result: video(11),
        });
      }),
    );
    renderApp('/video', { signedInAs: 'a@b.c' });
    expect(await screen.findByText('No videos yet')).toBeInTheDocument();
    const dialog = await openCreate();

    await userEvent.click(within(dialog).getByRole('button', { name: 'Upload' }));
    expect(await within(dialog).findByText('Choose a master app')).toBeInTheDocument();
    expect(within(dialog).getByText('Choose a video')).toBeInTheDocument();
    expect(sent).toBeUndefined();

    await chooseApp(dialog, 'Greetings');
    await chooseVideo(dialog);
    await userEvent.click(within(dialog).getByRole('radio', { name: 'Right' }));
    const top = within(dialog).getByRole('textbox', { name: 'Top number' });
    await userEvent.clear(top);
    await userEvent.type(top, '4');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Upload' }));

    expect(await screen.findByText('Video Created Successfully')).toBeInTheDocument();
    expect(sent).toContain('name="file"; filename="diwali.mp4"');
    expect(part(sent!, 'masterAppId')).toBe('4');
    expect(part(sent!, 'position')).toBe('RIGHT');
    expect(part(sent!, 'topDefNum')).toBe('4');
    expect(part(sent!, 'selfDefNum')).toBe('1');
    expect(part(sent!, 'bottomDefNum')).toBe('1');
    expect(sent).not.toContain('name="date"');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await screen.findByLabelText('Video #11')).toBeInTheDocument();
  });

  it('refuses a file that is not a video', async () => {
    withApps();
    withVideos(() => []);
    renderApp('/video', { signedInAs: 'a@b.c' });
    const dialog = await openCreate();
    const input = dialog.querySelector('input[type=file]') as HTMLInputElement;
    expect(input.accept).toBe('video/mp4,video/webm,video/quicktime');
    const png = new File([new Uint8Array([0x89, 0x50])], 'a.png', { type: 'image/png' });
    await userEvent.upload(input, png, { applyAccept: false });
    expect(
      await within(dialog).findByText('Only MP4, WebM or QuickTime (MOV) videos are accepted'),
    ).toBeInTheDocument();
  });

  it('marks the field a 400 names, and keeps the dialog open', async () => {
    withApps();
    withVideos(() => []);
    server.use(
      http.post(api('/video'), () =>
        errorJson(400, 'Bad Request', 'Must be at most 999', 'topDefNum'),
      ),
    );
    renderApp('/video?masterAppId=2', { signedInAs: 'a@b.c' });
    const dialog = await openCreate();
    // The app the list is filtered by is chosen already.
    await waitFor(() =>
      expect(within(dialog).getByRole('combobox', { name: 'Master app' })).toHaveValue('Festival'),
    );
    await chooseVideo(dialog);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Upload' }));

    expect(await within(dialog).findByText('Must be at most 999')).toBeInTheDocument();
    expect(within(dialog).getByRole('textbox', { name: 'Top number' })).toHaveAttribute(
      'aria-invalid',
      'true',
    );
    expect(screen.getByRole('dialog', { name: 'New video' })).toBeInTheDocument();
  });

  it('changes a row’s default numbers, side, and clears its date by sending it empty', async () => {
    withApps();
    let nums: FormData | undefined;
    let date: URLSearchParams | undefined;
    let side: URLSearchParams | undefined;
    let removed = false;
    withVideos(() => (removed ? [] : [video(7)]));
    server.use(
      http.patch(api('/video/def-num-update/7'), async ({ request }) => {
        nums = await request.formData();
        return HttpResponse.json({ message: 'Updated Successfully', result: video(7) });
      }),
      http.patch(api('/video/date-update/7'), async ({ request }) => {
        date = new URLSearchParams(await request.text());
        return HttpResponse.json({
          message: 'Date Updated Successfully',
          result: video(7, { date: null }),
        });
      }),
      http.put(api('/video/position/7'), async ({ request }) => {
        side = new URLSearchParams(await request.text());
        return HttpResponse.json({
          message: 'Position Updated Successfully',
          result: video(7, { position: 'RIGHT' }),
        });
      }),
      http.delete(api('/video/remove/7'), () => {
        removed = true;
        return HttpResponse.json({ message: 'Video deleted successfully', result: { id: 7 } });
      }),
    );
    renderApp('/video', { signedInAs: 'a@b.c' });

    await userEvent.click(await screen.findByRole('button', { name: 'Actions for Video #7' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Change default numbers' }));
    let dialog = await screen.findByRole('dialog', { name: 'Default numbers of video #7' });
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

    await userEvent.click(screen.getByRole('button', { name: 'Actions for Video #7' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Change date' }));
    dialog = await screen.findByRole('dialog', { name: 'Date of video #7' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Clear the date' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Date Updated Successfully')).toBeInTheDocument();
    expect(date?.get('date')).toBe('');

    await userEvent.click(screen.getByRole('button', { name: 'Actions for Video #7' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Change position' }));
    dialog = await screen.findByRole('dialog', { name: 'Position of video #7' });
    await userEvent.click(within(dialog).getByRole('radio', { name: 'Right' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Position Updated Successfully')).toBeInTheDocument();
    expect(side?.get('position')).toBe('RIGHT');

    await userEvent.click(screen.getByRole('button', { name: 'Actions for Video #7' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Delete' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete this video?' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Video deleted successfully')).toBeInTheDocument();
    expect(removed).toBe(true);
  });

  it('hides what a staff account may not do', async () => {
    withApps();
    withVideos(() => [video(7)]);
    server.use(staffGrants({ video: ['VIEW'] }));
    renderApp('/video', { signedInAs: 'a@b.c' });
    expect(await screen.findByLabelText('Video #7')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'New video' })).toBeNull();
    expect(screen.queryByRole('checkbox', { name: 'Select Video #7' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Actions for Video #7' }));
    expect(await screen.findByRole('menuitem', { name: 'Open player' })).toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: 'Delete' })).toBeNull();
  });

  it('reads upload sizes as people do', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(3000)).toBe('2.9 KB');
    expect(formatBytes(120.5 * 1024 * 1024)).toBe('120.5 MB');
    expect(formatBytes(480 * 1024 * 1024)).toBe('480.0 MB');
    expect(formatBytes(1.5 * 1024 ** 3)).toBe('1.5 GB');
  });
});
