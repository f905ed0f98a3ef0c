/**
 * The batch upload bench (issue #35): what the posters screen's batch does to the server, sent the
 * way the web app sends it: `--batch` image files (default 200), each its own
 * `POST poster/only-cat/{categoryId}` with its own Idempotency-Key, BATCH_CONCURRENCY at a time,
 * while the server's resident memory is sampled from /proc every 20 ms. Target: RSS grows by at
 * most UPLOAD_TARGETS.rssGrowthMb (as a single upload). Reported beside it: the posters a second
 * and the server's CPU seconds a poster (each image is checked, decoded and thumbnailed).
 */
import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { API_BASE, BATCH_CONCURRENCY } from '@master-admin/contract';
import { UPLOAD_TARGETS, cpuSeconds, rssMb } from './upload.ts';

export type BatchResult = {
  files: number;
  mb: number;
  seconds: number;
  created: number;
  refused: number;
  rssBeforeMb: number;
  rssPeakMb: number;
  rssGrowthMb: number;
  serverCpuPerPoster: number;
};

/** Distinct 1080×1350 JPEG posters (noise, so no two compress alike), as a phone's camera roll. */
async function posters(count: number): Promise<Buffer[]> {
  const made: Buffer[] = [];
  for (let i = 0; i < count; i++) {
    made.push(
      await sharp({
        create: {
          width: 1080,
          height: 1350,
          channels: 3,
          background: { r: (i * 37) % 256, g: (i * 91) % 256, b: (i * 53) % 256 },
          noise: { type: 'gaussian', mean: 128, sigma: 24 },
        },
      })
        .jpeg({ quality: 80 })
        .toBuffer(),
    );
  }
  return made;
}

export async function benchPosterBatch(options: {
  serverUrl: string;
  token: string;
  serverPid: number;
  files: number;
  masterAppId: number;
}): Promise<BatchResult> {
  const { serverUrl, token, serverPid, files, masterAppId } = options;
  const auth = { authorization: `Bearer ${token}` };
  const category = await fetch(`${serverUrl}${API_BASE}/category`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ name: `Bench Batch ${randomBytes(4).toString('hex')}` }),
  });
  if (!category.ok) throw new Error(`the category answered ${category.status}`);
  const categoryId = ((await category.json()) as { result: { id: number } }).result.id;
  const images = await posters(files);

  const send = async (image: Buffer, i: number) => {
    const form = new FormData();
    form.set('masterAppId', String(masterAppId));
    form.set('position', 'LEFT');
    form.set('topDefNum', '1');
    form.set('selfDefNum', '1');
    form.set('bottomDefNum', '1');
    form.set('file', new Blob([image], { type: 'image/jpeg' }), `poster-${i + 1}.jpg`);
    const answer = await fetch(`${serverUrl}${API_BASE}/poster/only-cat/${categoryId}`, {
      method: 'POST',
      headers: { ...auth, 'idempotency-key': randomBytes(16).toString('hex') },
      body: form,
    });
    await answer.arrayBuffer();
    return answer.status;
  };

  global.gc?.();
  const rssBeforeMb = rssMb(serverPid);
  let rssPeakMb = rssBeforeMb;
  const sampler = setInterval(() => {
    rssPeakMb = Math.max(rssPeakMb, rssMb(serverPid));
  }, 20);
  const cpuBefore = cpuSeconds(serverPid);
  const started = performance.now();
  const statuses: number[] = [];
  let next = 0;
  // BATCH_CONCURRENCY workers taking the next file, as the web app's batch does.
  await Promise.all(
    Array.from({ length: BATCH_CONCURRENCY }, async () => {
      while (next < images.length) {
        const i = next++;
        statuses.push(await send(images[i]!, i));
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  rssPeakMb = Math.max(rssPeakMb, rssMb(serverPid));
  const created = statuses.filter((s) => s === 200).length;
  return {
    files,
    mb: images.reduce((sum, b) => sum + b.length, 0) / 1024 / 1024,
    seconds,
    created,
    refused: files - created,
    rssBeforeMb,
    rssPeakMb,
    rssGrowthMb: rssPeakMb - rssBeforeMb,
    serverCpuPerPoster: (cpuSeconds(serverPid) - cpuBefore) / Math.max(1, created),
  };
}

/** The report's lines, and the targets missed (none: empty). */
export function reportBatch(r: BatchResult): { lines: string[]; met: boolean } {
  const missed = [
    ...(r.rssGrowthMb > UPLOAD_TARGETS.rssGrowthMb
      ? [`batch RSS growth ${r.rssGrowthMb.toFixed(1)} MB > ${UPLOAD_TARGETS.rssGrowthMb} MB`]
      : []),
    ...(r.refused > 0 ? [`batch: ${r.refused} of ${r.files} files refused`] : []),
  ];
  return {
    lines: [
      `batch upload: ${r.files} posters (${r.mb.toFixed(0)} MB of JPEG), ${BATCH_CONCURRENCY} at a time: ` +
        `${r.created} created in ${r.seconds.toFixed(1)} s (${(r.created / r.seconds).toFixed(1)} a second), ` +
        `server CPU ${r.serverCpuPerPoster.toFixed(3)} s a poster`,
      `  server RSS ${r.rssBeforeMb.toFixed(0)} MB before, ${r.rssPeakMb.toFixed(0)} MB at most: ` +
        `growth ${r.rssGrowthMb.toFixed(1)} MB (target ≤ ${UPLOAD_TARGETS.rssGrowthMb} MB)`,
      ...missed.map((m) => `  missed: ${m}`),
    ],
    met: missed.length === 0,
  };
}
