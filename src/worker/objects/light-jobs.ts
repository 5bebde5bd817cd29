/**
 * Light jobs go first on the thread every printer object shares (all of them under `wrangler
 * dev`, several in one Cloudflare isolate). A receipt's document needs several turns of that
 * thread (its frames, its end, storing it, its stream event); a heavy job that merely yields
 * between steps lets each of those turns in after one of its steps, so a receipt waits behind
 * as many heavy steps as it has turns, and each step takes two or three times as long when the
 * machine is busy. Instead, a heavy job's yield (`yieldToOthers`) gives way while any light
 * job is running: the receipt waits for at most the one step that held the thread when it
 * arrived, and its other turns follow without waiting.
 *
 * A job is light until it first yields (`LightJob.yield`): a job that fits in one step never
 * does. It counts as running while it is being stored (`storing`) and for `LINGER_MS` after
 * anything it did (`touch`: a frame, a status query, its stored document's stream event still
 * being written out); an idle open connection stops counting after that. A heavy job gives way
 * for at most `MAX_GIVE_WAY_MS` per yield, so a steady stream of receipts slows it, never stops it.
 * State is per isolate (module scope): that is what shares one thread.
 */
import { heavyStepDone } from './idle-collection.ts';

const LINGER_MS = 10;
const MAX_GIVE_WAY_MS = 50;
/** How often a heavy job looks again while it gives way (workerd fires timers about every ms). */
const LOOK_AGAIN_MS = 1;

const running = new Set<LightJob>();

const timer = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** One job (a print session, an HTTP job): light until it first yields. */
export class LightJob {
  private lastActiveAt = 0;
  private stores = 0;
  private heavy = false;

  /** The job did something now: it counts as running for `LINGER_MS` more. */
  touch(): void {
    if (this.heavy) return;
    this.lastActiveAt = Date.now();
    running.add(this);
  }

  /** The job counts as running until `work` (storing and announcing its document) settles. */
  async storing<T>(work: () => Promise<T>): Promise<T> {
    this.touch();
    this.stores++;
    try {
      return await work();
    } finally {
      this.stores--;
      this.touch();
    }
  }

  /** A yield of this job: from now on it is heavy and gives way to light jobs. */
  async yield(): Promise<void> {
    this.heavy = true;
    running.delete(this);
    await yieldToOthers();
  }

  isRunning(now: number): boolean {
    return !this.heavy && (this.stores > 0 || now - this.lastActiveAt < LINGER_MS);
  }
}

function lightJobsRunning(): boolean {
  const now = Date.now();
  for (const job of running) {
    if (job.isRunning(now)) return true;
    running.delete(job);
  }
  return false;
}

/**
 * The yield of heavy work (a job's slices and finishing steps, an import's decoding): collects
 * the step's garbage (idle-collection.ts), lets every waiting event in, then waits while light
 * jobs run (at most `MAX_GIVE_WAY_MS`).
 */
export async function yieldToOthers(): Promise<void> {
  heavyStepDone();
  await timer(0);
  const until = Date.now() + MAX_GIVE_WAY_MS;
  while (lightJobsRunning() && Date.now() < until) await timer(LOOK_AGAIN_MS);
}
