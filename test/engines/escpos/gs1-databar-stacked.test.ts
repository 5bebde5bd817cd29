import { describe, expect, it } from 'vitest';
import { translateEposPrint } from '../../../src/engines/epos-print/index.ts';
import { bitmapOf, bytes, GS, images, render } from './helpers.ts';
import { zxingCpp } from '../zpl/helpers.ts';

/** GS ( k pL pH 51 fn …: one GS1 DataBar function. */
const k51 = (fn: number, ...body: number[]) => bytes(GS, '(k', (body.length + 2) & 0xff, (body.length + 2) >> 8, 51, fn, body);
const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));

const eposSymbol = (attrs: string, data: string) => {
  const t = translateEposPrint(`<epos-print xmlns="http://www.epson-pos.com/schemas/2011/03/epos-print"><symbol ${attrs}>${data}</symbol></epos-print>`);
  if (!t.ok) throw new Error(t.error);
  return render(t.bytes);
};

// Decoded by zxing-cpp (zxing-wasm), which reads the stacked forms of GS1 DataBar: the decoded
// text is the AIs without parentheses, the GTIN with the check digit the printer computed.
describe('GS1 DataBar stacked forms (GS ( k cn 51, ePOS-Print <symbol type="gs1_databar_…">)', () => {
  it('ESC/POS: Stacked, Stacked Omnidirectional and Expanded Stacked print and decode', async () => {
    const job = render(bytes(
      k51(67, 3),
      k51(80, 48, 72, ...ascii('0950110153000')), k51(81, 48),
      k51(80, 48, 73, ...ascii('0950110153000')), k51(81, 48),
      k51(71, 200, 0), k51(80, 48, 76, ...ascii('(01)09501101530003(10)ABC123')), k51(81, 48),
    ));
    expect(job.errorMessages).toEqual([]);
    const [stacked, omni, expanded] = images(job).map(bitmapOf);
    expect(stacked.height).toBe(13 * 3); // rows of 5, 1 and 7 modules, 3 dots each
    expect(omni.height).toBe(69 * 3);
    expect(expanded.width).toBeLessThanOrEqual(200); // rows as wide as the maximum width allows
    expect(expanded.height).toBeGreaterThan(2 * 33 * 3);
    expect(await zxingCpp(stacked, 'DataBar')).toBe('0109501101530003');
    expect(await zxingCpp(omni, 'DataBar')).toBe('0109501101530003');
    expect(await zxingCpp(expanded, 'DataBarExpanded')).toBe('010950110153000310ABC123');
  });

  it('ePOS-Print: the three stacked symbol types print and decode', async () => {
    for (const [type, data, format, decoded] of [
      ['gs1_databar_stacked', '0950110153000', 'DataBar', '0109501101530003'],
      ['gs1_databar_stacked_omnidirectional', '09501101530003', 'DataBar', '0109501101530003'],
      ['gs1_databar_expanded_stacked', '(01)09501101530003(17)261231(10)LOT7', 'DataBarExpanded', '01095011015300031726123110LOT7'],
    ] as const) {
      const job = eposSymbol(`type="${type}" width="2"`, data);
      expect(job.errorMessages, type).toEqual([]);
      const [img] = images(job);
      expect(img, type).toBeDefined();
      expect(await zxingCpp(bitmapOf(img), format), type).toBe(decoded);
    }
  });

  it('bad data is an error on the document, not a symbol', () => {
    const job = render(bytes(k51(80, 48, 72, ...ascii('12AB')), k51(81, 48)));
    expect(images(job)).toHaveLength(0);
    expect(job.errorMessages.join('\n')).toMatch(/GS1 DataBar Stacked needs a 13-digit item number/);
  });
});
