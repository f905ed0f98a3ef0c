/**
 * Small video files for upload tests. The server trusts videos by their leading bytes only (it
 * stores them as they are), so a real container head followed by filler is enough. The filler
 * is random, so no two files share a stored file unless a test sends the same buffer twice.
 */
import { randomBytes } from 'node:crypto';

/** `size` bytes: `head`, then random filler. */
const file = (head: Buffer, size: number) =>
  Buffer.concat([head, randomBytes(Math.max(0, size - head.length))]);

export const videos = {
  /** An ISO base-media (MP4) file: an `ftyp` box of brand mp42. */
  mp4: (size = 4096) => file(Buffer.from('\0\0\0\x18ftypmp42\0\0\0\0mp42isom', 'latin1'), size),
  /** A QuickTime movie: an `ftyp` box of brand `qt  `. */
  mov: (size = 4096) => file(Buffer.from('\0\0\0\x14ftypqt  \0\0\0\0qt  ', 'latin1'), size),
  /** A WebM file: the EBML magic number, then the start of its header. */
  webm: (size = 4096) =>
    file(
      Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01, 0x42, 0xf7, 0x81, 0x01]),
      size,
    ),
};
