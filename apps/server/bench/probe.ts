/**
 * Times one request again and again, one at a time, in a process of its own (as an outside
 * client would: the load generator's busy process does not count), until it gets SIGTERM; then
 * prints its p99 as JSON. `node probe.ts <url> <gapMs> [<json RequestInit>]`.
 */
const [url = '', gap = '20', initJson = '{}'] = process.argv.slice(2);
const init = JSON.parse(initJson) as RequestInit;
const gapMs = Number(gap);
let stopping = false;
process.once('SIGTERM', () => (stopping = true));

const times: number[] = [];
let failures = 0;
// A first request opens the connection; it is not timed.
await fetch(url, init).then(
  (res) => res.arrayBuffer(),
  () => undefined,
);
while (!stopping) {
  const started = performance.now();
  try {
    const res = await fetch(url, init);
    await res.arrayBuffer();
    if (!res.ok) failures += 1;
  } catch {
    failures += 1;
  }
  times.push(performance.now() - started);
  await new Promise((r) => setTimeout(r, gapMs));
}
times.sort((a, b) => a - b);
const p99 =
  times.length === 0 ? NaN : times[Math.min(times.length - 1, Math.ceil(0.99 * times.length) - 1)]!;
process.stdout.write(JSON.stringify({ p99, count: times.length, failures }));
