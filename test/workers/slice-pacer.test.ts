/**
 * The pacer yields to the event loop between slices of a job however its bytes arrive: a
 * session's frames are fed one after another on a promise chain, and frames smaller than a
 * slice used to be fed back to back without a yield, holding every other printer for the whole
 * job. Here another printer's work is a timer chain; it must get turns while the job is fed.
 */
import { describe, expect, it } from 'vitest';
import { SlicePacer } from '../../src/worker/objects/slices.ts';

const nothing = { replies: [], events: [] };

describe('SlicePacer', () => {
  it('lets a timer of another printer run between frames fed back to back', async () => {
    const pacer = new SlicePacer();
    const frames = Array.from({ length: 2000 }, () => new Uint8Array(1024));
    let fedBytes = 0;
    const seenByOther: number[] = [];
    let stop = false;
    const other = (async () => {
      while (!stop) {
        await new Promise((r) => setTimeout(r, 0));
        seenByOther.push(fedBytes);
      }
    })();
    let fed: Promise<void> = Promise.resolve();
    for (const f of frames) fed = fed.then(() => pacer.feed(f, (s) => { fedBytes += s.length; return nothing; }, () => {}));
    await fed;
    stop = true;
    await other;
    expect(fedBytes).toBe(2000 * 1024);
    // The other printer ran while the job was part fed, not only before it began or after it ended.
    expect(seenByOther.some((n) => n > 0 && n < fedBytes)).toBe(true);
  });

  it('feeds every byte in order across frames and slices', async () => {
    const pacer = new SlicePacer();
    const out: number[] = [];
    let fed: Promise<void> = Promise.resolve();
    for (let k = 0; k < 50; k++) {
      const frame = Uint8Array.from({ length: 3000 }, (_, i) => (k * 3000 + i) & 0xff);
      fed = fed.then(() => pacer.feed(frame, (s) => { out.push(...s); return nothing; }, () => {}));
    }
    await fed;
    expect(out.length).toBe(150_000);
    expect(out.every((b, i) => b === (i & 0xff))).toBe(true);
  });
});
