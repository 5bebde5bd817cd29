/** Small raw-TCP client helpers shared by the bridge tests and the benchmark. */
import net from 'node:net';

export function connect(port: number, host = '127.0.0.1'): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const s = net.connect({ port, host });
    s.once('connect', () => {
      s.removeListener('error', reject);
      resolve(s);
    });
    s.once('error', reject);
  });
}

/** Connects, writes, closes; resolves with what the server sent back. */
export async function printAndClose(port: number, data: Buffer | string, host = '127.0.0.1'): Promise<Buffer> {
  const s = await connect(port, host);
  const got: Buffer[] = [];
  s.on('data', (c: Buffer) => got.push(c));
  await new Promise<void>((resolve, reject) => {
    s.on('error', reject);
    s.on('close', () => resolve());
    s.end(data);
  });
  return Buffer.concat(got);
}

/** Reads exactly n bytes (or fails after timeoutMs). */
export function readBytes(s: net.Socket, n: number, timeoutMs = 5000): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const got: Buffer[] = [];
    let len = 0;
    const onData = (c: Buffer) => {
      got.push(c);
      len += c.length;
      if (len >= n) {
        cleanup();
        const all = Buffer.concat(got);
        if (all.length > n) s.unshift(all.subarray(n));
        resolve(all.subarray(0, n));
      }
    };
    const onEnd = () => {
      cleanup();
      reject(new Error(`socket ended after ${len} of ${n} bytes`));
    };
    const t = setTimeout(() => {
      cleanup();
      reject(new Error(`timed out after ${len} of ${n} bytes`));
    }, timeoutMs);
    const cleanup = () => {
      clearTimeout(t);
      s.removeListener('data', onData);
      s.removeListener('end', onEnd);
    };
    s.on('data', onData);
    s.on('end', onEnd);
  });
}

/** Resolves when the server closes the connection (or the socket errors). */
export function waitClosed(s: net.Socket, timeoutMs = 10_000): Promise<{ ms: number; error?: string }> {
  const t0 = Date.now();
  return new Promise((resolve, reject) => {
    if (s.destroyed) return resolve({ ms: 0 });
    const t = setTimeout(() => reject(new Error('socket not closed in time')), timeoutMs);
    s.on('error', (err) => {
      clearTimeout(t);
      resolve({ ms: Date.now() - t0, error: (err as NodeJS.ErrnoException).code ?? err.message });
    });
    s.resume();
    s.on('close', () => {
      clearTimeout(t);
      resolve({ ms: Date.now() - t0 });
    });
  });
}

/** True when a connection to the port is refused. */
export async function isRefused(port: number, host = '127.0.0.1'): Promise<boolean> {
  try {
    const s = await connect(port, host);
    s.destroy();
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ECONNREFUSED';
  }
}

/** Ports that were free a moment ago (bound then released). */
export async function freePorts(n: number): Promise<number[]> {
  const servers: net.Server[] = [];
  const ports: number[] = [];
  for (let i = 0; i < n; i++) {
    const srv = net.createServer();
    await new Promise<void>((r) => srv.listen(0, '0.0.0.0', () => r()));
    servers.push(srv);
    ports.push((srv.address() as net.AddressInfo).port);
  }
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  return ports;
}
