/**
 * The MP4 writer the demo's videos come from (src/seed/video-files.ts): its boxes, sample tables
 * and H.264 units are where a player looks for them. (That Chromium plays the result was checked
 * by hand: every picture shows at its time.)
 */
import { describe, expect, it } from 'vitest';
import { slideshowMp4, type RgbPicture } from '../src/seed/video-files.ts';
import { sniffVideo } from '../src/media/videos.ts';

const solid = (r: number, g: number, b: number, width = 32, height = 48): RgbPicture => ({
  width,
  height,
  rgb: Buffer.from(Array.from({ length: width * height }, () => [r, g, b]).flat()),
});

/** The boxes directly inside `buf`: type, payload. */
function boxes(buf: Buffer): Array<[string, Buffer]> {
  const out: Array<[string, Buffer]> = [];
  for (let at = 0; at < buf.length;) {
    const size = buf.readUInt32BE(at);
    expect(size).toBeGreaterThanOrEqual(8);
    out.push([buf.toString('latin1', at + 4, at + 8), buf.subarray(at + 8, at + size)]);
    at += size;
  }
  return out;
}
const child = (buf: Buffer, ...path: string[]): Buffer =>
  path.reduce((inside, type) => {
    const found = boxes(inside).find(([t]) => t === type);
    if (!found) throw new Error(`no ${type} box`);
    return found[1];
  }, buf);

describe('slideshowMp4', () => {
  const file = slideshowMp4([solid(255, 0, 0), solid(0, 0, 255)], { secondsEach: 1, fps: 5 });
  const top = boxes(file);
  const stbl = child(file, 'moov', 'trak', 'mdia', 'minf', 'stbl');
  const table = (type: string) => {
    const body = child(stbl, type);
    return Array.from({ length: (body.length - 4) / 4 }, (_, i) => body.readUInt32BE(4 + i * 4));
  };

  it('is ftyp, moov, mdat (the index first, so a browser plays it while it loads)', () => {
    expect(top.map(([t]) => t)).toEqual(['ftyp', 'moov', 'mdat']);
    expect(sniffVideo(file.subarray(0, 16))).toBe('mp4');
  });

  it('lasts two seconds: ten samples at 5 per second, a key frame at each picture', () => {
    const mdhd = child(file, 'moov', 'trak', 'mdia', 'mdhd');
    const [timescale, duration] = [mdhd.readUInt32BE(12), mdhd.readUInt32BE(16)];
    expect(duration / timescale).toBe(2);
    const [entries, count, delta] = table('stts');
    expect([entries, count, delta! / timescale]).toEqual([1, 10, 0.2]);
    expect(table('stss')).toEqual([2, 1, 6]);
  });

  it('points its one chunk at the media data, whose samples add up to it', () => {
    const mdat = top[2]![1];
    const [, offset] = table('stco');
    expect(file.subarray(offset, offset! + mdat.length).equals(mdat)).toBe(true);
    const [count, ...sizes] = table('stsz').slice(1);
    expect(count).toBe(10);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(mdat.length);
  });

  it('holds H.264 units: SPS and PPS in avcC, an IDR picture of the colour, then skipped ones', () => {
    const avc1 = child(stbl, 'stsd').subarray(8);
    const avcC = child(avc1.subarray(8 + 78), 'avcC');
    expect([avcC[0], avcC[1], avcC[5]! & 0x1f]).toEqual([1, 66, 1]);
    const spsLength = avcC.readUInt16BE(6);
    expect(avcC[8]! & 0x1f).toBe(7);
    expect(avcC[8 + spsLength + 3]! & 0x1f).toBe(8);

    const mdat = top[2]![1];
    const units: Buffer[] = [];
    for (let at = 0; at < mdat.length;) {
      const length = mdat.readUInt32BE(at);
      units.push(mdat.subarray(at + 4, at + 4 + length));
      at += 4 + length;
    }
    expect(units.map((u) => u[0]! & 0x1f)).toEqual([5, 1, 1, 1, 1, 5, 1, 1, 1, 1]);
    // Uncompressed macroblocks: the luma of pure red (BT.601: 82) and of pure blue (41).
    expect(units[0]!.includes(Buffer.alloc(256, 82))).toBe(true);
    expect(units[5]!.includes(Buffer.alloc(256, 41))).toBe(true);
    // No unit holds a start code's prefix: emulation prevention is in place.
    for (const unit of units) {
      for (let i = 2; i < unit.length; i++) {
        expect(unit[i - 2] === 0 && unit[i - 1] === 0 && unit[i]! <= 2).toBe(false);
      }
    }
  });

  it('refuses pictures of a size that is not a multiple of 16', () => {
    expect(() => slideshowMp4([solid(0, 0, 0, 30, 48)])).toThrow(/multiple of 16/);
  });
});
