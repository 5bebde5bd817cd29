/**
 * The one-pass document builder (services/document-builder.ts) against the lean rules written
 * out element by element (services/lean-document.ts): the DTO JSON is byte for byte the lean
 * DTO's, made now (someone waits) or later, the compact body reads as it (with its raw bytes,
 * or with other bytes than the engine's), a body stored as the DTO's JSON reads as it, and the
 * text is the renderer's text of it. Jobs of
 * every kind of element: text, pictures (one drawn twice), barcodes, long raster commands
 * (commandRaw cut), ZPL labels.
 */
import { describe, expect, it } from 'vitest';
import { createProtocolSession } from '../../src/engines/index.ts';
import type { CanvasElement, RenderedJob } from '../../src/engines/canvas/model.ts';
import { renderText, type RenderCanvas } from '../../src/engines/render/index.ts';
import { buildDocument, type MediaRef } from '../../src/worker/services/document-builder.ts';
import { leanElement } from '../../src/worker/services/lean-document.ts';
import { compactBodyJson, isCompactBody } from '../../src/worker/services/compact-body.ts';
import { documentJsonOfBody, PACKED_MARK } from '../../src/worker/services/packed-document.ts';
import { OTHER, USUAL_DEBUG, USUAL_TEXT } from '../../src/engines/canvas/element-kinds.ts';
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
      let pauses = 0;
      // With what the engine said of its elements' keys, as the printer object builds it.
      const built = await buildDocument(head, job.canvases, tail, mediaFor, bytes, async () => { pauses++; }, 'later', job.elementKinds);
      expect(isCompactBody(built.body)).toBe(true);
      // Without, the builder looks at each element's keys: the same body.
      expect((await buildDocument(head, job.canvases, tail, mediaFor, bytes)).body).toEqual(built.body);
      let rawAsked = 0;
      expect(await compactBodyJson(built.body, async () => (rawAsked++, bytes))).toBe(expected);
      expect(rawAsked).toBe(1);
      expect(built.json()).toBe(expected);
      expect(built.text).toBe(renderText(JSON.parse(expected).canvases as RenderCanvas[]));
      // Someone waits for the document: its JSON is made in the same pass, the body is the same compact body.
      let awaitedPauses = 0;
      const awaited = await buildDocument(head, job.canvases, tail, mediaFor, bytes, async () => { awaitedPauses++; }, 'now', job.elementKinds);
      expect(awaited.json()).toBe(expected);
      expect(awaited.body).toEqual(built.body);
      expect(awaitedPauses).toBe(pauses);
      expect(awaited.text).toBe(built.text);
      // A body stored before as the DTO's JSON itself (when someone waited) reads as it was.
      expect(documentJsonOfBody(expected, job.isStatusPoll)).toBe(expected);
      const elements = job.canvases.reduce((n, c) => n + c.items.length, 0);
      // Between steps of 2,000 elements.
      if (elements <= 2_000) expect(pauses).toBe(0);
      else expect(pauses).toBeGreaterThanOrEqual(Math.ceil(elements / 2_000) - 1);
    });

    it(`${name}: a body whose raw bytes are not the engine's (a translated job) holds every commandRaw itself`, async () => {
      const job = render(protocol, bytes);
      const head = { id: 'd', printJobId: 'j', printerId: 'p', timestamp: '2026-01-01T00:00:00.000Z', protocol, transport: 'EposPrint' as const, isStatusPoll: job.isStatusPoll };
      const tail = { clientAddress: '10.0.0.1', bytesReceived: 7, bytesSent: 0 };
      const expected = JSON.stringify(leanDto(job, head, tail));
      const notTheJob = ascii('<epos-print/>');
      const built = await buildDocument(head, job.canvases, tail, mediaFor, notTheJob);
      expect(await compactBodyJson(built.body, async () => notTheJob)).toBe(expected);
    });
  }

  it('values of every kind read back as they were: odd strings, numbers, parameters, nested values', async () => {
    const debug = (commandRaw: string, lengthInBytes: number, commandDescription: string[], parameters: Record<string, string> = {}): CanvasElement =>
      ({ type: 'debug', debugType: 'command', parameters, commandRaw, commandDescription, lengthInBytes });
    const raw = Uint8Array.from([0x1b, 0x40, 0x41]);
    const canvases = [
      { widthInDots: 576, heightInDots: null, items: [
        debug('1B40', 2, ['\ufeffBOM first', 'lone \ud800 surrogate', '', 'emoji \u{1f9fe}'], { n: '1', note: '"quoted"' }),
        { type: 'text', text: 'A\u0000\n\t', x: -12.5, y: 2 ** 40, width: 1e-7, height: Number.MAX_SAFE_INTEGER, fontName: 'FontA', charSpacing: -3, isBold: true, isUnderline: false, isReverse: false, charScaleX: 240, charScaleY: 239, rotation: '90', commandRaw: '41', commandDescription: ['Text', 'A'], lengthInBytes: 1, isItalic: undefined },
        debug('41', 1, ['Text', 'A']),
        // The usual keys of a receipt's text run (written without asking each key), odd values.
        { type: 'text', text: 'B"\\\ud800', x: -3, y: 0.5, width: 2 ** 40, height: 240, fontName: '', charSpacing: -300, isBold: false, isUnderline: true, isReverse: true, charScaleX: 1e21, charScaleY: Number.NaN, rotation: '270', commandRaw: '42', commandDescription: ['Text', 'B'], lengthInBytes: 0 },
        debug('', 0, ['nested'], { deep: { list: [1, 'x', null] } } as never),
      ] },
      { widthInDots: 406, heightInDots: 203, items: [{ type: 'box', x: 0, y: 0, width: 10, height: 10, thickness: 2, isFilled: false, drawMode: 'xor', commandRaw: '', commandDescription: [], lengthInBytes: 0 } as CanvasElement] },
    ] as RenderedJob['canvases'];
    const job = { canvases, errorMessages: [], bytesReceived: 3, isStatusPoll: false } as RenderedJob;
    const head = { id: 'd', printJobId: 'j', printerId: 'p', timestamp: 't', protocol: 'EscPos', transport: 'Tcp' as const, isStatusPoll: false };
    const tail = { clientAddress: '\ud83d', bytesReceived: 3, bytesSent: 0, errorMessages: ['x\udfff'] };
    const built = await buildDocument(head, canvases, tail, mediaFor, raw);
    expect(await compactBodyJson(built.body, async () => raw)).toBe(JSON.stringify(leanDto(job, head, tail)));
    // The same elements said to be of the usual keys where they are (engines/canvas/element-kinds.ts).
    const kinds = [[USUAL_DEBUG, OTHER, USUAL_DEBUG, USUAL_TEXT, USUAL_DEBUG], [OTHER]] as RenderedJob['elementKinds'];
    const said = await buildDocument(head, canvases, tail, mediaFor, raw, undefined, 'later', kinds);
    expect(said.body).toEqual(built.body);
  });

  it('a body stored packed (format 1, no longer written) still reads as the DTO it was packed from', () => {
    const dto = {
      id: 'd', transport: 'Tcp', isStatusPoll: false,
      canvases: [{ widthInDots: 576, items: [
        { type: 'debug', commandRaw: '1b40', commandDescription: ['ESC @', 'Initialize'], lengthInBytes: 2 },
        { type: 'text', commandRaw: '', commandDescription: [], lengthInBytes: 0, text: 'TOTAL', x: 0, y: 24 },
        { type: 'debug', commandRaw: '0a', commandDescription: ['LF'], lengthInBytes: 1 },
      ] }],
    };
    const shapes = [['type', 'commandRaw', 'commandDescription', 'lengthInBytes'], ['type', 'commandRaw', 'commandDescription', 'lengthInBytes', 'text', 'x', 'y']];
    const rows = dto.canvases[0].items.map((el) => { const shape = 'text' in el ? 1 : 0; return [shape, ...shapes[shape].map((k) => (el as Record<string, unknown>)[k])]; });
    const body = `${PACKED_MARK}"doc":${JSON.stringify({ ...dto, canvases: [{ widthInDots: 576, shapes, items: rows }] })}}`;
    expect(documentJsonOfBody(body, false)).toBe(JSON.stringify(dto));
  });

  it('the jobs hold what the comparison is about', () => {
    const all = JOBS.flatMap(([, p, b]) => render(p, b).canvases.flatMap((c) => c.items));
    for (const type of ['text', 'image', 'box', 'debug']) expect(all.some((e) => e.type === type)).toBe(true);
    expect(all.some((e) => e.type === 'debug' && e.commandRaw.length > 128)).toBe(true);
    const pngs = all.flatMap((e) => (e.type === 'image' ? [e.image.png] : []));
    expect(new Set(pngs).size).toBeLessThan(pngs.length);
  });
});
