/**
 * Videos are trusted by their content only, like images: the leading bytes must be those of an
 * ISO base-media file (MP4, QuickTime: an `ftyp` box first) or of a Matroska/WebM file (the EBML
 * magic number). They are stored as uploaded, under the SHA-256 of their bytes, which the upload
 * computed while streaming (uploads.ts): nothing reads the file again to name it.
 */

export type VideoFormat = 'mp4' | 'webm' | 'mov';

/** Each format's file extension and content type. */
export const VIDEO_FORMATS: Record<VideoFormat, { ext: string; contentType: string }> = {
  mp4: { ext: 'mp4', contentType: 'video/mp4' },
  webm: { ext: 'webm', contentType: 'video/webm' },
  mov: { ext: 'mov', contentType: 'video/quicktime' },
};

const EBML = Buffer.from([0x1a, 0x45, 0xdf, 0xa3]);

/**
 * Major brands of ISO base-media files that are still images (HEIF, AVIF), not videos: they also
 * begin with `ftyp`.
 */
const IMAGE_BRANDS = new Set(['avif', 'avis', 'heic', 'heix', 'heim', 'heis', 'mif1', 'msf1']);

/** The video format the leading bytes announce (at least 12 are needed), else undefined. */
export function sniffVideo(head: Buffer): VideoFormat | undefined {
  if (head.length >= 4 && head.subarray(0, 4).equals(EBML)) return 'webm';
  if (head.length >= 12 && head.subarray(4, 8).toString('latin1') === 'ftyp') {
    const brand = head.subarray(8, 12).toString('latin1');
    if (IMAGE_BRANDS.has(brand)) return undefined;
    return brand === 'qt  ' ? 'mov' : 'mp4';
  }
  return undefined;
}

/** The media key of a video: content-addressed, so identical bytes share one file. */
export function videoKey(hash: string, format: VideoFormat): string {
  return `videos/${hash.slice(0, 2)}/${hash}.${VIDEO_FORMATS[format].ext}`;
}

/** The file id (`video_id`) behind a video's media key: its content hash. */
export function videoIdOf(key: string): string {
  return /([0-9a-f]{64})\.[a-z0-9]+$/.exec(key)?.[1] ?? '';
}
