import type { ProtocolSession, PushResult } from '../../engines/canvas/printer-context.ts';

/**
 * Feeding an engine in slices. Every Durable Object of a `wrangler dev` shares one
 * thread (and a Cloudflare isolate may host several): a 64 KiB frame of tiny rasters or QR codes
 * rendered in one go held every other printer for seconds. Between slices the object yields to
 * the event loop with a timer: only that lets other objects' network events in. A session's
 * next WebSocket message does not: workerd reads it from a socket that already holds it and
 * delivers it without looking at any other socket, so frames fed one message after another,
 * each without a timer in between, held every other printer for the whole job (a 16 MiB job
 * arrives as 256 frames of 64 KiB). A slice therefore spans frames: the pacer counts what was
 * fed since its last yield, not since the last message.
 *
 * The slice size adapts to what the bytes cost. workerd's clock stands still during synchronous
 * work and moves on at I/O, timers included: the time from a slice's start to the resumption
 * after it is what it cost, plus whatever ran in between (and, for a slice fed over several
 * messages, the waits for them). Slices that took long are halved, cheap ones doubled: plain
 * text grows to large slices (a yield costs about 1 ms in workerd); a bomb shrinks to small ones.
 * A job whose frames trickle in halves its slice after a wait and doubles it back within the
 * next frame.
 */
const MIN_SLICE = 256;
const MAX_SLICE = 256 * 1024;
/** A slice taking longer than this is halved; under a quarter of it, doubled. */
const TARGET_MS = 20;

export function yieldToOthers(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** One per print session: the slice size that suits the job's bytes, and what was fed since the last yield. */
export class SlicePacer {
  private slice = 4 * 1024;
  /** Bytes fed since the last yield. */
  private fedSinceYield = 0;
  /** When the slice being fed began: the resumption after the last yield, or the task that fed its first bytes. */
  private sliceStartedAt = Date.now();

  get sliceBytes(): number {
    return this.slice;
  }

  /** Feeds `bytes` to `push` slice by slice, yielding in between; `deliver` gets each result. */
  async feed(bytes: Uint8Array, push: (slice: Uint8Array) => PushResult, deliver: (result: PushResult) => void): Promise<void> {
    if (this.fedSinceYield === 0) this.sliceStartedAt = Date.now();
    // A message arriving after the slice's time is up: the yield comes before its bytes.
    else if (Date.now() - this.sliceStartedAt >= TARGET_MS) await this.yield();
    let offset = 0;
    while (offset < bytes.length) {
      if (this.fedSinceYield >= this.slice) await this.yield();
      const end = Math.min(bytes.length, offset + this.slice - this.fedSinceYield);
      deliver(push(bytes.subarray(offset, end)));
      this.fedSinceYield += end - offset;
      offset = end;
    }
  }

  private async yield(): Promise<void> {
    await yieldToOthers();
    const resumedAt = Date.now();
    const took = resumedAt - this.sliceStartedAt;
    if (took > TARGET_MS) this.slice = Math.max(MIN_SLICE, this.slice >> 1);
    else if (took < TARGET_MS / 4) this.slice = Math.min(MAX_SLICE, this.slice << 1);
    this.fedSinceYield = 0;
    this.sliceStartedAt = resumedAt;
  }
}

/**
 * The engine's closing work (PNG encoding of a job's images) in bounded steps with a yield
 * after each: a receipt of 20,000 images or one picture of 30 M dots no longer holds the
 * thread for its whole `finish`. The clock stands still during synchronous work, so every
 * step yields (a step is about 10 ms of work, a yield about 1 ms).
 */
export async function finishInSteps(engine: ProtocolSession): Promise<void> {
  if (!engine.finishStep) return;
  while (engine.finishStep()) await yieldToOthers();
}
