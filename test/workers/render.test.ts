/**
 * The document renderer (src/engines/render) inside workerd, where the routes will call it:
 * no Node API, the native CompressionStream, and the glyph table within the bundle.
 */
import { describe, expect, it } from 'vitest';
import { renderPdf, renderPng, renderText, type RenderCanvas } from '../../src/engines/render/index.ts';
import { decodePngToBitmap } from '../../src/engines/raster/png.ts';

const canvas: RenderCanvas = {
  widthInDots: 384,
  heightInDots: null,
  items: [
    { type: 'text', text: 'Привет 漢字 ข้าว', x: 0, y: 0, width: 15 * 12, height: 24, fontName: 'FontA', charSpacing: 0, isBold: false, isUnderline: true, isReverse: false, charScaleX: 1, charScaleY: 1, rotation: 'none' },
    { type: 'box', x: 0, y: 30, width: 384, height: 10, thickness: 2, isFilled: false },
  ],
};

describe('renderer in workerd', () => {
  it('renders PNG, PDF and text', async () => {
    const { png, widthInDots, heightInDots } = await renderPng([canvas]);
    expect([widthInDots, heightInDots]).toEqual([384, 40]);
    const page = decodePngToBitmap(png);
    expect(page.width).toBe(384);
    expect(page.countBlack()).toBeGreaterThan(500);
    const { pdf, pageCount } = await renderPdf([canvas, canvas]);
    expect(pageCount).toBe(2);
    expect(new TextDecoder().decode(pdf.subarray(0, 8))).toBe('%PDF-1.4');
    expect(renderText([canvas])).toBe('Привет 漢字 ข้าว');
  });
});
