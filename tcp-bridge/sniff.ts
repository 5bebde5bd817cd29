/**
 * What a connection to a printer's port is, told from its first bytes (extensions.md "HTTP
 * printers on the printer's own port"): a TLS ClientHello (0x16 0x03) is HTTPS, an HTTP/1.x
 * request line (a method and a space) is HTTP, anything else is a raw print job. A first byte
 * that can start neither is decided at once, so a raw job (ESC, GS, DLE, most text) is never
 * held back; only bytes that are a prefix of a method wait for the next ones.
 */
import type { Socket } from 'node:net';

export type ConnectionKind = 'tls' | 'http' | 'raw';

const METHODS = ['GET ', 'POST ', 'PUT ', 'HEAD ', 'OPTIONS ', 'DELETE ', 'PATCH '].map((m) => Buffer.from(m, 'latin1'));
const TLS_HANDSHAKE = 0x16, TLS_MAJOR = 0x03;

/** The kind of a connection whose first bytes are `head`; null while they could still be either. */
export function classify(head: Buffer): ConnectionKind | null {
  if (head.length === 0) return null;
  if (head[0] === TLS_HANDSHAKE) return head.length < 2 ? null : head[1] === TLS_MAJOR ? 'tls' : 'raw';
  let undecided = false;
  for (const m of METHODS) {
    const n = Math.min(m.length, head.length);
    if (head.compare(m, 0, n, 0, n) !== 0) continue;
    if (n === m.length) return 'http';
    undecided = true;
  }
  return undecided ? null : 'raw';
}

export interface Sniffed {
  kind: ConnectionKind;
  /** The bytes read to decide, no longer in the socket. */
  head: Buffer;
  /** The client ended its side while we were deciding: `head` is the whole job. */
  ended: boolean;
}

/**
 * Reads a paused socket's first bytes until they decide its kind, then pauses it again; the
 * bytes read are in `head` (the caller puts them back or replays them).
 * A client silent for `idleMs` is `raw` with nothing read: the raw session's own idle timeout ends it.
 */
export function sniff(socket: Socket, idleMs: number): Promise<Sniffed> {
  return new Promise((resolve) => {
    let head = Buffer.alloc(0);
    let settled = false;
    const done = (kind: ConnectionKind, ended: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.off('data', onData);
      socket.off('end', onEnd);
      socket.off('close', onEnd);
      socket.pause();
      resolve({ kind, head, ended });
    };
    const onData = (chunk: Buffer) => {
      head = head.length ? Buffer.concat([head, chunk]) : chunk;
      const kind = classify(head);
      if (kind) done(kind, false);
    };
    const onEnd = () => done('raw', true);
    const timer = setTimeout(() => done('raw', false), idleMs);
    socket.on('data', onData);
    socket.once('end', onEnd);
    socket.once('close', onEnd);
    socket.resume();
  });
}
