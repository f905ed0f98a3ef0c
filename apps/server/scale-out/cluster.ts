/**
 * A small deployment for the scale-out test, as docs/deploy.md describes it: server processes
 * (`node src/main.ts`) on one PostgreSQL database, one Redis and one S3 bucket (s3rver), behind
 * nginx running the repository's own configuration (deploy/nginx/master-admin.conf) with only its
 * ports and log path changed.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';

const SERVER_DIR = path.resolve(import.meta.dirname, '..');
const NGINX_CONF = path.resolve(SERVER_DIR, '../../deploy/nginx/master-admin.conf');

/** nginx's binary, when installed. */
export function findNginx(): string | undefined {
  for (const candidate of ['/usr/sbin/nginx', '/usr/bin/nginx', '/usr/local/sbin/nginx']) {
    if (fs.existsSync(candidate)) return candidate;
  }
  const which = spawnSync('which', ['nginx'], { encoding: 'utf8' });
  return which.status === 0 ? which.stdout.trim() || undefined : undefined;
}

/** A free TCP port on the loopback address. */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export async function waitUntil(what: string, check: () => Promise<boolean>, ms = 20_000) {
  const deadline = Date.now() + ms;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`${what}: not after ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** One server process on a fixed port; `restart` stops it (SIGTERM) and starts another there. */
export class Instance {
  readonly port: number;
  readonly #env: Record<string, string>;
  child!: ChildProcess;
  exited!: Promise<number | null>;
  output = '';

  constructor(port: number, env: Record<string, string>) {
    this.port = port;
    this.#env = env;
  }

  get url() {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Starts the process; resolves once it answers readiness. */
  async start() {
    this.output = '';
    const child = spawn(process.execPath, ['src/main.ts'], {
      cwd: SERVER_DIR,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? os.tmpdir(),
        ...this.#env,
        PORT: String(this.port),
        HOST: '127.0.0.1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    child.stdout.setEncoding('utf8').on('data', (d: string) => (this.output += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (this.output += d));
    this.exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
    let exitCode: number | null | undefined;
    void this.exited.then((code) => (exitCode = code));
    await waitUntil(`instance on ${this.port} ready`, async () => {
      if (exitCode !== undefined) {
        throw new Error(`instance on ${this.port} exited (${exitCode}):\n${this.output}`);
      }
      return (await fetch(`${this.url}/api/v1/health/ready`)).status === 200;
    });
  }

  /** SIGTERM, and the exit code once it has drained and stopped. */
  async stop(): Promise<number | null> {
    this.child.kill('SIGTERM');
    return this.exited;
  }

  kill() {
    if (this.child && this.child.exitCode === null && this.child.signalCode === null) {
      this.child.kill('SIGKILL');
    }
  }
}

/** nginx with the repository's configuration, in a folder of its own. */
export class Nginx {
  readonly port: number;
  readonly #dir: string;
  #child: ChildProcess | undefined;
  #stderr = '';

  constructor(port: number) {
    this.port = port;
    this.#dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ma-nginx-'));
  }

  get url() {
    return `http://127.0.0.1:${this.port}`;
  }

  get accessLog() {
    return path.join(this.#dir, 'access.log');
  }

  /** What nginx logged as errors (its error.log), for a failure's message. */
  errors(): string {
    try {
      return fs.readFileSync(path.join(this.#dir, 'error.log'), 'utf8');
    } catch {
      return '';
    }
  }

  /** The repository's file with the instances' ports, this port and a log of its own. */
  siteConfig(instancePorts: readonly [number, number]): string {
    const original = fs.readFileSync(NGINX_CONF, 'utf8');
    const replace = (text: string, from: string, to: string) => {
      if (!text.includes(from)) throw new Error(`${NGINX_CONF} no longer holds "${from}"`);
      return text.replace(from, to);
    };
    let conf = replace(original, '127.0.0.1:3001', `127.0.0.1:${instancePorts[0]}`);
    conf = replace(conf, '127.0.0.1:3002', `127.0.0.1:${instancePorts[1]}`);
    conf = replace(conf, 'listen 80;', `listen 127.0.0.1:${this.port};`);
    return replace(conf, '/var/log/nginx/master-admin.access.log', this.accessLog);
  }

  async start(binary: string, instancePorts: readonly [number, number]) {
    const dir = this.#dir;
    fs.writeFileSync(path.join(dir, 'master-admin.conf'), this.siteConfig(instancePorts));
    fs.writeFileSync(
      path.join(dir, 'nginx.conf'),
      [
        // As root, nginx's workers would run as `nobody`, who cannot write this folder.
        ...(process.getuid?.() === 0 ? ['user root;'] : []),
        'worker_processes 1;',
        'daemon off;',
        `pid ${dir}/nginx.pid;`,
        `error_log ${dir}/error.log warn;`,
        'events { worker_connections 1024; }',
        'http {',
        `  client_body_temp_path ${dir}/body;`,
        `  proxy_temp_path ${dir}/proxy;`,
        `  fastcgi_temp_path ${dir}/fastcgi;`,
        `  uwsgi_temp_path ${dir}/uwsgi;`,
        `  scgi_temp_path ${dir}/scgi;`,
        `  include ${dir}/master-admin.conf;`,
        '}',
      ].join('\n'),
    );
    const child = spawn(
      binary,
      ['-p', dir, '-c', path.join(dir, 'nginx.conf'), '-e', `${dir}/error.log`],
      {
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    this.#child = child;
    child.stderr.setEncoding('utf8').on('data', (d: string) => (this.#stderr += d));
    await waitUntil('nginx answering', async () => {
      if (child.exitCode !== null) throw new Error(`nginx exited: ${this.#stderr}`);
      return (await fetch(`${this.url}/api/v1/health`)).status === 200;
    });
  }

  async stop() {
    const child = this.#child;
    if (child && child.exitCode === null) {
      const exited = new Promise((r) => child.on('exit', r));
      child.kill('SIGQUIT');
      await exited;
    }
    fs.rmSync(this.#dir, { recursive: true, force: true });
  }
}

/** A secret every instance shares, as an operator sets one. */
export const sharedSecret = () => randomBytes(32).toString('base64url');

// Answers are read field by field, as a client reads JSON.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Answer = { status: number; body: any; headers: Headers };

/** A call to `base`'s API, its answer parsed as JSON when it is. */
export async function call(
  base: string,
  method: string,
  url: string,
  options: {
    token?: string;
    json?: unknown;
    form?: FormData;
    headers?: Record<string, string>;
  } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.json !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${base}/api/v1${url}`, {
    method,
    headers,
    body: options.form ?? (options.json === undefined ? undefined : JSON.stringify(options.json)),
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON: kept as text.
  }
  return { status: res.status, body, headers: res.headers };
}
