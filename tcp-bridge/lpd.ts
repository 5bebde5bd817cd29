/**
 * LPD (RFC 1179) on LPD_PORT: Windows' "LPR port", CUPS' `lpd://host:port/queue`, `lpr`,
 * `rlpr`. The queue name picks the printer (its id, its TCP port as text, or its display
 * name, case-insensitive); each data file of a received job is printed as one document
 * (`transport` Lpd) through the printer's Durable Object, like an HTTP print request.
 * Queue-state commands answer a short text; remove-jobs has nothing to remove (jobs print at once).
 */
import net from 'node:net';
import { errorMessage, type Logger } from './log.ts';
import { forwardRequest } from './http-printer.ts';
import type { ListenerSpec } from '../src/shared/bridge-protocol.ts';
import { normalizeClientAddress } from './whitelist.ts';


const ACK = Buffer.of(0);
const NACK = Buffer.of(1);
/** A command line longer than this is not LPD. */
const MAX_LINE = 4096;
/** A connection silent this long is closed. */
const IDLE_MS = 30_000;

export interface LpdQueue {
  spec: ListenerSpec;
  /** Whether the printer's whitelist lets this client print. */
  allows(client: string): boolean;
}

export interface LpdHost {
  workerUrl: string;
  secret: string;
  log: Logger;
  /** The printer a queue name names; null for none, 'ambiguous' for a display name several printers share. */
  queue(name: string): LpdQueue | 'ambiguous' | null;
}

/** Reads a socket as LPD does: command lines, and files of a known length followed by a NUL. */
class Reader {
  private buf = Buffer.alloc(0);
  private wake: (() => void) | null = null;
  private ended = false;

  constructor(socket: net.Socket) {
    socket.on('data', (d: Buffer) => { this.buf = this.buf.length ? Buffer.concat([this.buf, d]) : d; this.wake?.(); });
    socket.on('end', () => { this.ended = true; this.wake?.(); });
    socket.on('close', () => { this.ended = true; this.wake?.(); });
  }

  private async more(): Promise<boolean> {
    if (this.ended) return false;
    await new Promise<void>((r) => (this.wake = r));
    this.wake = null;
    return true;
  }

  /** The next line without its LF; null at the end of the connection. */
  async line(): Promise<Buffer | null> {
    for (;;) {
      const at = this.buf.indexOf(0x0a);
      if (at >= 0) {
        const line = this.buf.subarray(0, at);
        this.buf = this.buf.subarray(at + 1);
        return line;
      }
      if (this.buf.length > MAX_LINE) throw new Error('command line too long');
      if (!(await this.more())) return null;
    }
  }

  /** `n` bytes (n = 0: everything until the client ends), then the NUL that ends a file. */
  async file(n: number, max: number): Promise<Buffer | null> {
    if (n > max) throw new Error(`file of ${n} bytes is larger than the maximum job size of ${max} bytes`);
    if (n === 0) {
      while (await this.more()) if (this.buf.length > max) throw new Error(`file larger than the maximum job size of ${max} bytes`);
      const all = this.buf;
      this.buf = Buffer.alloc(0);
      return all;
    }
    while (this.buf.length < n + 1) if (!(await this.more())) return null;
    const file = this.buf.subarray(0, n);
    this.buf = this.buf.subarray(n + 1);
    return file;
  }
}

export class LpdServer {
  private server: net.Server | null = null;
  private readonly sockets = new Set<net.Socket>();
  private readonly host: LpdHost;
  /** The port it listens on; null until it does (or when the bind failed). */
  port: number | null = null;

  constructor(host: LpdHost) {
    this.host = host;
  }

  listen(port: number, bindHost: string): Promise<void> {
    const server = net.createServer((socket) => void this.serve(socket));
    this.server = server;
    return new Promise((resolve) => {
      server.once('error', (err) => {
        this.host.log.warn('lpd.bind_failed', { port, error: errorMessage(err) });
        this.server = null;
        resolve();
      });
      server.listen({ port, host: bindHost }, () => {
        this.port = (server.address() as net.AddressInfo).port;
        this.host.log.info('lpd.listening', { port: this.port, host: bindHost });
        resolve();
      });
    });
  }

  close(): void {
    this.server?.close();
    for (const s of this.sockets) s.destroy();
  }

  private async serve(socket: net.Socket): Promise<void> {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', () => { /* the client went away */ });
    socket.setTimeout(IDLE_MS, () => socket.destroy());
    const client = normalizeClientAddress(socket.remoteAddress);
    const reader = new Reader(socket);
    try {
      const first = await reader.line();
      if (!first || first.length < 1) return;
      const code = first[0];
      const operands = first.subarray(1).toString('latin1');
      const [firstWord = '', ...rest] = operands.split(/[ \t]+/);
      // Receive-job's operand is the queue alone, so a display name with spaces names its
      // printer; the other commands list more operands after the queue.
      const queueName = code === 0x02 || this.host.queue(operands) ? operands : firstWord;
      const found = this.host.queue(queueName);
      const queue = found === 'ambiguous' ? null : found;
      const allowed = queue?.allows(client) ?? false;
      switch (code) {
        case 0x01: // print any waiting jobs: every job printed on arrival
          return;
        case 0x02:
          if (!queue || !allowed) {
            socket.write(NACK);
            this.host.log.info('lpd.job', { queue: queueName, client, outcome: queue ? 'refused' : found === 'ambiguous' ? 'ambiguous-queue' : 'unknown-queue' });
            return;
          }
          socket.write(ACK);
          await this.receiveJob(socket, reader, queue.spec, client);
          return;
        case 0x03:
        case 0x04: {
          const name = queue?.spec.displayName || queueName;
          socket.end(queue ? `${name}: ready and printing\nno entries\n`
            : found === 'ambiguous' ? `${queueName}: more than one printer has this name; name the queue by the printer's port or id\n`
            : `${queueName}: unknown printer\n`);
          return;
        }
        case 0x05: // remove jobs: nothing waits in an LPD queue here
          this.host.log.info('lpd.remove', { queue: queueName, client, agent: rest[0] ?? '', jobs: rest.slice(1) });
          return;
        default:
          this.host.log.info('lpd.unknown_command', { code, client });
      }
    } catch (e) {
      this.host.log.info('lpd.error', { client, error: errorMessage(e) });
    } finally {
      if (!socket.destroyed) socket.end();
    }
  }

  /** Subcommands of receive-job (RFC 1179 section 6) until the client ends. */
  private async receiveJob(socket: net.Socket, reader: Reader, spec: ListenerSpec, client: string): Promise<void> {
    for (;;) {
      const line = await reader.line();
      if (!line || line.length === 0) return;
      const sub = line[0];
      if (sub === 0x01) return; // abort job
      const [countText, name = ''] = line.subarray(1).toString('latin1').split(' ');
      const count = Number(countText);
      if ((sub !== 0x02 && sub !== 0x03) || !Number.isInteger(count) || count < 0) {
        socket.write(NACK);
        return;
      }
      socket.write(ACK);
      const file = await reader.file(count, spec.maxJobBytes);
      if (file === null) return;
      socket.write(ACK);
      if (sub === 0x03) await this.print(spec, file, client, name);
    }
  }

  private async print(spec: ListenerSpec, data: Buffer, client: string, file: string): Promise<void> {
    const started = performance.now();
    try {
      const a = await forwardRequest(this.host, spec.printerId, 'Lpd', data, client, 0);
      this.host.log.info('lpd.job', { printerId: spec.printerId, client, file, bytes: data.length, documentId: a.documentId ?? undefined, durationMs: Math.round(performance.now() - started) });
    } catch (e) {
      this.host.log.warn('lpd.job_failed', { printerId: spec.printerId, client, file, bytes: data.length, error: errorMessage(e) });
    }
  }
}
