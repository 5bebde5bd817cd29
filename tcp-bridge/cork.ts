import type { Socket } from 'node:net';

const corked = new WeakSet<Socket>();

/**
 * Writes made to `socket` for the rest of this tick leave together, in one system call, when
 * the tick ends. On loopback every write costs the kernel a full trip through the network
 * stack (and the Worker one more read): a burst of connections gets much cheaper.
 */
export function corkForTick(socket: Socket | null | undefined): void {
  if (!socket || corked.has(socket)) return;
  corked.add(socket);
  socket.cork();
  process.nextTick(() => {
    corked.delete(socket);
    socket.uncork();
  });
}
