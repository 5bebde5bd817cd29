/**
 * The renderer against oracles it does not share code with: jsQR and zxing read the codes cut
 * from the PNG, GNU Unifont's published hex glyphs are the reference for text dots, pdf-lib
 * parses the PDF back, and the documents come from receipt-printer-encoder and EPL2 fixtures
 * run through the engines.
 */
import { describe, expect, it } from 'vitest';
import { BarcodeFormat } from '@zxing/library';
import { PDFDocument } from 'pdf-lib';
import { Bitmap } from '../../../src/engines/raster/bitmap.ts';
import { decodePngToBitmap } from '../../../src/engines/raster/png.ts';
import type { Canvas, ImageElement, RenderedJob, TextElement } from '../../../src/engines/canvas/model.ts';
import {
  CanvasIndexError, PackedRaster, TEAR_OFF_GAP_DOTS, drawTextElement, renderPdf, renderPng, renderText,
  type RenderCanvas, type RenderTextElement,
} from '../../../src/engines/render/index.ts';
import { jsqrDecode, zxingDecode } from '../raster/decode-helpers.ts';
import {
  LABEL_CODE128, LABEL_LINES, LABEL_QR, RECEIPT_CODE128, RECEIPT_LINES, RECEIPT_QR, eplJob, escposJob, labelBytes, receiptBytes,
} from './fixtures.ts';

function crop(bmp: Bitmap, x: number, y: number, w: number, h: number): Bitmap {
  const out = new Bitmap(w, h);
  for (let yy = 0; yy < h; yy++) for (let xx = 0; xx < w; xx++) if (bmp.get(x + xx, y + yy)) out.set(xx, yy);
  return out;
}

function images(c: Canvas): ImageElement[] {
  return c.items.filter((e): e is ImageElement => e.type === 'image');
}

function texts(c: Canvas): TextElement[] {
  return c.items.filter((e): e is TextElement => e.type === 'text');
}

function packedToBitmap(r: PackedRaster): Bitmap {
  const out = new Bitmap(r.width, r.height);
  for (let y = 0; y < r.height; y++) for (let x = 0; x < r.width; x++) if (r.get(x, y)) out.set(x, y);
  return out;
}

/** Every image element's box cut from the page equals its own PNG (rotation none). */
function expectImagesDrawn(page: Bitmap, canvas: Canvas): void {
  for (const el of images(canvas)) {
    const own = decodePngToBitmap(el.image.png);
    const cut = crop(page, el.x, el.y, own.width, own.height);
    expect(cut.countBlack()).toBe(own.countBlack());
    expect(Buffer.from(cut.pixels).equals(Buffer.from(own.pixels))).toBe(true);
  }
}

/** Every text element's box on the page equals the element drawn alone (nothing else lands on text). */
function expectTextDrawn(page: Bitmap, canvas: Canvas): void {
  for (const el of texts(canvas)) {
    const alone = new PackedRaster(page.width, page.height);
    drawTextElement(alone, el);
    const ref = crop(packedToBitmap(alone), el.x, el.y, el.width, el.height);
    expect(ref.countBlack()).toBeGreaterThan(el.text.replace(/\s/g, '').length * 4);
    const cut = crop(page, el.x, el.y, el.width, el.height);
    expect(Buffer.from(cut.pixels).equals(Buffer.from(ref.pixels))).toBe(true);
  }
}

function decodeAll(page: Bitmap, canvas: Canvas): { qr: string[]; code128: string[] } {
  const qr: string[] = [], code128: string[] = [];
  for (const el of images(canvas)) {
    const cut = crop(page, el.x, el.y, el.width, el.height);
    const q = jsqrDecode(cut, 2, 8);
    if (q) { qr.push(q.data); continue; }
    try { code128.push(zxingDecode(cut, [BarcodeFormat.CODE_128]).text); } catch { /* not a barcode */ }
  }
  return { qr, code128 };
}

describe('PNG of a receipt (receipt-printer-encoder -> ESC/POS engine)', () => {
  const job: RenderedJob = escposJob(receiptBytes());

  it('is widthInDots wide, as tall as the paper fed, opaque black on white, and holds the logo, QR, CODE128 and text', async () => {
    expect(job.errorMessages).toEqual([]);
    const canvas = job.canvases[0];
    const r = await renderPng(job.canvases);
    expect(r.widthInDots).toBe(canvas.widthInDots);
    const page = decodePngToBitmap(r.png);
    expect(page.width).toBe(576);
    const bottom = Math.max(...canvas.items.filter((e) => e.type === 'image' || e.type === 'text').map((e) => (e as ImageElement).y + (e as ImageElement).height));
    // The engine gives the cut receipt its fed length; without one the content's extent counts.
    expect(page.height).toBe(canvas.heightInDots ?? bottom);
    expect(bottom).toBeLessThanOrEqual(page.height);
    expectImagesDrawn(page, canvas);
    expectTextDrawn(page, canvas);
    const codes = decodeAll(page, canvas);
    expect(codes.qr).toEqual([RECEIPT_QR]);
    expect(codes.code128).toEqual([RECEIPT_CODE128]);
  });

  it('is opaque: the palette has no transparency and white is white', async () => {
    const { png } = await renderPng(job.canvases);
    const { decode } = await import('fast-png');
    const img = decode(png);
    expect(img.transparency).toBeUndefined();
    expect(img.palette?.slice(0, 2)).toEqual([[255, 255, 255], [0, 0, 0]]);
  });

  it('text is the source lines', () => {
    expect(renderText(job.canvases).split('\n')).toEqual(RECEIPT_LINES);
  });

  it('PDF has one page per canvas at 576 dots / 203 dpi wide and parses back', async () => {
    const { pdf, pageCount } = await renderPdf(job.canvases);
    const doc = await PDFDocument.load(pdf);
    expect(doc.getPageCount()).toBe(1);
    expect(pageCount).toBe(1);
    const { width, height } = doc.getPage(0).getSize();
    const r = await renderPng(job.canvases);
    expect(width).toBeCloseTo((576 / 203) * 72, 2);
    expect(height).toBeCloseTo((r.heightInDots / 203) * 72, 2);
  });
});

describe('PNG of a 4x6 EPL label', () => {
  const job = eplJob(labelBytes());

  it('is the label size and holds the graphic, QR, Code 128, frame and text', async () => {
    expect(job.errorMessages).toEqual([]);
    const canvas = job.canvases[0];
    const r = await renderPng(job.canvases);
    expect([r.widthInDots, r.heightInDots]).toEqual([812, 1218]);
    const page = decodePngToBitmap(r.png);
    expectImagesDrawn(page, canvas);
    expectTextDrawn(page, canvas);
    const codes = decodeAll(page, canvas);
    expect(codes.qr).toEqual([LABEL_QR]);
    expect(codes.code128).toEqual([LABEL_CODE128]);
    // The 4-dot frame X20,20,4,790,200: its corners and edges are black, its inside is not.
    for (const [x, y] of [[20, 20], [789, 20], [20, 199], [789, 199], [400, 22], [22, 100]]) expect(page.get(x, y)).toBe(true);
    expect(page.get(400, 190)).toBe(false);
  });

  it('text and PDF', async () => {
    expect(renderText(job.canvases).split('\n')).toEqual(LABEL_LINES);
    const doc = await PDFDocument.load((await renderPdf(job.canvases, { dpi: 203 })).pdf);
    const { width, height } = doc.getPage(0).getSize();
    expect(width).toBeCloseTo(4 * 72, 0); // 812 dots at 203 dpi = 4.0 in
    expect(height).toBeCloseTo(6 * 72, 0);
  });
});

/** GNU Unifont's published glyphs (unifont.hex, 15.0.01): 8x16 or 16x16, rows MSB first. */
const UNIFONT_HEX: Record<string, string> = {
  A: '0000000018242442427E424242420000',
  Ж: '0000000049492A2A1C1C2A2A49490000',
  Ω: '000000003E4141414141221414770000',
  א: '0000000000424222122C484442420000',
  ก: '0000000000003C426222222222220000',
  ب: '000000000000000422423C0000080000',
  漢: '0110211017FE111081F040404BF80A4813F81040E7FC20402FFE20A02110060C',
  가: '00000000001000101F9000900090009E01100110021004101810001000100000',
  '\u0e31': '000000313E0000000000000000000000', // THAI CHARACTER MAI HAN-AKAT (combining, drawn over the character before)
  '\ufe90': '000000000000000422423F0000080000', // ARABIC LETTER BEH FINAL FORM
  '\ufe91': '00000000000000080404FC0000100000', // ARABIC LETTER BEH INITIAL FORM
};

function hexGlyph(hex: string): Bitmap {
  const w = hex.length === 32 ? 8 : 16;
  const bytes = hex.match(/../g)!.map((h) => parseInt(h, 16));
  const bmp = new Bitmap(w, 16);
  for (let y = 0; y < 16; y++) for (let x = 0; x < w; x++) if (bytes[y * (w / 8) + (x >> 3)] & (0x80 >> (x & 7))) bmp.set(x, y);
  return bmp;
}

function textEl(text: string, over: Partial<RenderTextElement> = {}): RenderTextElement {
  return {
    type: 'text', text, x: 0, y: 0, width: 0, height: 16, fontName: 'Test', charSpacing: 0,
    isBold: false, isUnderline: false, isReverse: false, charScaleX: 1, charScaleY: 1, rotation: 'none', ...over,
  };
}

function drawAlone(el: RenderTextElement, w: number, h: number): Bitmap {
  const r = new PackedRaster(w, h);
  drawTextElement(r, el);
  return packedToBitmap(r);
}

describe('glyphs: GNU Unifont dots for Latin, Cyrillic, Greek, Hebrew, Thai, Arabic, CJK and Hangul', () => {
  for (const [ch, hex] of Object.entries(UNIFONT_HEX)) {
    it(`${ch} in its native 8x16 / 16x16 cell is exactly Unifont's glyph`, () => {
      const ref = hexGlyph(hex);
      const got = drawAlone(textEl(ch, { width: ref.width }), ref.width, 16);
      expect(Buffer.from(got.pixels).equals(Buffer.from(ref.pixels))).toBe(true);
    });
  }

  it('Font A 12x24 cells scale each glyph 1.5x (nearest dot) and double-size doubles every dot', () => {
    const ref = hexGlyph(UNIFONT_HEX.A);
    const a = drawAlone(textEl('A', { width: 12, height: 24, fontName: 'FontA' }), 12, 24);
    for (let y = 0; y < 24; y++) for (let x = 0; x < 12; x++) expect(a.get(x, y)).toBe(ref.get(Math.floor(((x + 0.5) * 8) / 12), Math.floor(((y + 0.5) * 16) / 24)));
    const big = drawAlone(textEl('A', { width: 24, height: 48, fontName: 'FontA', charScaleX: 2, charScaleY: 2 }), 24, 48);
    for (let y = 0; y < 48; y++) for (let x = 0; x < 24; x++) expect(big.get(x, y)).toBe(a.get(x >> 1, y >> 1));
  });

  it('Thai vowel marks are drawn over the consonant before them, in its cell', () => {
    // The engine gives each of the two characters a cell; the mark takes none on paper.
    const page = drawAlone(textEl('\u0e01\u0e31', { width: 16 }), 16, 16);
    const base = hexGlyph(UNIFONT_HEX.ก), mark = hexGlyph(UNIFONT_HEX['\u0e31']);
    for (let y = 0; y < 16; y++) for (let x = 0; x < 8; x++) expect(page.get(x, y)).toBe(base.get(x, y) || mark.get(x, y));
    expect(crop(page, 8, 0, 8, 16).countBlack()).toBe(0);
  });

  it('Arabic is joined (initial + final forms) and drawn right to left', () => {
    // ب ب in logical order: initial beh then final beh; on paper the first letter is on the right.
    const page = drawAlone(textEl('\u0628\u0628', { width: 16 }), 16, 16);
    expect(Buffer.from(crop(page, 0, 0, 8, 16).pixels).equals(Buffer.from(hexGlyph(UNIFONT_HEX['\ufe90']).pixels))).toBe(true);
    expect(Buffer.from(crop(page, 8, 0, 8, 16).pixels).equals(Buffer.from(hexGlyph(UNIFONT_HEX['\ufe91']).pixels))).toBe(true);
    // The text output keeps the logical order.
    expect(renderText([{ widthInDots: 16, items: [textEl('\u0628\u0628', { width: 16 })] }])).toBe('\u0628\u0628');
  });

  it('fullwidth glyphs take two cells of a mixed run', () => {
    const page = drawAlone(textEl('A漢', { width: 24 }), 24, 16);
    expect(Buffer.from(crop(page, 8, 0, 16, 16).pixels).equals(Buffer.from(hexGlyph(UNIFONT_HEX.漢).pixels))).toBe(true);
  });

  it('styles: bold widens strokes, underline, reverse, 90/180/270 rotation and upside-down move the same dots', () => {
    const plain = drawAlone(textEl('AB', { width: 16 }), 16, 16);
    const bold = drawAlone(textEl('AB', { width: 16, isBold: true }), 16, 16);
    expect(bold.countBlack()).toBeGreaterThan(plain.countBlack());
    for (let i = 0; i < plain.pixels.length; i++) if (plain.pixels[i]) expect(bold.pixels[i]).toBe(1);
    const under = drawAlone(textEl('AB', { width: 16, isUnderline: true, underlineThickness: 2 }), 16, 16);
    for (let x = 0; x < 16; x++) expect(under.get(x, 14) && under.get(x, 15)).toBe(true);
    const rev = drawAlone(textEl('AB', { width: 16, isReverse: true }), 16, 16);
    for (let i = 0; i < plain.pixels.length; i++) expect(rev.pixels[i]).toBe(plain.pixels[i] ? 0 : 1);
    expect(drawAlone(textEl('AB', { width: 16, height: 16, rotation: '90' }), 16, 16).pixels).toEqual(plain.rotate(90).pixels);
    expect(drawAlone(textEl('AB', { width: 16, rotation: '180' }), 16, 16).pixels).toEqual(plain.rotate(180).pixels);
    expect(drawAlone(textEl('AB', { width: 16, isUpsideDown: true }), 16, 16).pixels).toEqual(plain.rotate(180).pixels);
    expect(drawAlone(textEl('AB', { width: 16, height: 16, rotation: '270' }), 16, 16).pixels).toEqual(plain.rotate(270).pixels);
    const italic = drawAlone(textEl('AB', { width: 16, isItalic: true }), 20, 16);
    expect(italic.countBlack()).toBeGreaterThan(plain.countBlack() * 0.8); // sheared, the tops of the last glyph clipped at the run's end
    expect(italic.pixels).not.toEqual(drawAlone(textEl('AB', { width: 16 }), 20, 16).pixels);
  });

  it('EPL font 1 (8x12 cell, 10-dot pitch) shrinks glyphs without losing strokes', () => {
    const r = drawAlone(textEl('HI', { width: 20, height: 12, charSpacing: 2, fontName: 'EplFont1' }), 20, 12);
    // H: both verticals and the crossbar survive
    const rows = Array.from({ length: 12 }, (_, y) => Array.from({ length: 8 }, (_, x) => (r.get(x, y) ? 1 : 0)).join(''));
    expect(rows.some((row) => /^.1111110$/.test(row) || /1{5,}/.test(row))).toBe(true);
    expect(r.get(8, 6) || r.get(9, 6)).toBe(false); // the 2-dot gap between characters stays white
  });
});

describe('ESC/POS upside-down printing (ESC {)', () => {
  it('prints the line turned by half a turn, once', async () => {
    const line = 'Upside 123';
    const data = Uint8Array.from([0x1b, 0x40, 0x1b, 0x7b, 1, ...Buffer.from(`${line}\n`, 'latin1')]);
    const job = escposJob(data);
    const el = texts(job.canvases[0])[0];
    expect(el.text).toBe(line);
    const page = decodePngToBitmap((await renderPng(job.canvases)).png);
    const upright = drawAlone(textEl(line, { width: el.width, height: el.height, fontName: el.fontName }), el.width, el.height);
    const cut = crop(page, el.x, el.y, el.width, el.height);
    expect(cut.countBlack()).toBeGreaterThan(100);
    expect(Buffer.from(cut.pixels).equals(Buffer.from(upright.rotate(180).pixels))).toBe(true);
  });
});

describe('canvases, boxes and errors', () => {
  const canvas = (h: number | null, items: RenderCanvas['items'] = []): RenderCanvas => ({ widthInDots: 100, heightInDots: h, items });

  it('stacks canvases with a 24-dot white tear-off gap, or renders one by index', async () => {
    const cs = [canvas(50, [{ type: 'box', x: 0, y: 0, width: 100, height: 50, thickness: 1, isFilled: true }]), canvas(30, [{ type: 'box', x: 0, y: 0, width: 100, height: 30, thickness: 1, isFilled: true }])];
    const all = decodePngToBitmap((await renderPng(cs)).png);
    expect([all.width, all.height]).toEqual([100, 50 + TEAR_OFF_GAP_DOTS + 30]);
    expect(all.countBlack()).toBe(100 * 80);
    const second = await renderPng(cs, { canvasIndex: 1 });
    expect([second.widthInDots, second.heightInDots]).toEqual([100, 30]);
    await expect(renderPng(cs, { canvasIndex: 2 })).rejects.toBeInstanceOf(CanvasIndexError);
    expect(renderText([canvas(null, [textEl('one', { width: 24, y: 0 })]), canvas(null, [textEl('two', { width: 24 })])])).toBe('one\n\f\ntwo');
    const pdf = await PDFDocument.load((await renderPdf(cs, { dpi: 300 })).pdf);
    expect(pdf.getPageCount()).toBe(2);
    expect(pdf.getPage(1).getSize().height).toBeCloseTo((30 / 300) * 72, 2);
  });

  it('text is the same whatever order the runs come in: lines top to bottom, runs left to right, columns kept apart', () => {
    // Two columns per line, 12 dots a character; a line printed again higher up later (page mode).
    const runs = [
      textEl('Item', { x: 0, y: 0, width: 48 }), textEl('1.00', { x: 120, y: 0, width: 48 }),
      textEl('Tea', { x: 0, y: 24, width: 36 }), textEl('2.50', { x: 120, y: 24, width: 48 }),
      textEl('Total', { x: 0, y: 48, width: 60 }), textEl('3.50  ', { x: 120, y: 48, width: 72 }),
    ];
    const expected = 'Item      1.00\nTea       2.50\nTotal     3.50';
    const orders = [runs, [...runs].reverse(), [runs[4], runs[1], runs[0], runs[5], runs[3], runs[2]], [runs[0], runs[4], runs[1], runs[2], runs[3], runs[5]]];
    for (const items of orders) expect(renderText([canvas(null, items)])).toBe(expected);
  });

  it('white boxes erase and XOR boxes invert what is under them (EPL LW / LE)', async () => {
    const page = decodePngToBitmap((await renderPng([canvas(20, [
      { type: 'box', x: 0, y: 0, width: 60, height: 20, thickness: 1, isFilled: true },
      { type: 'box', x: 10, y: 0, width: 10, height: 20, thickness: 1, isFilled: true, drawMode: 'white' },
      { type: 'box', x: 50, y: 0, width: 20, height: 20, thickness: 1, isFilled: true, drawMode: 'xor' },
    ])])).png);
    expect([page.get(5, 5), page.get(15, 5), page.get(45, 5), page.get(55, 5), page.get(65, 5)]).toEqual([true, false, true, false, true]);
  });

  it('images come from the resolver for stored documents; missing ones are counted, not fatal', async () => {
    const logo = new Bitmap(8, 8);
    logo.fillRect(0, 0, 8, 8);
    const el = { type: 'image' as const, x: 4, y: 4, width: 8, height: 8, rotation: 'none' as const, media: { url: '/m/1', storageKey: 'k1' } };
    const ok = await renderPng([canvas(null, [el])], { resolveImage: (e) => (e.media?.storageKey === 'k1' ? logo : null) });
    expect(decodePngToBitmap(ok.png).countBlack()).toBe(64);
    const missing = await renderPng([canvas(null, [el])], { resolveImage: () => Promise.reject(new Error('gone')) });
    expect(missing.missingImages).toBe(1);
  });

  it('hostile geometry is clipped, never thrown', async () => {
    const r = await renderPng([{ widthInDots: 1e9, heightInDots: null, items: [
      textEl('x', { x: -50, y: 1e12, width: 1e9, height: 1e9 }),
      { type: 'line', x1: -1e9, y1: 0, x2: 1e9, y2: 5, thickness: 3 },
      { type: 'box', x: Number.NaN, y: 0, width: 10, height: 10, thickness: 2, isFilled: false },
    ] }]);
    expect(r.widthInDots).toBe(8192);
    expect(r.widthInDots * r.heightInDots).toBeLessThanOrEqual(64 * 1024 * 1024);
    const many = Array.from({ length: 50 }, () => ({ widthInDots: 8192, heightInDots: 8192, items: [] }));
    const cut = await renderPdf(many);
    expect(cut.isTruncated).toBe(true);
    expect(cut.pageCount).toBe(1);
  });
});
