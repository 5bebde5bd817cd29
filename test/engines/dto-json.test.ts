/**
 * The DTO's JSON written from the engine's elements (services/dto-json.ts) is byte for byte
 * `JSON.stringify` of the lean DTO (services/lean-document.ts, the contract's payload), for the
 * jobs a printer meets: receipts of a real client library (receipt-printer-encoder) in ESC/POS,
 * StarPRNT and Star Line, random bytes, pictures (one drawn twice), canvases merged after cuts,
 * a job cut short by its budget, status polls, odd strings and numbers, error messages; with
 * and without what the engine said of its elements' keys, and through `buildDocument` both
 * when someone waits (JSON made in the pass) and after (JSON made on demand).
 */
import { describe, expect, it } from 'vitest';
import { createProtocolSession } from '../../src/engines/index.ts';
import type { CanvasElement, RenderedJob } from '../../src/engines/canvas/model.ts';
import { OTHER, USUAL_DEBUG, USUAL_TEXT } from '../../src/engines/canvas/element-kinds.ts';
import { JobDocument } from '../../src/engines/receipt/document.ts';
import { leanElement } from '../../src/worker/services/lean-document.ts';
import { DtoJsonWriter, jsonText } from '../../src/worker/services/dto-json.ts';
import { buildDocument, type MediaRef } from '../../src/worker/services/document-builder.ts';
import { compactBodyJson } from '../../src/worker/services/compact-body.ts';
import { concatBytes, testPrinterContext } from '../support/printer-context.ts';
import { encoderReceipt } from '../support/encoder-receipt.ts';
import { textReceipt, imageReceipt } from '../../bench/escpos.bench.ts';

type Protocol = 'EscPos' | 'StarPrnt' | 'StarLine' | 'Zpl';

function render(protocol: Protocol, bytes: Uint8Array): RenderedJob {
  const session = createProtocolSession(protocol, () => testPrinterContext({ widthInDots: 576 }));
  session.push(bytes);
  return session.finish();
}

function random(seed: number, n: number): Uint8Array {
  let x = seed;
  return Uint8Array.from({ length: n }, () => ((x = (Math.imul(x, 1103515245) + 12345) >>> 0) >>> 24));
}

const mediaFor = (png: Uint8Array): MediaRef => ({ contentType: 'image/png', size: png.length, url: `/api/media/${png.length}`, storageKey: `media/${png.length}.png` });
const head = (job: RenderedJob) => ({ id: 'd', printJobId: 'j', printerId: 'p', timestamp: '2026-01-01T00:00:00.000Z', protocol: 'EscPos', transport: 'Tcp' as const, isStatusPoll: job.isStatusPoll });
const tail = (job: RenderedJob) => ({ clientAddress: '10.0.0.1', bytesReceived: job.bytesReceived, bytesSent: 2, ...(job.errorMessages.length && { errorMessages: job.errorMessages }) });

/** What the contract's payload is: JSON.stringify of the lean DTO, element by element. */
function stringified(job: RenderedJob): string {
  const lean = (el: CanvasElement) => {
    if (el.type !== 'image') return leanElement(el);
    const { image, ...rest } = leanElement(el);
    return { ...rest, media: mediaFor(image.png) };
  };
  return JSON.stringify({
    ...head(job),
    canvases: job.canvases.map((c) => ({ widthInDots: c.widthInDots, ...(c.heightInDots != null && { heightInDots: c.heightInDots }), items: c.items.map(lean) })),
    ...tail(job),
  });
}

/** The writer's UTF-8 decoded; `sized`: told the element count (else its buffer grows from the smallest). */
function written(job: RenderedJob, withKinds: boolean, sized = true): string {
  const w = new DtoJsonWriter(mediaFor, sized ? job.canvases.reduce((n, c) => n + c.items.length, 0) : 0);
  job.canvases.forEach((c, ci) => {
    w.startCanvas(c.widthInDots, c.heightInDots);
    c.items.forEach((el, i) => w.add(el, withKinds && job.elementKinds ? job.elementKinds[ci][i] : OTHER));
    w.endCanvas();
  });
  const utf8 = w.finish(head(job), tail(job));
  const json = jsonText(utf8);
  // The bytes are the JSON's UTF-8 (a decoder would hide a lone surrogate written as bytes).
  expect(utf8).toEqual(new TextEncoder().encode(json));
  return json;
}

/** The writer's JSON is JSON.stringify's, with kinds, without, its buffer grown; and buildDocument's both ways. */
async function expectSame(job: RenderedJob, raw: Uint8Array): Promise<void> {
  const expected = stringified(job);
  expect(written(job, true)).toBe(expected);
  expect(written(job, false)).toBe(expected);
  expect(written(job, true, false)).toBe(expected);
  const now = await buildDocument(head(job), job.canvases, tail(job), mediaFor, raw, undefined, 'now', job.elementKinds);
  expect(now.json()).toBe(expected);
  expect(now.jsonUtf8()).toEqual(new TextEncoder().encode(expected));
  const later = await buildDocument(head(job), job.canvases, tail(job), mediaFor, raw, undefined, 'later', job.elementKinds);
  expect(later.body).toEqual(now.body);
  expect(later.json()).toBe(expected);
  expect(await compactBodyJson(now.body, async () => raw)).toBe(expected);
}

const text = (s: string) => new TextEncoder().encode(s);

describe('DTO JSON writer', () => {
  for (const [protocol, language] of [['EscPos', 'esc-pos'], ['StarPrnt', 'star-prnt'], ['StarLine', 'star-line']] as const) {
    it(`${protocol}: receipt-printer-encoder's receipt (styles, table, barcode, QR Code, cut)`, async () => {
      const bytes = encoderReceipt(language);
      const job = render(protocol, bytes);
      expect(job.elementKinds!.flat()).toContain(USUAL_TEXT);
      expect(job.canvases.flatMap((c) => c.items).some((e) => e.type === 'image')).toBe(true);
      await expectSame(job, bytes);
    });

    it(`${protocol}: random bytes`, async () => {
      for (let seed = 1; seed <= 30; seed++) {
        const bytes = random(seed, 800);
        await expectSame(render(protocol, bytes), bytes);
      }
    });
  }

  it('the text receipt (€ outside Latin-1), a logo, QR and CODE128, a ZPL label', async () => {
    for (const [protocol, bytes] of [['EscPos', textReceipt()], ['EscPos', imageReceipt()], ['Zpl', text('^XA^FO50,50^A0N,40,40^FDHello^FS^FO50,120^BCN,80,Y,N,N^FD12345678^FS^FO50,300^GB300,100,4^FS^XZ')]] as const) {
      await expectSame(render(protocol, bytes), bytes);
    }
  });

  it('canvases merged after cuts, a status poll, a job with error messages', async () => {
    const cuts = concatBytes(text('one\n'), Uint8Array.of(0x1d, 0x56, 0x00, 0x1b, 0x40, 0x1d, 0x56, 0x00), text('two\n'), Uint8Array.of(0x1d, 0x56, 0x00, 0x10, 0x04, 0x01));
    const poll = Uint8Array.of(0x10, 0x04, 0x01, 0x10, 0x04, 0x02);
    const truncatedJob = Uint8Array.of(0x1b, 0x40, 0x1d, 0x76, 0x30, 0x00, 0x10, 0x00);
    const polled = render('EscPos', poll);
    expect(polled.isStatusPoll).toBe(true);
    for (const bytes of [cuts, poll, truncatedJob]) await expectSame(render('EscPos', bytes), bytes);
    const job = render('EscPos', cuts);
    await expectSame({ ...job, errorMessages: ['Printed while the printer reported: paper out', 'quote " and \\ and \u0001'] }, cuts);
  });

  it('a job cut short by its budget: the summary (commandRaw cut) and what came before', async () => {
    const doc = new JobDocument(576, { maxElements: 5 });
    for (let i = 0; i < 4; i++) doc.debug('command', '0A', ['LF', 'Print and line feed'], 1);
    doc.draw({ type: 'text', text: 'x', x: 0, y: 0, width: 12, height: 24, fontName: 'FontA', charSpacing: 0, isBold: false, isUnderline: false, isReverse: false, charScaleX: 1, charScaleY: 1, rotation: 'none', commandRaw: '', commandDescription: [], lengthInBytes: 0 }, USUAL_TEXT);
    for (let i = 0; i < 10; i++) doc.debug('command', '0A'.repeat(80), ['LF', 'Print and line feed'], 80);
    doc.cut();
    const job = doc.finish({ pulsed: false });
    expect(job.canvases[0].items.at(-1)).toMatchObject({ debugType: 'elided' });
    await expectSame(job, new Uint8Array(0));
  });

  it('odd strings and numbers, said to be of the usual keys or not, are written as JSON.stringify writes them', async () => {
    const odd = ['', 'plain', 'quote " back \\ slash', 'nl \n tab \t nul \u0000 del \u007f', 'lone \ud800 high', 'lone \udfff low', 'pair \u{1f9fe}', '\ufeffBOM', 'é € ─ \u2028'];
    const numbers = [0, -0, 1, 2047, 2048, -3, 0.5, 1e21, 1e-7, 2 ** 40, Number.MAX_SAFE_INTEGER, Number.NaN, Infinity];
    const items: CanvasElement[] = [];
    const kinds: number[] = [];
    odd.forEach((s, i) => {
      const n = numbers[i % numbers.length];
      items.push({ type: 'debug', debugType: i % 2 ? 'text' : s, parameters: {}, commandRaw: i % 3 ? s : 'A'.repeat(130 + i), commandDescription: i % 2 ? ['Text', s] : [s, s], lengthInBytes: i });
      kinds.push(USUAL_DEBUG);
      items.push({ type: 'text', text: s, x: n, y: numbers[(i + 3) % numbers.length], width: -n, height: 24, fontName: s, charSpacing: n, isBold: i % 2 === 0, isUnderline: false, isReverse: true, charScaleX: numbers[(i + 5) % numbers.length], charScaleY: 1, rotation: 'none', commandRaw: s, commandDescription: ['Text', s], lengthInBytes: i });
      kinds.push(USUAL_TEXT);
    });
    items.push({ type: 'debug', debugType: 'command', parameters: { n: '1', q: '"x"' }, commandRaw: '1B40', commandDescription: ['ESC @', 'Initialize'], lengthInBytes: 2 });
    kinds.push(USUAL_DEBUG);
    items.push({ type: 'debug', debugType: 'command', parameters: { deep: { list: [1, 'x', null] } } as never, commandRaw: '', commandDescription: ['a', 'b', 'c'], lengthInBytes: 0 });
    kinds.push(OTHER);
    items.push({ type: 'text', text: 'u', x: 1, y: 2, width: 3, height: 4, fontName: 'FontB', charSpacing: 0, isBold: false, isUnderline: true, isReverse: false, charScaleX: 1, charScaleY: 1, rotation: '90', commandRaw: '75', commandDescription: ['Text', 'u'], lengthInBytes: 1, underlineThickness: 2, isItalic: undefined });
    kinds.push(OTHER);
    items.push({ type: 'box', x: 0, y: 0, width: 10, height: 10, thickness: 2, isFilled: false, drawMode: 'xor', commandRaw: 'FF', commandDescription: ['GB'], lengthInBytes: 0 });
    kinds.push(OTHER);
    items.push({ type: 'line', x1: 0, y1: 0, x2: 5, y2: 5, thickness: 1, commandRaw: '', commandDescription: [], lengthInBytes: 0 });
    kinds.push(OTHER);
    const job = { canvases: [{ widthInDots: 576, heightInDots: null, items }, { widthInDots: 406, heightInDots: 203, items: [] }], errorMessages: ['x\udfff'], bytesReceived: 3, isStatusPoll: false, elementKinds: [kinds, []] } as unknown as RenderedJob;
    await expectSame(job, Uint8Array.of(0x1b, 0x40, 0x41));
    // No engine makes these, and the compact body does not hold them: a debug element with its own
    // commandRawTruncated (cut or not), a drawn element without commandRaw and commandDescription.
    const own = (commandRaw: string) => ({ type: 'debug', debugType: 'x', commandRawTruncated: false, parameters: {}, commandRaw, commandDescription: [], lengthInBytes: 1 }) as CanvasElement;
    const flagged = { ...job, canvases: [{ widthInDots: 1, heightInDots: null, items: [own('00'), own('0'.repeat(200)), { type: 'line', x1: 0, y1: 0, x2: 5, y2: 5, thickness: 1 } as CanvasElement] }], elementKinds: undefined } as RenderedJob;
    expect(written(flagged, false)).toBe(stringified(flagged));
    // A head longer than the room the writer keeps before the canvases, and an empty tail.
    const w = new DtoJsonWriter(mediaFor);
    w.startCanvas(8, 8);
    w.endCanvas();
    const longHead = { id: 'é'.repeat(2000) };
    expect(jsonText(w.finish(longHead, {}))).toBe(JSON.stringify({ ...longHead, canvases: [{ widthInDots: 8, heightInDots: 8, items: [] }] }));
  });
});
