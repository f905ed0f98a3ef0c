/**
 * What `npm start` prints once the server listens: where it is, who can reach it, and on a first
 * start the admin's sign-in details in a block of their own, last, so they are not lost among log
 * lines.
 */
import type { AddressInfo } from 'node:net';

const LOOPBACK = /^(127\.|::1$|::ffff:127\.)/;
const EVERY_INTERFACE = new Set(['0.0.0.0', '::', '::0']);

export function startBanner(options: {
  /** What the server socket is bound to (`server.address()`). */
  bound: AddressInfo;
  /** Where the data lives: the SQLite file, or "PostgreSQL". */
  data: string;
  firstAdmin: { email: string; password: string | undefined } | undefined;
}): string {
  const { address, port } = options.bound;
  const host = address.includes(':') ? `[${address}]` : address;
  const everywhere = EVERY_INTERFACE.has(address);
  const local = LOOPBACK.test(address);
  // localhost reaches a loopback or an every-interface socket; any other address only itself.
  const url = local || everywhere ? `http://localhost:${port}` : `http://${host}:${port}`;
  const lines = [
    '',
    `Master Admin is running at ${url} (listening on http://${host}:${port}; data: ${options.data})`,
    local
      ? '  Only this computer can reach it. To open it to other machines: HOST=0.0.0.0 npm start' +
        ' (put HTTPS in front first: docs/deploy.md).'
      : everywhere
        ? `  Other machines on the network can reach it (every interface, HOST=${address}). Unset HOST to keep it to this computer.`
        : `  Reachable at ${host} only (HOST=${address}).`,
    `API documentation: ${url}/api/docs`,
  ];
  const admin = options.firstAdmin;
  if (admin) {
    const rule = '─'.repeat(64);
    lines.push(
      '',
      rule,
      '  First start: created the SUPER_ADMIN account.',
      `    Email: ${admin.email}`,
      admin.password
        ? `    Password (shown only this once): ${admin.password}`
        : '    Password: the one ADMIN_PASSWORD sets',
      `  Sign in at ${url}, then change the password under Account.`,
      rule,
    );
  }
  return lines.join('\n') + '\n\n';
}
