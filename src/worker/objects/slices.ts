import type { ProtocolSession, PushResult } from '../../engines/canvas/printer-context.ts';
import { LightJob } from './light-jobs.ts';

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
 * A slice ends at whichever comes first: its size in bytes, or about `TARGET_MS` of the
 * engine's rendering work (`ProtocolSession.workSpent`, checked after each piece of
 * `PIECE_BYTES`: a few bytes can hold a QR Code of 60 ms). The size adapts to what the bytes
 * cost. workerd's clock stands still during synchronous work and moves on at I/O, timers
 * included: the time from a slice's start to the resumption after it is what it cost, plus
 * whatever ran in between. Slices that took long are halved, cheap ones doubled: plain text
 * grows to large slices (a yield costs about 1 ms in workerd); a bomb shrinks to small ones. A
 * slice fed over several messages also counts the waits for them, so it is never halved on
 * that (only doubled when cheap even so). A yield is the job's `LightJob.yield`: a job that
 * needs more than one slice gives way to light jobs (light-jobs.ts).
 */
const MIN_SLICE = 256;
const MAX_SLICE = 256 * 1024;
/** A slice taking longer than this is halved; under a quarter of it, doubled. */
const TARGET_MS = 20;
/** Bytes pushed between two looks at the engine's work. */
const PIECE_BYTES = 1024;
/** Rendering work (core/budget.ts units) of about `TARGET_MS`: 1 M units is about 10 ms. */
const TARGET_WORK = 2_000_000;
/** The longest rest after one indivisible step (see `yield`). */
const MAX_REST_MS = 250;

/** One per print session: the slice size that suits the job's bytes, and what was fed since the last yield. */
export class SlicePacer {
  private slice = 4 * 1024;
  /** Bytes fed since the last yield, and the engine's work when it began and in the last push. */
  private fedSinceYield = 0;
  private workAtYield = 0;
  private lastPushWork = 0;
  /** When the slice being fed began: the resumption after the last yield, or the task that fed its first bytes. */
  private sliceStartedAt = Date.now();
  /** A later message's task fed part of the slice: its time includes the waits for them. */
  private spansTasks = false;

  /** `workSpent`: the engine's rendering work so far (ProtocolSession.workSpent); `job`: the job's standing on the shared thread. */
  constructor(private readonly workSpent: () => number = () => 0, private readonly job = new LightJob()) {}

  get sliceBytes(): number {
    return this.slice;
  }

  /** Feeds `bytes` to `push` slice by slice, yielding in between; `deliver` gets each result. */
  async feed(bytes: Uint8Array, push: (slice: Uint8Array) => PushResult, deliver: (result: PushResult) => void): Promise<void> {
    const now = Date.now();
    if (this.fedSinceYield === 0) this.startSlice(now);
    else if (now !== this.sliceStartedAt) {
      this.spansTasks = true;
      // A message arriving after the slice's time is up: the yield comes before its bytes.
      if (now - this.sliceStartedAt >= TARGET_MS) await this.yield();
    }
    let offset = 0;
    while (offset < bytes.length) {
      if (this.fedSinceYield >= this.slice || this.workSpent() - this.workAtYield >= TARGET_WORK) await this.yield();
      const end = Math.min(bytes.length, offset + PIECE_BYTES, offset + this.slice - this.fedSinceYield);
      const workBefore = this.workSpent();
      deliver(push(bytes.subarray(offset, end)));
      this.lastPushWork = this.workSpent() - workBefore;
      this.fedSinceYield += end - offset;
      offset = end;
    }
  }

  private startSlice(now: number): void {
    this.fedSinceYield = 0;
    this.workAtYield = this.workSpent();
    this.lastPushWork = 0;
    this.sliceStartedAt = now;
    this.spansTasks = false;
  }

  /**
   * A slice that took longer than the target in one task because of one push (its work alone
   * was the target's, or the slice was already the smallest) was a step the engine cannot
   * split: one large QR Code is 60 ms of bwip-js. However often the job yields, every other
   * printer's next step waits behind such a step, and a document takes several. The job then
   * rests as long as the step took, so the others run in between with at least half the thread.
   */
  private async yield(): Promise<void> {
    await this.job.yield();
    const took = Date.now() - this.sliceStartedAt;
    const byWork = this.workSpent() - this.workAtYield >= TARGET_WORK;
    if (took > TARGET_MS && !this.spansTasks) {
      if (this.lastPushWork >= TARGET_WORK || this.slice === MIN_SLICE) await new Promise((resolve) => setTimeout(resolve, Math.min(took, MAX_REST_MS)));
      this.slice = Math.max(MIN_SLICE, this.slice >> 1);
    } else if (took < TARGET_MS / 4 && !byWork) {
      this.slice = Math.min(MAX_SLICE, this.slice << 1);
    }
    this.startSlice(Date.now());
  }
}

/**
 * The engine's closing work (PNG encoding of a job's images) in bounded steps with a yield
 * after each: a receipt of 20,000 images or one picture of 30 M dots no longer holds the
 * thread for its whole `finish`. The clock stands still during synchronous work, so every
 * step yields (a step is about 10 ms of work, a yield about 1 ms).
 */
export async function finishInSteps(engine: ProtocolSession, pause: () => Promise<void>): Promise<void> {
  if (!engine.finishStep) return;
  while (engine.finishStep()) await pause();
}
