/**
 * Renderer fuzzing: any canvases the engines or a stored document could hold (hostile numbers,
 * any text, missing fields' neighbours) render to a valid PNG, a PDF that parses, and text,
 * without throwing. Fixed seed; FUZZ_RUNS raises the number of cases (a twentieth of them here:
 * a case draws up to a few pages).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { decode } from 'fast-png';
import { renderPdf, renderPng, renderText, type RenderCanvas, type RenderElement } from '../../../src/engines/render/index.ts';

const RUNS = Math.max(50, Math.floor(Number(process.env.FUZZ_RUNS ?? 3000) / 20));
const SEED = 20261124;

// Hostile numbers now and then; a page grown to the dot budget takes tens of milliseconds.
const num = fc.oneof(
  { arbitrary: fc.integer({ min: -50, max: 900 }), weight: 30 },
  { arbitrary: fc.constantFrom(0, -1, 1e9, -1e9, Number.NaN, Number.POSITIVE_INFINITY, 0.5, 1e-9), weight: 1 },
);
const small = fc.oneof(fc.integer({ min: 0, max: 10 }), fc.constantFrom(Number.NaN, -3, 1e6, 2.5));
const rotation = fc.constantFrom('none', '90', '180', '270') as fc.Arbitrary<'none' | '90' | '180' | '270'>;
const text = fc.oneof(fc.string({ maxLength: 40 }), fc.string({ unit: 'grapheme', maxLength: 20 }), fc.constantFrom('مرحبا', 'שלום (1)', 'สวัสดี', '漢字かな', '\u0301\u0e31', '\ud83d\ude00x', ''));

const element: fc.Arbitrary<RenderElement> = fc.oneof(
  fc.record({
    type: fc.constant('text' as const), text, x: num, y: num, width: num, height: num, fontName: fc.constantFrom('FontA', 'FontB', 'EplFont1', 'EplFont5', 'Zebra0', ''),
    charSpacing: small, isBold: fc.boolean(), isUnderline: fc.boolean(), isReverse: fc.boolean(), charScaleX: small, charScaleY: small, rotation,
    isItalic: fc.boolean(), isUpsideDown: fc.boolean(), isDoubleStrike: fc.boolean(), underlineThickness: small,
  }),
  fc.record({ type: fc.constant('line' as const), x1: num, y1: num, x2: num, y2: num, thickness: small }),
  fc.record({ type: fc.constant('box' as const), x: num, y: num, width: num, height: num, thickness: small, isFilled: fc.boolean(), drawMode: fc.constantFrom('black', 'white', 'xor') as fc.Arbitrary<'black' | 'white' | 'xor'> }),
  fc.record({ type: fc.constant('image' as const), x: num, y: num, width: num, height: num, rotation, media: fc.constant({ url: '/m', storageKey: 'k' }) }),
  fc.constant({ type: 'debug' as const }),
);

const canvas: fc.Arbitrary<RenderCanvas> = fc.record({
  widthInDots: fc.oneof({ arbitrary: fc.integer({ min: 1, max: 832 }), weight: 20 }, { arbitrary: fc.constantFrom(0, -5, Number.NaN, 1e7), weight: 1 }),
  heightInDots: fc.oneof(fc.constant(null), fc.integer({ min: 1, max: 1300 }), fc.constantFrom(0, -1, Number.NaN)),
  items: fc.array(element, { maxLength: 12 }),
});

describe('renderer fuzz', () => {
  it('never throws; PNG decodes, PDF is well formed, text is a string', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(canvas, { minLength: 1, maxLength: 3 }), fc.nat(3), async (canvases, pick) => {
        const png = await renderPng(canvases, { resolveImage: (el) => (el.x > 100 ? null : Promise.reject(new Error('gone'))) });
        const img = decode(png.png);
        expect([img.width, img.height]).toEqual([png.widthInDots, png.heightInDots]);
        if (pick < canvases.length) await renderPng(canvases, { canvasIndex: pick });
        const pdf = await renderPdf(canvases, { dpi: 203 });
        expect(new TextDecoder().decode(pdf.pdf.subarray(pdf.pdf.length - 6))).toBe('%%EOF\n');
        expect(typeof renderText(canvases)).toBe('string');
      }),
      { numRuns: RUNS, seed: SEED, timeout: 5000 },
    );
  });
});
