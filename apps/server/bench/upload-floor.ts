/**
 * The video upload's floor (upload.ts): a bare `node:http` server, in a process of its own like
 * the real server, that pipes each request's body (the same multipart bytes) into a new file in
 * the folder it is given (on the disk the server stores media on), then answers 200. It parses,
 * checks and hashes nothing: what the bytes cost to receive over loopback and write.
 * Prints `listening <port>` when ready.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { pipeline } from 'node:stream/promises';

const dir = process.argv[2];
if (!dir) throw new Error('usage: upload-floor.ts <folder>');

const server = http.createServer((request, response) => {
  const file = path.join(dir, `floor-${randomBytes(6).toString('hex')}.bin`);
  pipeline(request, fs.createWriteStream(file, { highWaterMark: 1024 * 1024 })).then(
    () => {
      response.end('{}');
      fs.rmSync(file, { force: true });
    },
    (err: Error) => {
      fs.rmSync(file, { force: true });
      response.statusCode = 500;
      response.end(String(err));
    },
  );
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`listening ${typeof address === 'object' && address ? address.port : 0}\n`);
});
