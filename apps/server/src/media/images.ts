/**
 * Images are trusted by their content only: the first bytes must be those of JPEG, PNG, WebP or
 * GIF, and sharp must decode the whole file within the pixel cap. What is stored is sharp's
 * re-encoding (WebP, metadata stripped) plus a small WebP thumbnail for lists.
 */
import { createHash } from 'node:crypto';
import sharp, { type Metadata } from 'sharp';

export type ImageKind = 'jpeg' | 'png' | 'webp' | 'gif';

/** The image kind the leading bytes announce, whatever the name or declared type say. */
export function sniffImage(head: Buffer): ImageKind | undefined {
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'jpeg';
  if (head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) {
    return 'png';
  }
  if (
    head.subarray(0, 4).toString('latin1') === 'RIFF' &&
    head.subarray(8, 12).toString('latin1') === 'WEBP'
  ) {
    return 'webp';
  }
  const gif = head.subarray(0, 6).toString('latin1');
  if (gif === 'GIF87a' || gif === 'GIF89a') return 'gif';
  return undefined;
}

export class ImageRefused extends Error {
  readonly statusCode: 413 | 415;
  constructor(statusCode: 413 | 415, message: string) {
    super(message);
    this.statusCode = statusCode;
  }
}

export type ProcessedImage = {
  /** The stored image, WebP. */
  main: Buffer;
  thumb: Buffer;
  width: number;
  height: number;
  /** Content address of `main`: the same picture always gets the same key. */
  hash: string;
};

const THUMB_WIDTH = 320;

export async function processImage(file: string, maxPixels: number): Promise<ProcessedImage> {
  const open = () =>
    sharp(file, { limitInputPixels: maxPixels, animated: true, failOn: 'truncated' });
  let meta: Metadata;
  try {
    // The header alone: the pixel cap is checked here so a bomb is named as one (413).
    meta = await sharp(file, { limitInputPixels: false, animated: true }).metadata();
  } catch {
    throw new ImageRefused(415, 'The image could not be read');
  }
  const width = meta.width;
  const frameHeight = meta.pageHeight ?? meta.height;
  if (width * frameHeight > maxPixels) {
    throw new ImageRefused(
      413,
      `The image is too large: ${width}×${frameHeight} pixels (at most ${Math.floor(maxPixels / 1e6)} megapixels)`,
    );
  }
  try {
    // rotate() applies the EXIF orientation before the metadata is dropped.
    const main = await open().rotate().webp({ quality: 88, effort: 4 }).toBuffer();
    const thumb = await sharp(file, { limitInputPixels: maxPixels, failOn: 'truncated' })
      .rotate()
      .resize({ width: THUMB_WIDTH, height: THUMB_WIDTH, fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 75 })
      .toBuffer();
    const hash = createHash('sha256').update(main).digest('hex');
    return { main, thumb, width, height: frameHeight, hash };
  } catch {
    throw new ImageRefused(415, 'The image could not be read');
  }
}

/** The thumbnail's key or URL beside its image's: `…/abc.webp` → `…/abc.thumb.webp`. */
export function thumbOf(keyOrUrl: string): string {
  return keyOrUrl.replace(/\.webp$/, '.thumb.webp');
}
