/**
 * The renderer's PNG against an independent picture of the same receipt: receiptline turns one
 * receipt description into ESC/POS (run through our engine and renderer) and into SVG, which
 * real Chromium rasterises at 1 CSS px = 1 dot. Fonts differ (Chromium draws the SVG's
 * monospace font, we draw Unifont) but every glyph, QR module and bar must land in the same
 * place. Measure: intersection over union of the black dots after dilating both pictures by
 * 2 dots (a 5x5 square), per region: the QR code >= 0.9 and the bar code >= 0.85 (measured
 * 0.97 and 0.92), the text >= 0.4 (different typefaces in the same cells; measured 0.54 with
 * Debian's Liberation Mono), the whole page >= 0.8 (measured 0.90).
 * Needs no server: it lives with the browser tests only because it needs Chromium.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRequire } from 'node:module';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM } from './browser.ts';
import { Bitmap } from '../../src/engines/raster/bitmap.ts';
import { decodePngToBitmap } from '../../src/engines/raster/png.ts';
import { renderPng } from '../../src/engines/render/index.ts';
import { escposJob, eplJob, labelBytes, receiptBytes } from '../engines/render/fixtures.ts';
import { zpl } from '../engines/zpl/helpers.ts';
import { documentPaperHtml } from '../../web/src/render/paper.ts';
import type { RenderedDocumentDto } from '../../web/src/types.ts';
import { readFileSync } from 'node:fs';
import type { RenderedJob } from '../../src/engines/canvas/model.ts';

const require = createRequire(import.meta.url);
const receiptline = require('receiptline') as { transform: (doc: string, opts: Record<string, unknown>) => string };
const artifacts = join(process.cwd(), 'test-artifacts');

const DOC = [
  'SLIPSTREAM CAFE',
  'Espresso | 2.50',
  'Croissant | 3.20',
  'TOTAL | 5.70',
  '{code:https://slipstream.example/r/42; option:qrcode,6,M}',
  '{code:SLIP-0042; option:code128,2,80,nohri}',
  'Thank you!',
  '',
].join('\n');

function dilate(b: Bitmap, r: number): Bitmap {
  const out = new Bitmap(b.width, b.height);
  for (let y = 0; y < b.height; y++) for (let x = 0; x < b.width; x++) {
    if (!b.get(x, y)) continue;
    for (let dy = -r; dy <= r; dy++) for (let dx = -r; dx <= r; dx++) out.set(x + dx, y + dy);
  }
  return out;
}

/** IoU of black dots of `a` and `b` (dilated by `r`) within rows [y0, y1). */
function iou(a: Bitmap, b: Bitmap, y0: number, y1: number, r = 2): number {
  const da = dilate(a, r), db = dilate(b, r);
  let inter = 0, union = 0;
  for (let y = y0; y < Math.min(y1, a.height, b.height); y++) for (let x = 0; x < Math.min(a.width, b.width); x++) {
    const p = da.get(x, y), q = db.get(x, y);
    if (p && q) inter++;
    if (p || q) union++;
  }
  return union === 0 ? 0 : inter / union;
}

/** Rows [start, end) of each horizontal band of ink separated by >= `gap` white rows. */
function bands(b: Bitmap, gap = 4): [number, number][] {
  const out: [number, number][] = [];
  let start = -1, white = 0;
  for (let y = 0; y < b.height; y++) {
    let ink = false;
    for (let x = 0; x < b.width && !ink; x++) ink = b.get(x, y);
    if (ink) { if (start < 0) start = y; white = 0; } else if (start >= 0 && ++white >= gap) { out.push([start, y - white + 1]); start = -1; white = 0; }
  }
  if (start >= 0) out.push([start, b.height]);
  return out;
}

describe('renderer PNG vs receiptline SVG in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (.ci/run does this)`);
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--font-render-hinting=none'] });
  });
  afterAll(async () => { await browser?.close(); });

  it('QR, bar code and text land on the same dots', async () => {
    const escpos = receiptline.transform(DOC, { command: 'escpos', cpl: 48, encoding: 'cp437', cutting: false, spacing: false });
    const job = escposJob(Uint8Array.from(Buffer.from(escpos, 'binary')));
    const ours = decodePngToBitmap((await renderPng(job.canvases)).png);
    expect(ours.width).toBe(576);

    const svg = receiptline.transform(DOC, { command: 'svg', cpl: 48, charWidth: 12, spacing: false });
    const page = await browser.newPage({ viewport: { width: 576, height: 1200 }, deviceScaleFactor: 1 });
    // The SVG's web-font @import cannot load offline; Chromium falls back to the local monospace face.
    await page.setContent(`<html><body style="margin:0;background:#fff">${svg}</body></html>`);
    const shot = await page.locator('svg').screenshot({ omitBackground: false });
    await page.close();
    const theirs = decodePngToBitmap(shot);
    mkdirSync(artifacts, { recursive: true });
    writeFileSync(join(artifacts, 'render-ours.png'), (await renderPng(job.canvases)).png);
    writeFileSync(join(artifacts, 'render-receiptline-chromium.png'), shot);

    const height = Math.min(ours.height, theirs.height);
    const ob = bands(ours), tb = bands(theirs);
    // The QR code is the tallest band, the bar code the next tallest; text lines are the rest.
    const tallest = (bs: [number, number][]) => [...bs].sort((a, b) => (b[1] - b[0]) - (a[1] - a[0]));
    const [oq, ob2] = tallest(ob), [tq, tb2] = tallest(tb);
    const qrIou = iou(ours, theirs, Math.min(oq[0], tq[0]), Math.max(oq[1], tq[1]));
    const barIou = iou(ours, theirs, Math.min(ob2[0], tb2[0]), Math.max(ob2[1], tb2[1]));
    const textTop = Math.min(oq[0], tq[0]);
    const textIou = iou(ours, theirs, 0, textTop);
    const all = iou(ours, theirs, 0, height);
    console.log(`[render] IoU (2-dot dilation): QR ${qrIou.toFixed(3)}, bar code ${barIou.toFixed(3)}, text ${textIou.toFixed(3)}, page ${all.toFixed(3)}; heights ours ${ours.height}, Chromium ${theirs.height}`);
    expect(qrIou).toBeGreaterThanOrEqual(0.9);
    expect(barIou).toBeGreaterThanOrEqual(0.85);
    expect(textIou).toBeGreaterThanOrEqual(0.4);
    expect(all).toBeGreaterThanOrEqual(0.8);
  });

  /**
   * The page's paper for `job` at 1 CSS px per dot, black ink on white, screenshot in Chromium;
   * images left out on both sides, or (`withImages`) served as data URLs as media would be.
   */
  async function pagePaper(job: RenderedJob, protocol: 'EscPos' | 'Epl' | 'Zpl', withImages = false): Promise<Bitmap> {
    const asMedia = (e: RenderedJob['canvases'][number]['items'][number]) => e.type !== 'image' ? e
      : { ...e, image: undefined, media: { contentType: 'image/png', size: e.image.png.length, url: `data:image/png;base64,${Buffer.from(e.image.png).toString('base64')}`, storageKey: 'inline' } };
    const canvases = job.canvases.map((c) => ({ ...c, heightInDots: c.heightInDots ?? undefined, items: withImages ? c.items.map(asMedia) : c.items.filter((e) => e.type !== 'image') }));
    const doc = { id: '00000000-0000-4000-8000-000000000001', printJobId: '00000000-0000-4000-8000-000000000002', printerId: '00000000-0000-4000-8000-000000000003',
      timestamp: '2026-01-01T00:00:00Z', protocol, canvases, bytesReceived: 0, bytesSent: 0 } as RenderedDocumentDto;
    const css = readFileSync(join(process.cwd(), 'web/src/styles.css'), 'utf8');
    const page = await browser.newPage({ viewport: { width: 1400, height: 1400 }, deviceScaleFactor: 1 });
    await page.setContent(`<html><head><style>${css}</style></head><body style="margin:0"><div class="doc-list" style="--avail:100000;--ink:#000;--paper:#fff;--label-stock:#fff">${documentPaperHtml(doc)}</div></body></html>`);
    if (withImages) await page.waitForFunction(() => [...document.images].every((i) => i.complete));
    const shot = await page.locator('.paper').first().screenshot();
    await page.close();
    return decodePngToBitmap(shot);
  }

  it('the web page draws a reversed, mirrored ZPL label (text, boxes, graphics, bar codes XOR-ed) with the PNG\'s dots', async () => {
    const stripes = Array.from({ length: 20 }, (_, r) => (r % 2 ? 'F0'.repeat(20) : '00FF'.repeat(10))).join('');
    const { job } = zpl([
      '^XA^PW600^LL500^PMY^FO40,40^GB400,300,300^FS',
      '^FO300,80^FR^GB200,100,20^FS',
      `^FO20,120^FR^GFA,400,400,20,${stripes}^FS`,
      '^FO100,200^FR^BY2^BCN,80,Y,N^FDSLIP-42^FS',
      '^FO380,220^FR^BQN,2,4^FDQA,MIRROR^FS',
      '^FO60,60^FR^A0N,40,40^FDREVERSED^FS^FO200,380^ADR^FDTURNED^FS^XZ',
    ].join(''));
    expect(job.errorMessages).toEqual([]);
    const ours = decodePngToBitmap((await renderPng(job.canvases)).png);
    const web = await pagePaper(job, 'Zpl', true);
    mkdirSync(artifacts, { recursive: true });
    writeFileSync(join(artifacts, 'render-web-Zpl.png'), (await renderPng(job.canvases)).png);
    expect([web.width, web.height]).toEqual([ours.width, ours.height]);
    const exact = iou(ours, web, 0, ours.height, 0);
    console.log(`[render] web page vs PNG (reversed mirrored ZPL label, no dilation): IoU ${exact.toFixed(4)}`);
    expect(exact).toBeGreaterThanOrEqual(0.98);
  });

  for (const [name, job, protocol] of [['receipt', escposJob(receiptBytes()), 'EscPos'], ['EPL label', eplJob(labelBytes()), 'Epl']] as const) {
    it(`the web page draws the ${name}'s text with the PNG's dots`, async () => {
      const textOnly = job.canvases.map((c) => ({ ...c, items: c.items.filter((e) => e.type !== 'image') }));
      const ours = decodePngToBitmap((await renderPng(textOnly)).png);
      const web = await pagePaper(job, protocol);
      writeFileSync(join(artifacts, `render-web-${protocol}.png`), (await renderPng(textOnly)).png);
      expect([web.width, web.height]).toEqual([ours.width, ours.height]);
      const exact = iou(ours, web, 0, ours.height, 0);
      console.log(`[render] web page vs PNG (${name}, no dilation): IoU ${exact.toFixed(4)}`);
      expect(exact).toBeGreaterThanOrEqual(0.98);
    });
  }
});
