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
};

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
    client.pipe(upstream).pipe(client);
  });
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
  };
}
