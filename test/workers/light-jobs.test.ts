/**
 * Light jobs go first (src/worker/objects/light-jobs.ts): while another printer's receipt is
 * being stored, a heavy job's yields wait, so the receipt's turns follow each other instead of
 * each waiting behind one of the heavy job's steps; a receipt that never ends slows the heavy
 * job, never stops it. The heavy job is a SlicePacer whose every piece is a whole slice of work.
 */
import { describe, expect, it } from 'vitest';
import { SlicePacer } from '../../src/worker/objects/slices.ts';
import { LightJob } from '../../src/worker/objects/light-jobs.ts';

const nothing = { replies: [], events: [] };
const turn = () => new Promise<void>((r) => setTimeout(r, 0));

/** A job of `kib` KiB whose every push is a slice's worth of the engine's work: it yields after every push. */
function heavyJob(kib: number): { fed: Promise<void>; pushes: () => number; bytes: () => number } {
  let work = 0;
  let pushes = 0;
  let bytes = 0;
  const pacer = new SlicePacer(() => work);
  const fed = pacer.feed(new Uint8Array(kib * 1024), (slice) => { pushes++; bytes += slice.length; work += 2_000_000; return nothing; }, () => {});
  return { fed, pushes: () => pushes, bytes: () => bytes };
}

describe('light jobs first', () => {
  it("a receipt's turns run back to back while a heavy job is being fed", async () => {
    const heavy = heavyJob(400);
    // The heavy job is under way before the receipt arrives.
    while (heavy.pushes() < 3) await turn();
    const receipt = new LightJob();
    receipt.touch();
    const pushesBetweenTurns: number[] = [];
    await receipt.storing(async () => {
      // Storing a document takes several turns of the thread (storage writes, the stream event).
      for (let i = 0; i < 8; i++) {
        const before = heavy.pushes();
        await turn();
        pushesBetweenTurns.push(heavy.pushes() - before);
      }
    });
    await heavy.fed;
    expect(heavy.bytes()).toBe(400 * 1024);
    // Without giving way the heavy job ran a piece between most of the receipt's turns.
    expect(pushesBetweenTurns.reduce((a, b) => a + b, 0)).toBe(0);
  });

  it('a receipt that is never stored slows a heavy job but does not stop it', async () => {
    const stuck = new LightJob();
    let release!: () => void;
    const storing = stuck.storing(() => new Promise<void>((r) => { release = r; }));
    const heavy = heavyJob(5);
    await heavy.fed;
    expect(heavy.bytes()).toBe(5 * 1024);
    release();
    await storing;
  });
});
