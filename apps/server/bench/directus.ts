/**
 * The server beside Directus on the same rows (issue #33): the 5-row list, the first page and
 * a page at offset rows/2 of a million banners, each asked of both at concurrency 50 in one run,
 * alternating, with autocannon. Directus is not a dependency of this project: install it apart
 * and point it at the bench's database (docs/benchmarks.md, "Beside Directus"). Both must be
 * running; this script only drives them.
 *
 *   node bench/directus.ts --server http://127.0.0.1:3000 --directus http://127.0.0.1:8055 \
 *     --directus-token <its ADMIN_TOKEN> --rows 1000000 [--seconds 10] [--rounds 2]
 */
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { API_BASE } from '@master-admin/contract';
import { randomSource } from '../src/seed/bench.ts';

const { values: args } = parseArgs({
  options: {
    server: { type: 'string', default: 'http://127.0.0.1:3000' },
    email: { type: 'string', default: 'bench@example.com' },
    password: { type: 'string', default: 'bench-password-1' },
    directus: { type: 'string', default: 'http://127.0.0.1:8055' },
    'directus-token': { type: 'string', default: 'directus-bench-token' },
    rows: { type: 'string', default: '1000000' },
    seconds: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '2' },
    connections: { type: 'string', default: '50' },
  },
});
const ROWS = Number(args.rows);
const deep = (rng: ReturnType<typeof randomSource>) => Math.floor(ROWS / 2) + rng.int(100);

/**
 * Each case as both answer it: the same rows, order and page size, with the total (Directus's
 * `meta=filter_count`, the count of the filtered rows, as the server's `total`).
 */
const CASES: Array<{
  name: string;
  server: (rng: ReturnType<typeof randomSource>) => string;
  directus: (rng: ReturnType<typeof randomSource>) => string;
}> = [
  {
    name: 'master apps (5 rows)',
    server: () => `${API_BASE}/master-app/list?limit=10`,
    directus: () => `/items/master_apps?limit=10&sort=-created_at,-id&meta=filter_count`,
  },
  {
    name: 'banners: first page',
    server: () => `${API_BASE}/banner/list?limit=10`,
    directus: () => `/items/banners?limit=10&sort=-created_at,-id&meta=filter_count`,
  },
  {
    name: 'banners: offset rows/2',
    server: (rng) => `${API_BASE}/banner/list?limit=10&offset=${deep(rng)}`,
    directus: (rng) =>
      `/items/banners?limit=10&offset=${deep(rng)}&sort=-created_at,-id&meta=filter_count`,
  },
];

async function drive(
  base: string,
  token: string,
  path: (rng: ReturnType<typeof randomSource>) => string,
) {
  const rng = randomSource(7);
  const result = await autocannon({
    url: base,
    connections: Number(args.connections),
    duration: Number(args.seconds),
    timeout: 120,
    headers: { authorization: `Bearer ${token}` },
    requests: [{ setupRequest: (req) => ({ ...req, path: path(rng) }) }],
  });
  return {
    rps: result.requests.average,
    p99: result.latency.p99,
    errors: result.non2xx + result.errors + result.timeouts,
  };
}

async function check(base: string, token: string, path: string, what: string) {
  const res = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${token}` } });
  if (!res.ok) throw new Error(`${what} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as Record<string, unknown>;
}

const login = await fetch(`${args.server}${API_BASE}/auth/admin/login`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ email: args.email, password: args.password }),
});
if (!login.ok) throw new Error(`sign-in: ${login.status} ${await login.text()}`);
const token = ((await login.json()) as { token: string }).token;
const directusToken = args['directus-token'];

const rows: string[] = [];
for (const c of CASES) {
  // Both answer the same rows before either is timed.
  const rng = randomSource(1);
  const path = c.server(rng);
  const ours = await check(args.server, token, path, 'server');
  const theirs = await check(args.directus, directusToken, c.directus(randomSource(1)), 'Directus');
  const total = (theirs.meta as { filter_count?: number } | undefined)?.filter_count;
  if (ours.total !== total)
    throw new Error(`${c.name}: total ${String(ours.total)} here, ${total} in Directus`);
  const runs: Array<{
    server: Awaited<ReturnType<typeof drive>>;
    directus: Awaited<ReturnType<typeof drive>>;
  }> = [];
  for (let round = 0; round < Number(args.rounds); round++) {
    const server = await drive(args.server, token, c.server);
    const directus = await drive(args.directus, directusToken, c.directus);
    runs.push({ server, directus });
    process.stderr.write(
      `${c.name}: server ${server.rps} req/s p99 ${server.p99} ms · Directus ${directus.rps} req/s p99 ${directus.p99} ms\n`,
    );
  }
  for (const { server, directus } of runs) {
    rows.push(
      `| ${c.name} | ${Math.round(server.rps)} | ${server.p99} | ${Math.round(directus.rps)} | ${directus.p99} | ${(server.rps / directus.rps).toFixed(1)}× | ${server.errors + directus.errors} |`,
    );
  }
}
console.log(
  `\n${ROWS.toLocaleString('en')} rows, concurrency ${args.connections}, ${args.seconds} s a run`,
);
console.log(
  '| case | server req/s | server p99 ms | Directus req/s | Directus p99 ms | server ÷ Directus | errors |',
);
console.log('|---|---|---|---|---|---|---|');
for (const row of rows) console.log(row);
