import type { ProtocolSession, PushResult } from '../../engines/canvas/printer-context.ts';

/**
 * Feeding an engine in slices. Every Durable Object of a `wrangler dev` shares one
 * thread (and a Cloudflare isolate may host several): a 64 KiB frame of tiny rasters or QR codes
 * rendered in one go held every other printer for seconds. Between slices the object yields to
 * the event loop (a timer: only that lets other objects' network events in), so other printers'
 * frames and API calls run in between.
 *
 * The slice size adapts to what the bytes cost. workerd's clock stands still during synchronous
 * work and moves on at I/O, timers included, so the time from one resumption to the next is
 * what the last slice cost (plus whatever ran in between): slices that took long are halved,
 * cheap ones doubled. Plain text grows to large slices (a yield costs ~1 ms in workerd, so
 * fixed 1 KiB slices made a 16 MiB job ten times slower); a bomb shrinks to small ones.
 */
const MIN_SLICE = 256;
const MAX_SLICE = 256 * 1024;
/** A slice taking longer than this is halved; under a quarter of it, doubled. */
const TARGET_MS = 20;

export function yieldToOthers(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** One per print session: remembers the slice size that suits the job's bytes. */
export class SlicePacer {
  private slice = 4 * 1024;

  get sliceBytes(): number {
    return this.slice;
  }

  /** Feeds `bytes` to `push` slice by slice, yielding in between; `deliver` gets each result. */
  async feed(bytes: Uint8Array, push: (slice: Uint8Array) => PushResult, deliver: (result: PushResult) => void): Promise<void> {
    let offset = 0;
    let resumedAt = Date.now();
    while (offset < bytes.length) {
      if (offset > 0) {
        await yieldToOthers();
        const took = Date.now() - resumedAt;
        if (took > TARGET_MS) this.slice = Math.max(MIN_SLICE, this.slice >> 1);
        else if (took < TARGET_MS / 4) this.slice = Math.min(MAX_SLICE, this.slice << 1);
        resumedAt = Date.now();
      }
      const end = Math.min(bytes.length, offset + this.slice);
      deliver(push(bytes.subarray(offset, end)));
      offset = end;
    }
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
