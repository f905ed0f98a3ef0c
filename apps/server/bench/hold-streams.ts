/**
 * Holds event streams open for the events bench (events.ts), in a process of its own so the
 * bench's load generator does not share an event loop with them: reads `{ url, tokens }` (JSON)
 * from stdin, opens one stream per token, prints `ready` once every stream has said where it
 * starts, and reads them until it is stopped.
 */
import http from 'node:http';

const input = await new Promise<string>((resolve) => {
  let text = '';
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (chunk: string) => (text += chunk));
  process.stdin.on('end', () => resolve(text));
});
const { url, tokens } = JSON.parse(input) as { url: string; tokens: string[] };
let started = 0;
const startedOne = () => {
  started += 1;
  if (started === tokens.length) process.stdout.write('ready\n');
};
if (tokens.length === 0) process.stdout.write('ready\n');
// 50 at a time, as tabs reconnecting after a restart would not all come in the same instant.
for (let i = 0; i < tokens.length; i += 50) {
  await Promise.all(
    tokens.slice(i, i + 50).map(
      (token) =>
        new Promise<void>((resolve, reject) => {
          const request = http.get(
            url,
            { agent: false, headers: { authorization: `Bearer ${token}` } },
            (response) => {
              if (response.statusCode !== 200) {
                reject(new Error(`a stream answered ${response.statusCode}`));
                return;
              }
              let seen = false;
              response.setEncoding('utf8');
              response.on('data', (chunk: string) => {
                if (seen || !/(^|\n)id: \d+\n\n/.test(chunk)) return;
                seen = true;
                startedOne();
                resolve();
              });
              response.on('error', () => undefined);
            },
          );
          request.on('error', reject);
        }),
    ),
  );
}
setInterval(() => undefined, 60_000);
