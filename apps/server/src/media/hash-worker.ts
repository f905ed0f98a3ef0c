/** The hashing thread of hash-thread.ts: a SHA-256 per stream id, fed blocks in order. */
import { createHash, type Hash } from 'node:crypto';
import { parentPort } from 'node:worker_threads';
import type { HashReply, HashRequest } from './hash-thread.ts';

const hashes = new Map<number, Hash>();

parentPort!.on('message', (request: HashRequest) => {
  if ('block' in request) {
    let hash = hashes.get(request.id);
    if (!hash) hashes.set(request.id, (hash = createHash('sha256')));
    hash.update(new Uint8Array(request.block, 0, request.length));
  } else if ('digest' in request) {
    const hash = hashes.get(request.id) ?? createHash('sha256');
    hashes.delete(request.id);
    parentPort!.postMessage({ id: request.id, hex: hash.digest('hex') } satisfies HashReply);
  } else {
    hashes.delete(request.id);
  }
});
