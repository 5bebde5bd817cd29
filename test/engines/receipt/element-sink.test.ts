/**
 * A receipt engine's elements given to a sink as they become final (canvas/element-sink.ts,
 * receipt/document.ts `streamTo`) are the job's elements: the same canvases, elements, kinds
 * and heights as the job rendered without a sink, each element as it was when given (nothing
 * changes it afterwards), canvases closed in order; a long text job gives its elements while
 * it is pushed, not at its end; a job that never outgrows a batch gives nothing and keeps them. Receipts of a real client library (ESC/POS, StarPRNT,
 * Star Line), random bytes, canvases merged after cuts, a job cut short by its budget, long
 * jobs with and without cuts, pictures (given with their PNG).
 */
import { describe, expect, it } from 'vitest';
import { createProtocolSession } from '../../../src/engines/index.ts';
import type { CanvasElement, RenderedJob } from '../../../src/engines/canvas/model.ts';
import { USUAL_TEXT, type ElementKind } from '../../../src/engines/canvas/element-kinds.ts';
import { JobDocument } from '../../../src/engines/receipt/document.ts';
import type { ElementSink } from '../../../src/engines/canvas/element-sink.ts';
import { textReceipt, imageReceipt } from '../../../bench/escpos.bench.ts';
import { concatBytes, testPrinterContext } from '../../support/printer-context.ts';
import { encoderReceipt } from '../../support/encoder-receipt.ts';

type Protocol = 'EscPos' | 'StarPrnt' | 'StarLine';

/** What a sink was given: each canvas's elements as JSON at the time, kinds, height once closed. */
class RecordingSink implements ElementSink {
  readonly canvases: { widthInDots: number; heightInDots?: number | null; items: string[]; kinds: ElementKind[] }[] = [];
  given = 0;
  elements(canvas: number, widthInDots: number, items: readonly CanvasElement[], kinds: readonly ElementKind[]): void {
    if (canvas === this.canvases.length) this.canvases.push({ widthInDots, items: [], kinds: [] });
    const c = this.canvases[canvas];
    expect(canvas).toBe(this.canvases.length - 1);
    expect(c.heightInDots).toBeUndefined();
    expect(kinds).toHaveLength(items.length);
    for (const el of items) c.items.push(JSON.stringify(el));
    c.kinds.push(...kinds);
    this.given += items.length;
  }
  closeCanvas(canvas: number, widthInDots: number, heightInDots: number | null): void {
    if (canvas === this.canvases.length) this.canvases.push({ widthInDots, items: [], kinds: [] });
    expect(canvas).toBe(this.canvases.length - 1);
    this.canvases[canvas].heightInDots = heightInDots;
  }
}

function session(protocol: Protocol, sink?: ElementSink) {
  const s = createProtocolSession(protocol, () => testPrinterContext({ widthInDots: 576 }));
  if (sink) s.streamTo!(sink);
  return s;
}

/** Renders `chunks` with and without a sink; checks the sink was given the job; what it was given before `finish`. */
function check(protocol: Protocol, ...chunks: Uint8Array[]): { job: RenderedJob; givenBeforeFinish: number } {
  const plain = session(protocol);
  for (const c of chunks) plain.push(c);
  const job = plain.finish();
  const sink = new RecordingSink();
  const streamed = session(protocol, sink);
  for (const c of chunks) streamed.push(c);
  const givenBeforeFinish = sink.given;
  while (streamed.finishStep?.()) { /* as the printer object does */ }
  const rest = streamed.finish();
  if (sink.canvases.length === 0) {
    // Never outgrew a batch: nothing given, the job keeps its elements.
    expect(rest).toEqual(job);
    return { job, givenBeforeFinish };
  }
  expect(sink.canvases.map((c) => ({ widthInDots: c.widthInDots, heightInDots: c.heightInDots, items: c.items }))).toEqual(
    job.canvases.map((c) => ({ widthInDots: c.widthInDots, heightInDots: c.heightInDots, items: c.items.map((el) => JSON.stringify(el)) })),
  );
  expect(sink.canvases.map((c) => c.kinds)).toEqual(job.elementKinds);
  // The finished job keeps the canvases' sizes, not their elements.
  expect(rest.canvases.map((c) => [c.widthInDots, c.heightInDots, c.items.length])).toEqual(job.canvases.map((c) => [c.widthInDots, c.heightInDots, 0]));
  expect({ ...rest, canvases: null, elementKinds: null }).toEqual({ ...job, canvases: null, elementKinds: null });
  return { job, givenBeforeFinish };
}

function random(seed: number, n: number): Uint8Array {
  let x = seed;
  return Uint8Array.from({ length: n }, () => ((x = (Math.imul(x, 1103515245) + 12345) >>> 0) >>> 24));
}

const repeat = (bytes: Uint8Array, n: number) => concatBytes(...Array.from({ length: n }, () => bytes));
const text = (s: string) => new TextEncoder().encode(s);

describe('element sink', () => {
  for (const [protocol, language] of [['EscPos', 'esc-pos'], ['StarPrnt', 'star-prnt'], ['StarLine', 'star-line']] as const) {
    it(`${protocol}: a receipt, and 100 of them in one job, given whole`, () => {
      check(protocol, encoderReceipt(language));
      const { job, givenBeforeFinish } = check(protocol, repeat(encoderReceipt(language), 100));
      expect(job.canvases).toHaveLength(100);
      expect(job.canvases.reduce((n, c) => n + c.items.length, 0)).toBeGreaterThan(2 * 2_000);
      expect(givenBeforeFinish).toBeGreaterThan(0);
    });

    it(`${protocol}: random bytes, in chunks`, () => {
      let streamed = 0;
      for (let seed = 1; seed <= 40; seed++) {
        const bytes = random(seed, 8000);
        if (check(protocol, bytes.subarray(0, 1000), bytes.subarray(1000, 1001), bytes.subarray(1001)).givenBeforeFinish > 0) streamed++;
      }
      expect(streamed).toBeGreaterThan(10);
    });
  }

  it('a long text job gives its elements while it is pushed: at most a batch is left for its end', () => {
    const { job, givenBeforeFinish } = check('EscPos', repeat(textReceipt(), 30));
    const total = job.canvases.reduce((n, c) => n + c.items.length, 0);
    expect(total).toBeGreaterThan(20_000);
    expect(total - givenBeforeFinish).toBeLessThan(2_000 + 700);
  });

  it('one long canvas (no cut) is given in batches while it is printed', () => {
    const { job, givenBeforeFinish } = check('EscPos', text(Array.from({ length: 3000 }, (_, i) => `line ${i}\n`).join('')));
    expect(job.canvases).toHaveLength(1);
    expect(givenBeforeFinish).toBeGreaterThan(job.canvases[0].items.length - 2_000);
  });

  it('canvases merged after cuts: what follows a cut that drew nothing joins the receipt before', () => {
    const cut = Uint8Array.of(0x1d, 0x56, 0x00);
    const many = repeat(concatBytes(text('one\n'), cut, Uint8Array.of(0x1b, 0x40), cut, Uint8Array.of(0x10, 0x04, 0x01)), 600);
    const { job, givenBeforeFinish } = check('EscPos', many, text('two\n'), cut, Uint8Array.of(0x10, 0x04, 0x01, 0x1b, 0x40, 0x1b, 0x4a, 40));
    expect(job.canvases).toHaveLength(601);
    expect(givenBeforeFinish).toBeGreaterThan(0);
  });

  it('pictures are given with their PNG, 20 receipts with a logo, QR Code and barcode while pushed', () => {
    const { givenBeforeFinish } = check('EscPos', repeat(imageReceipt(), 20), repeat(textReceipt(), 4));
    expect(givenBeforeFinish).toBeGreaterThan(0);
  });

  it('ESC * strips that stack into one picture, however the batches fall', () => {
    // 24-dot column strips of 64 columns, each followed by LF at a line spacing of 24 dots.
    const strip = (i: number) => [0x1b, 0x2a, 33, 64, 0, ...Array.from({ length: 64 * 3 }, (_, k) => (i * 7 + k * 13) & 0xff), 0x0a];
    const picture = Uint8Array.from([0x1b, 0x33, 24, ...Array.from({ length: 30 }, (_, i) => strip(i)).flat(), 0x1b, 0x32]);
    const lines = text(Array.from({ length: 37 }, (_, i) => `line ${i}\n`).join(''));
    const { job, givenBeforeFinish } = check('EscPos', repeat(concatBytes(lines, picture), 40));
    const images = job.canvases[0].items.filter((el) => el.type === 'image');
    expect(images.length).toBeLessThan(40 * 30 / 2);
    expect(givenBeforeFinish).toBeGreaterThan(0);
  });

  it('a job cut short by its element budget: the summary stays until the end, what came before is given', () => {
    const run = (sink?: ElementSink) => {
      const doc = new JobDocument(576, { maxElements: 5_000 });
      if (sink) doc.streamTo(sink);
      for (let i = 0; i < 3_000; i++) {
        doc.debug('command', '0A', ['LF', 'Print and line feed'], 1);
        doc.draw({ type: 'text', text: `line ${i}`, x: 0, y: 24 * i, width: 12, height: 24, fontName: 'FontA', charSpacing: 0, isBold: false, isUnderline: false, isReverse: false, charScaleX: 1, charScaleY: 1, rotation: 'none', commandRaw: '', commandDescription: [], lengthInBytes: 0 }, USUAL_TEXT);
        doc.feed(24);
        if (i % 100 === 99) doc.cut();
      }
      return doc.finish({ pulsed: false });
    };
    const job = run();
    const sink = new RecordingSink();
    run(sink);
    expect(job.canvases.at(-1)!.items.at(-1)).toMatchObject({ debugType: 'elided', parameters: { elidedCommands: '500', droppedElements: '500' } });
    expect(sink.canvases.map((c) => ({ widthInDots: c.widthInDots, heightInDots: c.heightInDots, items: c.items }))).toEqual(
      job.canvases.map((c) => ({ widthInDots: c.widthInDots, heightInDots: c.heightInDots, items: c.items.map((el) => JSON.stringify(el)) })),
    );
    expect(sink.canvases.map((c) => c.kinds)).toEqual(job.elementKinds);
  });
});
