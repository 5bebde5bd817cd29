import type { ProtocolSession, PushResult } from '../../engines/canvas/printer-context.ts';
import { SlicePacer } from './slices.ts';

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
  readonly pacer = new SlicePacer();
  private readonly chunks: Uint8Array[] = [];
  private received = 0;

  constructor(
    readonly id: string,
    readonly clientAddress: string,
    readonly engine: ProtocolSession,
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
    return this.received;
  }

  rawBytes(): Uint8Array {
    const out = new Uint8Array(this.received);
    let offset = 0;
    for (const c of this.chunks) { out.set(c, offset); offset += c.length; }
    return out;
  }
}
