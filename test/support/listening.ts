/**
 * Which TCP ports processes listen on, from /proc (what `ss -ltnp` shows, without needing it):
 * listening sockets of /proc/net/tcp and tcp6 matched to the processes' open descriptors.
 */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/** Socket inode → port, for every TCP socket in LISTEN state. */
function listeningSockets(): Map<string, number> {
  const out = new Map<string, number>();
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = '';
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.trim().split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      // local_address is ADDR:PORT in hex; state 0A is LISTEN; inode is the tenth field.
      if (f[3] === '0A') out.set(f[9], parseInt(f[1].split(':')[1], 16));
    }
  }
  return out;
}

/** The ports each of `pids` listens on (a process that is gone has none). */
export function listeningPorts(pids: readonly number[]): { pid: number; port: number }[] {
  const sockets = listeningSockets();
  const out: { pid: number; port: number }[] = [];
  for (const pid of pids) {
    let fds: string[] = [];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
        const port = m && sockets.get(m[1]);
        if (port) out.push({ pid, port });
      } catch {
        /* closed meanwhile */
      }
    }
  }
  return out;
}
