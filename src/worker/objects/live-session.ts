import type { ProtocolSession, PushResult } from '../../engines/canvas/printer-context.ts';
import { SlicePacer } from './slices.ts';
import { LightJob } from './light-jobs.ts';
import type { Transport } from '../../shared/transports.ts';
import type { DocumentStream } from '../services/document-store.ts';

import type { EndReason } from '../../shared/bridge-protocol.ts';

/** How a session's job ended: as the bridge reported it, or `lost` (its WebSocket closed before `end`). */
export type SessionEnd = EndReason | 'lost';

/** One open TCP connection's print job inside the printer Durable Object. */
export class LiveSession {
  socket: WebSocket | null = null;
  bytesSent = 0;
  ended = false;
  /** The bridge sent `end`: the job is whole, finalisation follows once its frames are fed. */
  endReceived = false;
  /** True when bytes beyond the maximum job size arrived and were refused. */
  truncated = false;
  readonly extraErrors: string[] = [];
  /**
   * The session's frames, fed to the engine in order, slice by slice (feedInSlices): whatever
   * handles the session next (`end`, a lost socket) runs after this.
   */
  fed: Promise<void> = Promise.resolve();
  /** The job's standing on the thread printer objects share: light until it first yields. */
  readonly light = new LightJob();
  readonly pacer = new SlicePacer(() => this.engine.workSpent?.() ?? 0, this.light);
  private readonly chunks: Uint8Array[] = [];
  private received = 0;
  /** The chunks joined so far (rawSoFar), grown by doubling. */
  private joined = new Uint8Array(0);
  /** The job's document written while it prints (services/document-store.ts streamDocument), if it is. */
  document: DocumentStream | null = null;

  constructor(
    readonly id: string,
    readonly clientAddress: string,
    readonly engine: ProtocolSession,
    /** How the job arrived: a session WebSocket carries raw TCP bytes; imports and HTTP jobs say so. */
    readonly transport: Transport = 'Tcp',
  ) {}

  /** Feeds bytes to the engine, keeping a copy so the document can be rendered again. */
  receive(bytes: Uint8Array, maxJobBytes: number): PushResult {
    const room = maxJobBytes - this.received;
    if (room <= 0) {
      this.truncated = true;
      return { replies: [], events: [] };
    }
    const accepted = bytes.length > room ? bytes.subarray(0, room) : bytes;
    if (accepted.length < bytes.length) this.truncated = true;
    // Callers hand over fresh buffers (a WebSocket frame, a request body): keep, don't copy.
    this.chunks.push(accepted);
    this.received += accepted.length;
    return this.engine.push(accepted);
  }

  get bytesReceived(): number {
    return this.asReceived?.length ?? this.received;
  }

  /**
   * The job arrived as one request whose body is not what the engine runs (ePOS-Print XML
   * translated to ESC/POS): the document keeps the body as received.
   */
  receivedAs(body: Uint8Array): void {
    this.asReceived = body;
  }
  private asReceived: Uint8Array | null = null;

  /** The raw bytes as far as they came, in one buffer (a streamed document reads them batch by batch). */
  rawSoFar(): Uint8Array {
    if (this.asReceived) return this.asReceived;
    // A job fed from one buffer (an import, a recovered job) is its slices in order: no copy.
    const whole = this.joined.length === 0 ? contiguousView(this.chunks, this.received) : null;
    if (whole) return whole;
    if (this.chunks.length > 0) {
      let offset = this.received - this.chunks.reduce((n, c) => n + c.length, 0);
      if (this.joined.length < this.received) {
        const grown = new Uint8Array(Math.max(this.received, 2 * this.joined.length));
        grown.set(this.joined.subarray(0, offset));
        this.joined = grown;
      }
      for (const c of this.chunks) { this.joined.set(c, offset); offset += c.length; }
      this.chunks.length = 0;
    }
    return this.joined.subarray(0, this.received);
  }

  /** The raw bytes whole; a copy only when they sit in a larger buffer (the joined one's room to grow). */
  rawBytes(): Uint8Array {
    const raw = this.rawSoFar();
    return raw.length === raw.buffer.byteLength || raw.buffer !== this.joined.buffer ? raw : raw.slice();
  }
}

/** The chunks as one view when they are consecutive slices of one buffer, else null. */
function contiguousView(chunks: Uint8Array[], length: number): Uint8Array | null {
  const first = chunks[0];
  if (!first) return null;
  for (let i = 1; i < chunks.length; i++) {
    if (chunks[i].buffer !== first.buffer || chunks[i].byteOffset !== chunks[i - 1].byteOffset + chunks[i - 1].length) return null;
  }
  return new Uint8Array(first.buffer, first.byteOffset, length);
}
