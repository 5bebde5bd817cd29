/**
 * What the receipt engines say of their elements' keys (canvas/element-kinds.ts) is true: one
 * kind per element of every canvas, and an element said to be a usual debug element or text
 * run has exactly those keys, in that order, each with a value. Receipts of a real client
 * library (ESC/POS, StarPRNT, Star Line), random bytes, cuts that merge canvases, a job cut
 * short by its budget.
 */
import { describe, expect, it } from 'vitest';
import { createProtocolSession } from '../../../src/engines/index.ts';
import type { RenderedJob } from '../../../src/engines/canvas/model.ts';
import { DEBUG_KEYS, OTHER, TEXT_KEYS, USUAL_DEBUG, USUAL_TEXT } from '../../../src/engines/canvas/element-kinds.ts';
import { JobDocument } from '../../../src/engines/receipt/document.ts';
import { concatBytes, testPrinterContext } from '../../support/printer-context.ts';
import { encoderReceipt } from '../../support/encoder-receipt.ts';

type Protocol = 'EscPos' | 'StarPrnt' | 'StarLine';

function render(protocol: Protocol, bytes: Uint8Array): RenderedJob {
  const session = createProtocolSession(protocol, () => testPrinterContext({ widthInDots: 576 }));
  session.push(bytes);
  return session.finish();
}

/** The kinds of `job`, checked against its elements; how many of each. */
function checkKinds(job: RenderedJob): Record<number, number> {
  const counts: Record<number, number> = { [OTHER]: 0, [USUAL_DEBUG]: 0, [USUAL_TEXT]: 0 };
  expect(job.elementKinds).toBeDefined();
  expect(job.elementKinds!.map((k) => k.length)).toEqual(job.canvases.map((c) => c.items.length));
  job.canvases.forEach((canvas, c) => canvas.items.forEach((el, i) => {
    const kind = job.elementKinds![c][i];
    counts[kind]++;
    if (kind === OTHER) return;
    expect(el.type).toBe(kind === USUAL_DEBUG ? 'debug' : 'text');
    expect(Object.keys(el)).toEqual(kind === USUAL_DEBUG ? DEBUG_KEYS : TEXT_KEYS);
    for (const v of Object.values(el)) expect(v).not.toBeUndefined();
  }));
  return counts;
}

function random(seed: number, n: number): Uint8Array {
  let x = seed;
  return Uint8Array.from({ length: n }, () => ((x = (Math.imul(x, 1103515245) + 12345) >>> 0) >>> 24));
}

describe('element kinds', () => {
  for (const [protocol, language] of [['EscPos', 'esc-pos'], ['StarPrnt', 'star-prnt'], ['StarLine', 'star-line']] as const) {
    it(`${protocol}: a receipt's debug elements and plain text runs are said to be usual, and are`, () => {
      const counts = checkKinds(render(protocol, encoderReceipt(language)));
      expect(counts[USUAL_DEBUG]).toBeGreaterThan(20);
      expect(counts[USUAL_TEXT]).toBeGreaterThan(3);
      // Underlined, inverted... and pictures are not said to be.
      expect(counts[OTHER]).toBeGreaterThan(0);
    });

    it(`${protocol}: random bytes`, () => {
      for (let seed = 1; seed <= 40; seed++) checkKinds(render(protocol, random(seed, 600)));
    });
  }

  it('canvases merged after cuts keep their elements\' kinds in order', () => {
    const text = (s: string) => new TextEncoder().encode(s);
    // Two cuts in a row (the second cuts no paper), then status queries after the last cut.
    const job = render('EscPos', concatBytes(text('one\n'), Uint8Array.of(0x1d, 0x56, 0x00, 0x1b, 0x40, 0x1d, 0x56, 0x00), text('two\n'), Uint8Array.of(0x1d, 0x56, 0x00, 0x10, 0x04, 0x01, 0x1b, 0x40)));
    expect(job.canvases).toHaveLength(2);
    const counts = checkKinds(job);
    expect(counts[USUAL_TEXT]).toBe(2);
  });

  it('a job cut short by its budget: the summary and what came before', () => {
    const doc = new JobDocument(576, { maxElements: 5 });
    for (let i = 0; i < 4; i++) doc.debug('command', '0A', ['LF', 'Print and line feed'], 1);
    doc.draw({ type: 'text', text: 'x', x: 0, y: 0, width: 12, height: 24, fontName: 'FontA', charSpacing: 0, isBold: false, isUnderline: false, isReverse: false, charScaleX: 1, charScaleY: 1, rotation: 'none', commandRaw: '', commandDescription: [], lengthInBytes: 0 }, USUAL_TEXT);
    for (let i = 0; i < 10; i++) doc.debug('command', '0A', ['LF', 'Print and line feed'], 1);
    doc.cut();
    const job = doc.finish({ pulsed: false });
    expect(job.canvases[0].items.at(-1)).toMatchObject({ debugType: 'elided' });
    expect(job.elementKinds![0].at(-1)).toBe(OTHER);
    checkKinds(job);
  });
});
