/**
 * A TCP relay to a real server (PostgreSQL, Redis) that a test can cut and restore: cut, it
 * refuses new connections and drops the open ones, as a stopped server would; restored, it
 * relays again on the same port.
 */
import net from 'node:net';

export type Relay = {
  port: number;
  /** Stops relaying: open connections are dropped, new ones refused. */
  cut(): Promise<void>;
  /** Relays again, on the same port. */
  restore(): Promise<void>;
  close(): Promise<void>;
  /**
   * The next COMMIT a client sends (PostgreSQL's protocol) loses its answer: `delivered`, the
   * database gets it and the client's connection drops before the answer comes back;
   * `undelivered`, both ends drop before the database reads it. `then` runs once it is lost
   * (after the database was sent it, when delivered).
   */
  loseNextCommit(mode: 'delivered' | 'undelivered', then?: () => void): void;
};

/** A COMMIT statement's text as a PostgreSQL client sends it (Kysely's, in a query message). */
const COMMIT = Buffer.from('commit\0');

export async function startRelay(target: { host: string; port: number }): Promise<Relay> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => socket.destroy());
      socket.on('close', () => {
        sockets.delete(socket);
        client.destroy();
        upstream.destroy();
      });
    }
    upstream.pipe(client);
    client.on('data', (chunk: Buffer) => {
      const losing = commitToLose;
      if (!losing || !chunk.includes(COMMIT)) {
        upstream.write(chunk);
        return;
      }
      commitToLose = undefined;
      upstream.unpipe(client);
      client.destroy();
      if (losing.mode === 'undelivered') {
        upstream.destroy();
        losing.then?.();
      } else {
        upstream.write(chunk, () => {
          losing.then?.();
          setTimeout(() => upstream.destroy(), 200);
        });
      }
    });
    client.on('end', () => upstream.end());
  });
  let commitToLose: { mode: 'delivered' | 'undelivered'; then?: () => void } | undefined;
  const listen = (port: number) =>
    new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  await listen(0);
  const { port } = server.address() as net.AddressInfo;
  let open = true;
  const cut = async () => {
    if (!open) return;
    open = false;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const socket of sockets) socket.destroy();
    await closed;
  };
  return {
    port,
    cut,
    restore: async () => {
      if (open) return;
      await listen(port);
      open = true;
    },
    close: cut,
    loseNextCommit: (mode, then) => {
      commitToLose = { mode, ...(then ? { then } : {}) };
    },
  };
}
