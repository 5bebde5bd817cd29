/**
 * EPL2 engine throughput: a 4x6 inch shipping label (Code 128, MaxiCode, 20 text fields)
 * parsed and rendered with PNG encoding. Every label has its own tracking number, so bar codes
 * and PNGs are really rendered (no cache hits). Target: >= 500 labels per second on one core.
 */
import { createEplSession } from '../src/engines/epl/index.ts';
import type { PrinterContext } from '../src/engines/canvas/printer-context.ts';
import { shippingLabel } from '../test/engines/epl/fixtures.ts';
import { labelPrinterContext } from '../test/support/printer-context.ts';

const ctx: PrinterContext = labelPrinterContext();

const enc = (s: string): Uint8Array => Uint8Array.from(s, (c) => c.charCodeAt(0) & 0xff);

function tracking(i: number): string {
  return `1Z${String(100000 + (i % 900000)).padStart(6, '0')}E0${String(200000000 + i).slice(-9)}`.slice(0, 18);
}

const JOBS = 4000;
const jobs: Uint8Array[] = Array.from({ length: JOBS }, (_, i) => enc(shippingLabel(tracking(i))));

function once(i: number): number {
  const s = createEplSession(() => ctx);
  s.push(jobs[i % JOBS]);
  const job = s.finish();
  if (job.errorMessages.length) throw new Error(job.errorMessages.join('; '));
  let pngBytes = 0;
  for (const c of job.canvases) for (const el of c.items) if (el.type === 'image') pngBytes += el.image.png.length;
  return pngBytes;
}

export async function run(): Promise<void> {
  let i = 0;
  // Warm up the JIT (labels rendered here are not measured again: the first rounds use new ones).
  for (const end = performance.now() + 1000; performance.now() < end; ) once(JOBS - 1 - (i++ % 200));
  i = 0;
  const rounds: number[] = [];
  let pngBytes = 0;
  for (let r = 0; r < 3; r++) {
    let n = 0;
    const t0 = performance.now();
    while (performance.now() - t0 < 2000 && i < JOBS - 200) {
      pngBytes += once(i++);
      n++;
    }
    rounds.push((n * 1000) / (performance.now() - t0));
  }
  const best = Math.max(...rounds);
  console.log(`epl: 4x6 shipping label (Code 128 + MaxiCode + 20 text fields, PNG encoded), unique per label`);
  console.log(`epl: ${rounds.map((x) => x.toFixed(0)).join(' / ')} labels/s (best ${best.toFixed(0)}, ${(1000 / best).toFixed(2)} ms per label), target >= 500`);
  console.log(`epl: ${(pngBytes / i).toFixed(0)} PNG bytes per label on average`);
  // The same label again and again (copies, reprints): bar codes come from the cache.
  let n = 0;
  const t0 = performance.now();
  while (performance.now() - t0 < 1000) {
    once(7);
    n++;
  }
  console.log(`epl: ${((n * 1000) / (performance.now() - t0)).toFixed(0)} labels/s when the same label is reprinted`);
}
