/**
 * The one-pass document builder (services/document-builder.ts) against the lean rules written
 * out element by element (services/lean-document.ts): the DTO JSON is byte for byte the lean
 * DTO's, the body (packed, or the DTO's JSON when someone waits for it) reads as it, and the text is the renderer's text of it. Jobs of
 * every kind of element: text, pictures (one drawn twice), barcodes, long raster commands
 * (commandRaw cut), ZPL labels.
 */
import { describe, expect, it } from 'vitest';
import { createProtocolSession } from '../../src/engines/index.ts';
import type { CanvasElement, RenderedJob } from '../../src/engines/canvas/model.ts';
import { renderText, type RenderCanvas } from '../../src/engines/render/index.ts';
import { buildDocument, type MediaRef } from '../../src/worker/services/document-builder.ts';
import { leanElement } from '../../src/worker/services/lean-document.ts';
import { documentJsonOfBody, PACKED_MARK } from '../../src/worker/services/packed-document.ts';
import { textReceipt, imageReceipt } from '../../bench/escpos.bench.ts';
import { testPrinterContext } from '../support/printer-context.ts';

function render(protocol: 'EscPos' | 'Zpl', bytes: Uint8Array): RenderedJob {
  const session = createProtocolSession(protocol, () => testPrinterContext({ widthInDots: 576 }));
  session.push(bytes);
  return session.finish();
}

const ascii = (s: string) => new TextEncoder().encode(s);
const tinyRasters = Uint8Array.from([0x1b, 0x40, ...Array.from({ length: 50 }, (_, i) => [0x1d, 0x76, 0x30, 0, 1, 0, 2, 0, i, 255 - i]).flat(), 0x1d, 0x76, 0x30, 0, 1, 0, 2, 0, 7, 248, 0x0a]);
const JOBS: [string, 'EscPos' | 'Zpl', Uint8Array][] = [
  ['text receipt', 'EscPos', textReceipt()],
  ['logo, QR and CODE128', 'EscPos', imageReceipt()],
  ['text in two code pages with underline and upside-down', 'EscPos', Uint8Array.from([0x1b, 0x40, 0x1b, 0x2d, 2, ...ascii('Grüße \t tab\n'), 0x1b, 0x74, 17, 0x1b, 0x7b, 1, 0xe0, 0xe1, 0x0a, 0x1d, 0x56, 0x00])],
  ['3,000 lines (pauses while building)', 'EscPos', ascii(Array.from({ length: 3000 }, (_, i) => `line ${i}\n`).join(''))],
  ['tiny rasters, one drawn twice', 'EscPos', tinyRasters],
  ['ZPL label', 'Zpl', ascii('^XA^FO50,50^A0N,40,40^FDHello^FS^FO50,120^BCN,80,Y,N,N^FD12345678^FS^FO50,300^GB300,100,4^FS^XZ')],
];

function mediaFor(png: Uint8Array): MediaRef {
  return { contentType: 'image/png', size: png.length, url: `/api/media/${png.length}`, storageKey: `media/${png.length}.png` };
}

/** The lean DTO as lean-document.ts describes it, element by element. */
function leanDto(job: RenderedJob, head: object, tail: object) {
  const lean = (el: CanvasElement) => {
    if (el.type !== 'image') return leanElement(el);
    const { image, ...rest } = leanElement(el);
    return { ...rest, media: mediaFor(image.png) };
  };
  return {
    ...head,
    canvases: job.canvases.map((c) => ({ widthInDots: c.widthInDots, ...(c.heightInDots != null && { heightInDots: c.heightInDots }), items: c.items.map(lean) })),
    ...tail,
  };
}

describe('document builder', () => {
  for (const [name, protocol, bytes] of JOBS) {
    it(`${name}: DTO JSON, both forms of the body and text are the lean DTO's`, async () => {
      const job = render(protocol, bytes);
      const head = { id: 'd', printJobId: 'j', printerId: 'p', timestamp: '2026-01-01T00:00:00.000Z', protocol, transport: 'Tcp' as const, isStatusPoll: job.isStatusPoll };
      const tail = { clientAddress: '10.0.0.1', bytesReceived: job.bytesReceived, bytesSent: 0, errorMessages: ['e'] };
      const expected = JSON.stringify(leanDto(job, head, tail));
      for (const form of ['packed', 'dto'] as const) {
        let pauses = 0;
        const built = await buildDocument(head, job.canvases, tail, mediaFor, async () => { pauses++; }, form);
        expect(built.json()).toBe(expected);
        if (form === 'dto') expect(built.body).toBe(expected);
        else expect(built.body.startsWith(PACKED_MARK)).toBe(true);
        expect(documentJsonOfBody(built.body, job.isStatusPoll)).toBe(expected);
        expect(built.text).toBe(renderText(JSON.parse(expected).canvases as RenderCanvas[]));
        const elements = job.canvases.reduce((n, c) => n + c.items.length, 0);
        // Between steps of 2,000 elements, each made lean and serialised.
        if (elements <= 2_000) expect(pauses).toBe(0);
        else expect(pauses).toBeGreaterThanOrEqual(Math.ceil(elements / 2_000) - 1);
      }
    });
  }

  it('the jobs hold what the comparison is about', () => {
    const all = JOBS.flatMap(([, p, b]) => render(p, b).canvases.flatMap((c) => c.items));
    for (const type of ['text', 'image', 'box', 'debug']) expect(all.some((e) => e.type === type)).toBe(true);
    expect(all.some((e) => e.type === 'debug' && e.commandRaw.length > 128)).toBe(true);
    const pngs = all.flatMap((e) => (e.type === 'image' ? [e.image.png] : []));
    expect(new Set(pngs).size).toBeLessThan(pngs.length);
  });
});
