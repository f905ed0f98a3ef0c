/**
 * The demo's pictures, drawn with sharp from SVG: colour fields, simple shapes and text in the
 * fonts the system has (DejaVu or Liberation on Debian; shapes alone still make a picture where
 * no font is installed). Stored through the media service like an upload, so the keys, thumbnails
 * and store (local disk or S3) are those of any uploaded image. Same input, same bytes, same key.
 */
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import type { MediaService } from '../media/service.ts';
import type { Upload } from '../media/uploads.ts';
import type { RgbPicture } from './video-files.ts';

const FONT = "'DejaVu Sans', 'Liberation Sans', Arial, sans-serif";

/** Background pairs: a festival's warm and cool colours. */
export const PALETTES = [
  ['#d9480f', '#ffd43b'],
  ['#862e9c', '#f783ac'],
  ['#1864ab', '#74c0fc'],
  ['#2b8a3e', '#c0eb75'],
  ['#c92a2a', '#ffa94d'],
  ['#5f3dc4', '#66d9e8'],
  ['#e67700', '#fff3bf'],
  ['#0b7285', '#96f2d7'],
] as const;
export type Palette = (typeof PALETTES)[number];

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function text(x: number, y: number, size: number, value: string, fill = '#fff', weight = 700) {
  return `<text x="${x}" y="${y}" font-family="${FONT}" font-size="${size}" font-weight="${weight}" fill="${fill}" text-anchor="middle">${escape(value)}</text>`;
}

/** A ring of petals around (cx, cy): a rangoli-like ornament. */
function ornament(cx: number, cy: number, r: number, colour: string, petals: number) {
  const shapes: string[] = [];
  for (let i = 0; i < petals; i++) {
    const a = (i / petals) * Math.PI * 2;
    shapes.push(
      `<circle cx="${(cx + Math.cos(a) * r).toFixed(1)}" cy="${(cy + Math.sin(a) * r).toFixed(1)}" r="${(r / 3.2).toFixed(1)}" fill="${colour}" fill-opacity="0.55"/>`,
    );
  }
  shapes.push(
    `<circle cx="${cx}" cy="${cy}" r="${(r / 2).toFixed(1)}" fill="${colour}" fill-opacity="0.8"/>`,
  );
  return shapes.join('');
}

/** An SVG drawn on a `width`×`height` canvas, rendered `scale` times that size. */
function svg(width: number, height: number, body: string, scale = 1) {
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width * scale}" height="${height * scale}" viewBox="0 0 ${width} ${height}">${body}</svg>`,
  );
}

function gradient([a, b]: Palette, width: number, height: number) {
  return `<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${a}"/><stop offset="1" stop-color="${b}"/></linearGradient></defs><rect width="${width}" height="${height}" fill="url(#g)"/>`;
}

/** A festival poster, 4:5: the occasion's name, a greeting and an ornament. */
export function posterSvg(title: string, greeting: string, palette: Palette, variant: number) {
  const [w, h] = [540, 675];
  const cx = variant % 2 ? 150 : 390;
  return svg(
    w,
    h,
    gradient(palette, w, h) +
      ornament(cx, 190, 90 + (variant % 3) * 15, '#ffffff', 8 + (variant % 4) * 2) +
      `<rect x="30" y="360" width="480" height="4" fill="#fff" fill-opacity="0.7"/>` +
      text(270, 440, title.length > 16 ? 40 : title.length > 9 ? 52 : 68, title) +
      text(270, 495, 24, greeting, '#fff', 400) +
      text(270, 630, 18, `Design ${variant + 1}`, '#fff', 400),
    // 432×540: a phone screen's width, and quick to encode a few hundred times.
    0.8,
  );
}

/** A wide banner for the apps' home screens. */
export function bannerSvg(title: string, line: string, palette: Palette) {
  const [w, h] = [1200, 400];
  return svg(
    w,
    h,
    gradient(palette, w, h) +
      ornament(1020, 200, 110, '#ffffff', 12) +
      text(480, 190, title.length > 14 ? 54 : 72, title) +
      text(480, 260, 34, line, '#fff', 400),
  );
}

/** A picture with a title and a line under it, in the given size (blogs, logos, strips). */
export function cardSvg(
  width: number,
  height: number,
  title: string,
  line: string,
  palette: Palette,
) {
  const size = Math.round(Math.min(height / 3.2, (width / Math.max(8, title.length)) * 1.35));
  return svg(
    width,
    height,
    gradient(palette, width, height) +
      text(width / 2, height / 2 + size / 3, size, title) +
      (line
        ? text(
            width / 2,
            height / 2 + size / 3 + size * 0.9,
            Math.round(size / 2.2),
            line,
            '#fff',
            400,
          )
        : ''),
  );
}

/**
 * A user's self photo stand-in: a head-and-shoulders silhouette, 3:4, on a transparent ground (as
 * a cut-out photo is, so a poster shows around it). No initials: the few are shared by many users.
 */
export function portraitSvg(palette: Palette) {
  const [w, h] = [300, 400];
  const outline = `fill="${palette[0]}" stroke="${palette[1]}" stroke-width="6"`;
  return svg(
    w,
    h,
    `<ellipse cx="150" cy="390" rx="130" ry="120" ${outline}/>` +
      `<circle cx="150" cy="160" r="85" ${outline}/>`,
  );
}

/** Renders `image` (SVG) to PNG and stores it as an upload to `folder`; answers its media key. */
export async function storePicture(
  media: MediaService,
  image: Buffer,
  folder: string,
): Promise<string> {
  const png = await sharp(image).png({ compressionLevel: 1 }).toBuffer();
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ma-demo-'));
  const file = path.join(dir, 'picture.png');
  try {
    await fs.writeFile(file, png);
    const upload: Upload = {
      field: 'file',
      path: file,
      size: png.length,
      kind: 'image',
      format: 'png',
      hash: crypto.createHash('sha256').update(png).digest('hex'),
    };
    return await media.saveImage(upload, folder);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/** Stores `bytes` as an uploaded MP4 video; answers its media key. */
export async function storeVideo(media: MediaService, bytes: Buffer): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ma-demo-'));
  const file = path.join(dir, 'video.mp4');
  try {
    await fs.writeFile(file, bytes);
    return await media.saveVideo({
      field: 'file',
      path: file,
      size: bytes.length,
      kind: 'video',
      format: 'mp4',
      hash: crypto.createHash('sha256').update(bytes).digest('hex'),
    });
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/** A video frame (176×320, portrait like a phone's status video) as RGB pixels. */
export async function videoFrame(
  title: string,
  line: string,
  palette: Palette,
): Promise<RgbPicture> {
  const { data, info } = await sharp(cardSvg(176, 320, title, line, palette))
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, rgb: data };
}

/** Runs `work` over `items`, `limit` at a time (sharp's own threads do the rest). */
export async function inParallel<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        results[i] = await work(items[i]!, i);
      }
    }),
  );
  return results;
}
