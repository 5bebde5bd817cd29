/**
 * A TCP relay in front of the Worker for one bridge: what it passes is untouched (HTTP and
 * WebSocket upgrades alike); `down()` closes it and every connection through it, so to the
 * bridge the Worker is away (connections refused), as when the Worker's host is unreachable.
 */
import net from 'node:net';

export interface WorkerProxy {
  url: string;
  down(): Promise<void>;
}

export async function startWorkerProxy(workerUrl: string): Promise<WorkerProxy> {
  const target = new URL(workerUrl);
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const up = net.connect(Number(target.port), target.hostname);
    for (const s of [client, up]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => { client.destroy(); up.destroy(); });
    }
    client.pipe(up).pipe(client);
  });
  await new Promise<void>((resolve, reject) => { server.once('error', reject); server.listen(0, '127.0.0.1', resolve); });
  const port = (server.address() as net.AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    down: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      for (const s of sockets) s.destroy();
    }),
  };
}
