/**
 * Videos: record a real one-second WebM in the browser (canvas + MediaRecorder: no ffmpeg needed),
 * upload it for one app through the New video drawer, see its row and small player, open its
 * player in the modal, and check that its embed page plays a video with a duration.
 */
import type { Locator, Page } from '@playwright/test';
import {
  adminApi,
  createMasterApp,
  expect,
  expectNoA11yViolations,
  expectToast,
  listRange,
  mediaBase,
  openSignedIn,
  test,
  unique,
} from './fixtures.ts';
import { MEDIA_KIND } from './settings.ts';

/** Picks `option` in a searchable select, typing it first (the list may be longer than a page). */
async function choose(page: Page, scope: Page | Locator, label: string, option: string) {
  const select = scope.getByRole('combobox', { name: label });
  await expect(select).toBeEnabled();
  await select.fill(option);
  await page.getByRole('option', { name: option, exact: true }).click();
}

/**
 * A real WebM of about a second, recorded by the page itself: a canvas animated for a second,
 * captured as a stream and encoded by MediaRecorder. Answers its bytes.
 */
async function recordWebm(page: Page): Promise<Buffer> {
  // Plain JavaScript run in the page (the e2e project has no DOM types).
  const bytes = await page.evaluate<number[]>(`(async () => {
    const canvas = document.createElement('canvas');
    canvas.width = 320;
    canvas.height = 180;
    const ctx = canvas.getContext('2d');
    const stream = canvas.captureStream(25);
    const type = MediaRecorder.isTypeSupported('video/webm;codecs=vp8')
      ? 'video/webm;codecs=vp8'
      : 'video/webm';
    const recorder = new MediaRecorder(stream, { mimeType: type });
    const chunks = [];
    recorder.ondataavailable = (e) => {
      if (e.data.size > 0) chunks.push(e.data);
    };
    const stopped = new Promise((resolve) => (recorder.onstop = resolve));
    recorder.start(100);
    const start = performance.now();
    // At least a second and 25 drawn frames: on busy cores a second of animation frames can be
    // only a few, and the recording then holds little more than its header.
    let frames = 0;
    await new Promise((resolve) => {
      const draw = () => {
        const t = performance.now() - start;
        ctx.fillStyle = 'hsl(' + ((frames * 14) % 360) + ' 70% 50%)';
        ctx.fillRect(0, 0, canvas.width, canvas.height);
        ctx.fillStyle = '#fff';
        ctx.fillRect(((frames % 25) / 25) * (canvas.width - 40), 70, 40, 40);
        frames += 1;
        if (t < 1000 || frames < 25) requestAnimationFrame(draw);
        else resolve();
      };
      draw();
    });
    recorder.stop();
    await stopped;
    stream.getTracks().forEach((track) => track.stop());
    return Array.from(new Uint8Array(await new Blob(chunks).arrayBuffer()));
  })()`);
  return Buffer.from(bytes);
}

/** The duration a page's (first) <video> reports once its metadata is in. */
function duration(video: Locator): Promise<number> {
  return video.evaluate(
    (el) =>
      new Promise<number>((resolve) => {
        // The e2e project has no DOM types: the <video> read by the fields used.
        const v = el as unknown as {
          readyState: number;
          duration: number;
          addEventListener: (type: string, listener: () => void) => void;
        };
        if (v.readyState >= 1) resolve(v.duration);
        else v.addEventListener('loadedmetadata', () => resolve(v.duration));
      }),
  );
}

test('upload a recorded video for one app, see its row and player, play its embed page', async ({
  page,
  request,
}) => {
  const api = await adminApi(request);
  const app = await createMasterApp(request, unique('Video App'));
  await openSignedIn(page, '/video', { heading: 'Videos' });
  const webm = await recordWebm(page);
  // EBML: a real WebM file, not an empty recording.
  expect(webm.subarray(0, 4).toString('hex')).toBe('1a45dfa3');
  expect(webm.length).toBeGreaterThan(1000);

  await page.getByRole('button', { name: 'New video' }).click();
  const dialog = page.getByRole('dialog', { name: 'New video' });
  await choose(page, dialog, 'Master app', app.name);
  await dialog
    .locator('input[type=file]')
    .setInputFiles({ name: 'clip.webm', mimeType: 'video/webm', buffer: webm });
  await expect(dialog.getByText('clip.webm')).toBeVisible();
  await dialog.getByRole('radio', { name: 'Right' }).check();
  await dialog.getByRole('textbox', { name: 'Top number' }).fill('5');
  await expectNoA11yViolations(page, '[role="dialog"]');
  await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
  await expectToast(page, 'Video Created Successfully');
  await expect(dialog).toBeHidden();

  const [row] = await api<{ id: number; video_id: string; library_id: string }[]>(
    'get',
    `/video/list?masterAppId=${app.id}`,
  );
  expect(row).toBeDefined();
  expect(row!.library_id).toBe(MEDIA_KIND);

  // The row, filtered to its app: its numbers, side and small player.
  await choose(page, page, 'Master app', app.name);
  await expect(page).toHaveURL(new RegExp(`[?&]masterAppId=${app.id}(&|$)`));
  await expect(listRange(page)).toHaveText('1–1 of 1');
  const tableRow = page
    .getByRole('table', { name: 'Videos' })
    .getByRole('row')
    .filter({ hasText: app.name });
  await expect(tableRow).toContainText('5 / 1 / 1');
  await expect(tableRow).toContainText('Self photo right');
  const small = tableRow.locator('video');
  await expect(small).toHaveAttribute('src', new RegExp(`^${mediaBase()}/videos/`));
  expect(await duration(small)).toBeGreaterThan(0);
  await expectNoA11yViolations(page);

  // The play button frames the player page.
  await tableRow.getByRole('button', { name: `Play video #${row!.id}` }).click();
  const player = page.getByRole('dialog', { name: `Video #${row!.id} of ${app.name}` });
  const frame = player.locator('iframe');
  await expect(frame).toHaveAttribute('src', `/embed/video/${row!.video_id}`);
  // The player fills the wide dialog at 16:9 (it opened at an iframe's default 300x150 when the
  // AspectRatio's stylesheet was missing).
  const box = (await frame.boundingBox())!;
  const dialogBox = (await player.boundingBox())!;
  expect(box.width).toBeGreaterThan(dialogBox.width * 0.85);
  expect(Math.abs(box.height - (box.width * 9) / 16)).toBeLessThan(2);
  expect(
    await duration(
      page.frameLocator(`iframe[title="Player of video #${row!.id}"]`).locator('video'),
    ),
  ).toBeGreaterThan(0);
  await page.keyboard.press('Escape');
  await expect(player).toBeHidden();

  // The embed page on its own plays the file.
  await page.goto(`/embed/video/${row!.video_id}`);
  const video = page.locator('video');
  await expect(video).toHaveCount(1);
  expect(await duration(video)).toBeGreaterThan(0);
});
