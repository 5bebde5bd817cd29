/**
 * ZPL II engine throughput: a 4x6 carrier label (Code 128 tracking and routing codes, a
 * PDF417, 20+ text fields, a ^GF logo) parsed and rendered with PNG encoding, unique per label
 * (its own tracking number, so symbols and PNGs are really rendered). Then the same labels to
 * the label's picture, a PNG of the whole page as the web UI and the API serve it (text drawn
 * with its fonts, font 0 from its outlines), in rounds alternating with zpl-renderer-js
 * (zebrash in WebAssembly) rendering the same labels to a PNG of the whole label: like for
 * like, the median of each side's rounds compared.
 * (The carrier label's MaxiCode is swapped for a PDF417: zebrash cannot draw MaxiCode.)
 */
import { ready } from 'zpl-renderer-js';
import type { Canvas } from '../src/engines/canvas/model.ts';
import type { PrinterContext } from '../src/engines/canvas/printer-context.ts';
import { createZplSession } from '../src/engines/zpl/index.ts';
import { renderPng } from '../src/engines/render/index.ts';
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

/** Engine, then the label's picture as a PNG (what zpl-renderer-js produces). */
async function picture(i: number): Promise<number> {
  const s = createZplSession(() => ctx);
  s.push(jobs[i % JOBS]);
  const job = s.finish();
  if (job.errorMessages.length) throw new Error(job.errorMessages.join('; '));
  return (await renderPng(job.canvases, { canvasIndex: 0 })).png.length;
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
  for (let k = 0; k < 20; k++) {
    await api.zplToBase64Async(texts[JOBS - 1 - k], 101.6, 152.4, 8);
    await picture(JOBS - 1 - k);
  }
  console.log('zpl: the same labels to a PNG picture of the whole label, rounds alternating with zpl-renderer-js (which goes first swaps every round)');
  const ours: number[] = [], theirs: number[] = [];
  let a = 0, b = 0;
  const sides = [
    async (r: number) => {
      const o = await rate(`Slipstream engine + label picture (PNG), round ${r + 1}`, (k) => picture(k), a, 1.5);
      ours.push(o.perSecond);
      a = o.next;
    },
    async (r: number) => {
      const z = await rate(`zpl-renderer-js (zebrash, WebAssembly) to PNG, round ${r + 1}`, (k) => api.zplToBase64Async(texts[k], 101.6, 152.4, 8), b, 1.5);
      theirs.push(z.perSecond);
      b = z.next;
    },
  ];
  for (let r = 0; r < 5; r++) for (const side of r % 2 ? [...sides].reverse() : sides) await side(r);
  const mid = (v: number[]) => [...v].sort((x, y) => x - y)[v.length >> 1];
  console.log(`zpl: engine median ${mid(rounds).toFixed(0)} labels/s; to a picture of the whole label (median of 5 alternating rounds): Slipstream ${mid(ours).toFixed(0)} labels/s vs zpl-renderer-js ${mid(theirs).toFixed(0)} labels/s (${(mid(ours) / mid(theirs)).toFixed(1)}x)`);
  await fontCost();
}

/**
 * What the bold font 0 costs a label printed to its picture: per label, the engine run once,
 * then its canvas drawn to a PNG with font 0 from its outlines and, right after, with the
 * bitmap glyph cells it was drawn with before (the same text elements under a bitmap font's
 * name), alternating which goes first. Interleaving label by label and taking the median of
 * the per-label ratios keeps a shared machine's load spikes out of the comparison.
 */
async function fontCost(): Promise<void> {
  const n = 300, passes = 3;
  const ratios: number[] = [], pictureRatios: number[] = [];
  let engine = 0, outline = 0, cells = 0;
  const time = async (f: () => Promise<unknown>): Promise<number> => {
    const t = performance.now();
    await f();
    return performance.now() - t;
  };
  for (let pass = 0; pass < passes; pass++) {
    for (let i = 0; i < n; i++) {
      let canvas!: Canvas;
      const e = await time(async () => {
        const s = createZplSession(() => ctx);
        s.push(jobs[i]);
        canvas = s.finish().canvases[0];
      });
      const asCells = { ...canvas, items: canvas.items.map((el) => (el.type === 'text' && el.fontName === 'ZplFont0' ? { ...el, fontName: 'ZplFont0Cells' } : el)) };
      let a: number, b: number;
      if ((i + pass) % 2 === 0) {
        a = await time(() => renderPng([canvas]));
        b = await time(() => renderPng([asCells]));
      } else {
        b = await time(() => renderPng([asCells]));
        a = await time(() => renderPng([canvas]));
      }
      engine += e;
      outline += a;
      cells += b;
      ratios.push((e + a) / (e + b));
      pictureRatios.push(a / b);
    }
  }
  const median = (v: number[]): number => v.sort((x, y) => x - y)[v.length >> 1];
  const labels = n * passes;
  console.log(`zpl: label to picture, interleaved per label (${labels} labels): engine ${(engine / labels).toFixed(2)} ms + PNG ${(outline / labels).toFixed(2)} ms with font 0 from outlines vs ${(cells / labels).toFixed(2)} ms with bitmap cells (means)`);
  console.log(`zpl: the bold font 0 costs ${((median(ratios) - 1) * 100).toFixed(1)} % per label printed to its picture (median of per-label ratios; the picture alone ${((median(pictureRatios) - 1) * 100).toFixed(1)} %)`);
}
