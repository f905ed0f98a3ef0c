/**
 * The uploads' hashing thread (src/media/hash-thread.ts): whatever the chunk sizes, and with
 * several uploads at once, each digest is the SHA-256 of its own bytes, as the stored file's
 * name must be.
 */
import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ThreadHash } from '../src/media/hash-thread.ts';

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/** Feeds `data` to `hash` in chunks of the given sizes, repeated. */
function feed(hash: ThreadHash, data: Buffer, sizes: number[]) {
  for (let at = 0, i = 0; at < data.length; i++) {
    const end = Math.min(data.length, at + sizes[i % sizes.length]!);
    hash.update(data.subarray(at, end));
    at = end;
  }
}

describe('the hashing thread', () => {
  it('digests nothing, one byte, and bytes across its 1 MB blocks as SHA-256 does', async () => {
    expect(await new ThreadHash().digest()).toBe(sha256(Buffer.alloc(0)));
    const one = new ThreadHash();
    one.update(Buffer.from('x'));
    expect(await one.digest()).toBe(sha256(Buffer.from('x')));
    // 3.5 MB in odd chunks (some larger than a block): blocks end mid-chunk.
    const data = randomBytes(3.5 * 1024 * 1024 + 7);
    const hash = new ThreadHash();
    feed(hash, data, [65_536, 1, 1_500_000, 333, 2_200_000]);
    expect(await hash.digest()).toBe(sha256(data));
  });

  it('keeps uploads apart when they stream at once, and after one is dropped', async () => {
    const a = randomBytes(2 * 1024 * 1024 + 1);
    const b = randomBytes(1024 * 1024 + 500);
    const c = randomBytes(1_300_000);
    const [ha, hb, hc] = [new ThreadHash(), new ThreadHash(), new ThreadHash()];
    for (let at = 0; at < a.length; at += 100_000) {
      ha.update(a.subarray(at, at + 100_000));
      hb.update(b.subarray(at, at + 100_000));
      hc.update(c.subarray(at, at + 100_000));
      if (at === 1_200_000) hc.drop();
    }
    const [da, db] = await Promise.all([ha.digest(), hb.digest()]);
    expect(da).toBe(sha256(a));
    expect(db).toBe(sha256(b));
    // The chunk it was given from its own copy: changing the caller's buffer afterwards is safe.
    const d = Buffer.from('abc');
    const hd = new ThreadHash();
    hd.update(d);
    d.write('xyz');
    expect(await hd.digest()).toBe(sha256(Buffer.from('abc')));
  });
});
