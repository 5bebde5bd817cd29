/**
 * ^FR / ^LR (a field XOR-ed with the label under it) and ^PM (the label mirrored left to
 * right), printed through the renderer (PNG, PDF), compared with zpl-renderer-js (zebrash),
 * an independent ZPL renderer, dot for dot where both draw the same bitmap (boxes, graphics,
 * bar codes); text glyphs differ between renderers, so text is compared by position.
 * zebrash has no ^PM: a mirrored label of ours is compared with its picture of the plain
 * label, mirrored.
 */
import { decode } from 'fast-png';
import { unzlibSync } from 'fflate';
import { PDFDocument, PDFName, PDFRawStream } from 'pdf-lib';
import { ready } from 'zpl-renderer-js';
import { beforeAll, describe, expect, it } from 'vitest';
import { Bitmap } from '../../../src/engines/raster/bitmap.ts';
import { decodePngToBitmap } from '../../../src/engines/raster/png.ts';
import { renderPdf, renderPng } from '../../../src/engines/render/index.ts';
import { mirrorX } from '../../../src/engines/label/geometry.ts';
import type { Canvas, CanvasElement } from '../../../src/engines/canvas/model.ts';
import { pngOf } from '../../../src/engines/raster/png.ts';
import { BarcodeFormat, images, qrDecode, texts, zpl, zxingDecode } from './helpers.ts';

/** The label both renderers draw: 4 x 6 in at 8 dots/mm (zebrash's size for 101.6 x 152.4 mm). */
const W = 813, H = 1219;
const LABEL = `^PW${W}^LL${H}`;

let oracle: (zpl: string) => Promise<Bitmap>;

beforeAll(async () => {
  const { api } = await ready;
  oracle = async (text) => {
    const img = decode(Buffer.from(await api.zplToBase64Async(text, 101.6, 152.4, 8), 'base64'));
    const { width, channels } = img;
    const data = img.data as Uint8Array;
    // zebrash's picture is a row taller than the label (ceil of 152.4 mm x 8): cut it to the label.
    const out = new Bitmap(W, H);
    for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) {
      const i = (y * width + x) * channels;
      const alpha = channels === 4 || channels === 2 ? data[i + channels - 1] : 255;
      if (alpha > 127 && data[i] < 128) out.set(x, y);
    }
    return out;
  };
}, 60_000);

/** Our printout of the first label (the server's PNG, decoded). */
async function ours(text: string | Uint8Array): Promise<Bitmap> {
  const { job } = zpl(text);
  expect(job.errorMessages).toEqual([]);
  const page = decodePngToBitmap((await renderPng(job.canvases, { canvasIndex: 0 })).png);
  expect([page.width, page.height]).toEqual([W, H]);
  return page;
}

/** Dots where two pictures differ (within the smaller of the two). */
function differing(a: Bitmap, b: Bitmap): number {
  let n = 0;
  for (let y = 0; y < Math.min(a.height, b.height); y++) for (let x = 0; x < Math.min(a.width, b.width); x++) if (a.get(x, y) !== b.get(x, y)) n++;
  return n;
}

const mirrored = (b: Bitmap): Bitmap => b.mirrorX();
const flippedUpsideDown = (b: Bitmap): Bitmap => b.rotate(180).mirrorX();

/** A 160 x 20 dot graphic: rows of alternating stripes (hex, 20 bytes per row). */
const STRIPES = Array.from({ length: 20 }, (_, r) => (r % 2 ? 'F0'.repeat(20) : '00FF'.repeat(10))).join('');
const GF = `^GFA,400,400,20,${STRIPES}`;

/**
 * A black box with a box, a graphic and a Code 128 over its edges, each `prefix`-ed (^FR or
 * nothing). (QR modules are left to the decode test: zebrash's encoder picks other masks.
 * Square filled boxes are avoided: zebrash draws them a dot larger.)
 */
function overlapping(prefix: string): string {
  return [
    '^FO100,100^GB400,300,300^FS',
    `^FO400,150${prefix}^GB200,100,20^FS`,
    `^FO20,150${prefix}${GF}^FS`,
    `^FO200,330^BY2${prefix}^BCN,120,N,N^FDABC123^FS`,
  ].join('');
}

describe('^FR and ^LR: a field is XOR-ed with the label under it', () => {
  it('box, graphic and Code 128 over a black box match zpl-renderer-js dot for dot', async () => {
    const text = `^XA${LABEL}${overlapping('^FR')}^XZ`;
    const [mine, theirs] = [await ours(text), await oracle(text)];
    expect(theirs.countBlack()).toBeGreaterThan(100_000);
    expect(differing(mine, theirs)).toBe(0);
    // The reverse shows: where the graphic's stripes cross the black box they print white.
    expect(differing(mine, await ours(`^XA${LABEL}${overlapping('')}^XZ`))).toBeGreaterThan(1000);
    expect(mine.get(100 + 8, 150)).toBe(false); // the first row's first 8 black dots of the graphic at x 100..107
    expect(mine.get(92, 150)).toBe(true); // ...and outside the box they are black as ever
  });

  it('^LRY reverses every field after it, ^LRN stops it; ^FR under ^LR still reverses', async () => {
    const text = `^XA${LABEL}^FO100,100^GB400,300,300^FS^LRY^FO400,150^GB200,100,20^FS^FO20,150^FR${GF}^FS`
      + `^FO200,330^BY2^BCN,120,N,N^FDABC123^FS^LRN^FO600,600^GB100,110,100^FS^FO650,650^GB100,110,100^FS^XZ`;
    const [mine, theirs] = [await ours(text), await oracle(text)];
    expect(differing(mine, theirs)).toBe(0);
    expect(mine.get(201, 340)).toBe(false); // the Code 128's first bar over the black box: white
    expect(mine.get(660, 660)).toBe(true); // after ^LRN the boxes overlap in black
  });

  it('a stored graphic (~DG, ^XG, ^IM) under ^FR is XOR-ed like ^GF (zpl-renderer-js for ~DG + ^XG)', async () => {
    const box = '^FO100,100^GB400,300,300^FS';
    const text = `~DGR:STRIPES.GRF,400,20,${STRIPES}^XA${LABEL}${box}^FO20,150^FR^XGR:STRIPES.GRF,1,1^FS^XZ`;
    const [mine, theirs] = [await ours(text), await oracle(text)];
    expect(differing(mine, theirs)).toBe(0);
    expect(differing(mine, await ours(`^XA${LABEL}${box}^FO20,150^FR${GF}^FS^XZ`))).toBe(0);
    expect(differing(mine, await ours(`~DGR:STRIPES.GRF,400,20,${STRIPES}^XA${LABEL}${box}^FO20,150^FR^IMR:STRIPES.GRF^FS^XZ`))).toBe(0);
  });

  it('reversed bar codes inside a black box decode once the crop is inverted', async () => {
    const page = await ours(`^XA${LABEL}^FO50,50^GB700,500,500^FS^FO150,100^FR^BY3^BCN,150,Y,N^FDSLIP-0042^FS^FO300,320^FR^BQN,2,6^FDQA,https://slipstream.example/r/42^FS^XZ`);
    const crop = new Bitmap(700, 500);
    for (let y = 0; y < 500; y++) for (let x = 0; x < 700; x++) crop.set(x, y, !page.get(50 + x, 50 + y));
    const top = new Bitmap(700, 220), bottom = new Bitmap(700, 280);
    top.blit(crop, 0, 0, 'copy');
    bottom.blit(crop, 0, -220, 'copy');
    expect(zxingDecode(top, [BarcodeFormat.CODE_128])?.text).toBe('SLIP-0042');
    expect(qrDecode(bottom)).toBe('https://slipstream.example/r/42');
    // Uninverted, the reversed symbols are white on black: not readable as printed on white.
    const asPrinted = new Bitmap(700, 220);
    for (let y = 0; y < 220; y++) for (let x = 0; x < 700; x++) asPrinted.set(x, y, page.get(50 + x, 50 + y));
    expect(zxingDecode(asPrinted, [BarcodeFormat.CODE_128], true)?.text).not.toBe('SLIP-0042');
  });

  it('reversed text prints white where it crosses black and black elsewhere, where zpl-renderer-js prints it', async () => {
    const text = `^XA${LABEL}^FO100,100^GB300,120,120^FS^FO60,130^FR^A0N,60,60^FDREVERSED TEXT^FS^XZ`;
    const { job } = zpl(text);
    const el = texts(job.canvases[0])[0];
    expect(el.drawMode).toBe('xor');
    const [mine, theirs] = [await ours(text), await oracle(text)];
    // The glyphs cut white out of the black box: zebrash's cut-outs lie in our text element's
    // box, and start where ours start (glyph shapes differ: font 0's side bearing is about a
    // twelfth of its height).
    const whiteIn = (b: Bitmap): { x0: number; y0: number; x1: number; y1: number } => {
      let x0 = Infinity, y0 = Infinity, x1 = -1, y1 = -1;
      for (let y = 100; y < 220; y++) for (let x = 100; x < 400; x++) if (!b.get(x, y)) { x0 = Math.min(x0, x); y0 = Math.min(y0, y); x1 = Math.max(x1, x); y1 = Math.max(y1, y); }
      return { x0, y0, x1, y1 };
    };
    const a = whiteIn(mine), b = whiteIn(theirs);
    expect(a.x1).toBeGreaterThan(0);
    expect(b.x1).toBeGreaterThan(0);
    for (const r of [a, b]) {
      expect(r.y0).toBeGreaterThanOrEqual(el.y - 4);
      expect(r.y1).toBeLessThan(el.y + el.height + 4);
    }
    expect(Math.abs(a.x0 - b.x0)).toBeLessThanOrEqual(Math.max(4, Math.round(el.height / 12)));
    // Outside the box the text is black ink in both, from the field origin on.
    let inkLeft = 0;
    for (let y = 130; y < 190; y++) for (let x = 60; x < 100; x++) if (mine.get(x, y)) inkLeft++;
    expect(inkLeft).toBeGreaterThan(50);
  });

  it('the PDF page holds the same dots as the PNG', async () => {
    const { job } = zpl(`^XA${LABEL}^PMY${overlapping('^FR')}^XZ`);
    const png = decodePngToBitmap((await renderPng(job.canvases)).png);
    const doc = await PDFDocument.load((await renderPdf(job.canvases, { dpi: 203 })).pdf);
    const streams = doc.context.enumerateIndirectObjects().map(([, o]) => o).filter((o): o is PDFRawStream => o instanceof PDFRawStream && o.dict.get(PDFName.of('Subtype')) === PDFName.of('Image'));
    expect(streams).toHaveLength(1);
    const rows = unzlibSync(streams[0].contents);
    const stride = Math.ceil(W / 8);
    let diff = 0;
    for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) if (((rows[y * stride + (x >> 3)] >> (7 - (x & 7))) & 1) === 1 !== png.get(x, y)) diff++;
    expect(diff).toBe(0);
  });
});

describe('^PM: the label prints mirrored left to right', () => {
  /**
   * Boxes, a graphic, Code 128 in two orientations, a QR code and a reversed field. (^GD is
   * an image like ^GF, but zebrash draws its line with another algorithm.)
   */
  const shapes = [
    '^FO40,40^GB300,200,6^FS',
    `^FO60,300${GF}^FS`,
    '^FO60,400^BY2^BCN,120,N,N^FDMIRROR-1^FS',
    '^FO600,400^BY2^BCR,100,N,N^FDMIRROR-2^FS',
    '^FO100,700^BQN,2,5^FDQA,MIRRORED^FS',
    '^FO50,650^GB320,300,300^FS^FO200,800^FR^GB300,100,30^FS',
  ].join('');

  it('graphics, boxes and bar codes are zpl-renderer-js\'s picture of the plain label, mirrored, dot for dot', async () => {
    const mine = await ours(`^XA${LABEL}^PMY${shapes}^XZ`);
    const theirs = await oracle(`^XA${LABEL}${shapes}^XZ`);
    expect(theirs.countBlack()).toBeGreaterThan(50_000);
    expect(differing(mine, mirrored(theirs))).toBe(0);
    expect(differing(mine, theirs)).toBeGreaterThan(10_000);
  });

  it('text in every orientation lands mirrored: element boxes mirrored, runs flipped, where zpl-renderer-js\'s text is mirrored', async () => {
    const fields = '^FO40,60^A0N,50,40^FDMIRROR NORMAL^FS^FO700,200^A0R,40,30^FDROTATED R^FS^FO200,700^ADI,36,20^FDINVERTED^FS^FO60,300^ADB,36,20^FDBOTTOM UP^FS';
    const plain = zpl(`^XA${LABEL}${fields}^XZ`).job.canvases[0];
    const { job } = zpl(`^XA${LABEL}^PMY${fields}^XZ`);
    const turned = texts(job.canvases[0]);
    const swap = { none: 'none', '90': '270', '180': '180', '270': '90' } as const;
    texts(plain).forEach((p, i) => {
      const m = turned[i];
      expect([m.x, m.y, m.width, m.height, m.rotation, m.isMirrored]).toEqual([W - p.x - p.width, p.y, p.width, p.height, swap[p.rotation], true]);
    });
    // Our mirrored printout is our plain printout mirrored, dot for dot, glyphs included.
    expect(differing(await ours(`^XA${LABEL}^PMY${fields}^XZ`), mirrored(await ours(`^XA${LABEL}${fields}^XZ`)))).toBe(0);
    // And every text box holds zebrash's ink, mirrored, within a few dots of its edges.
    const theirs = mirrored(await oracle(`^XA${LABEL}${fields}^XZ`));
    for (const m of turned) {
      let x0 = Infinity, x1 = -1, y0 = Infinity, y1 = -1;
      for (let y = m.y - 4; y < m.y + m.height + 4; y++) for (let x = m.x - 4; x < m.x + m.width + 4; x++) if (theirs.get(x, y)) { x0 = Math.min(x0, x); x1 = Math.max(x1, x); y0 = Math.min(y0, y); y1 = Math.max(y1, y); }
      expect(x1, m.text).toBeGreaterThan(0);
      expect(x0, m.text).toBeGreaterThanOrEqual(m.x - 4);
      expect(x1, m.text).toBeLessThan(m.x + m.width + 4);
      expect(y0, m.text).toBeGreaterThanOrEqual(m.y - 4);
      expect(y1, m.text).toBeLessThan(m.y + m.height + 4);
    }
  });

  it('^PMY with ^POI is the plain label upside down (mirror and 180-degree turn)', async () => {
    const fields = `${shapes}^FO40,1000^A0N,50,40^FDTURNED AND MIRRORED^FS`;
    const both = await ours(`^XA${LABEL}^PMY^POI${fields}^XZ`);
    expect(differing(both, flippedUpsideDown(await ours(`^XA${LABEL}${fields}^XZ`)))).toBe(0);
    expect(differing(both, flippedUpsideDown(await oracle(`^XA${LABEL}${fields}^XZ`)))).toBeLessThan(both.countBlack() / 20);
  });

  it('mirrorX of every element kind (lines included) prints the mirror image of the canvas', async () => {
    const src = { commandRaw: '', commandDescription: [], lengthInBytes: 0 };
    const pic = Bitmap.fromPackedRows(2, 3, Uint8Array.of(0xf0, 0x01, 0x80, 0xff, 0x0f, 0x3c));
    const els = (): CanvasElement[] => [
      { ...src, type: 'line', x1: 30, y1: 10, x2: 30, y2: 90, thickness: 5 },
      { ...src, type: 'line', x1: 40, y1: 20, x2: 140, y2: 20, thickness: 3 },
      { ...src, type: 'box', x: 50, y: 40, width: 70, height: 30, thickness: 4, isFilled: false },
      ...(['none', '90', '180', '270'] as const).map((rotation, i): CanvasElement => ({ ...src, type: 'image', image: pngOf(pic), x: 20 + 30 * i, y: 100, width: i % 2 ? 3 : 16, height: i % 2 ? 16 : 3, rotation })),
      ...(['none', '90', '180', '270'] as const).map((rotation, i): CanvasElement => ({ ...src, type: 'text', text: 'Fg', x: 20 + 40 * i, y: 130, width: i % 2 ? 24 : 24, height: i % 2 ? 24 : 24, fontName: 'ZplFontD', charSpacing: 2, isBold: false, isUnderline: false, isReverse: false, charScaleX: 1, charScaleY: 1, rotation })),
    ];
    const page = async (items: CanvasElement[]): Promise<Bitmap> => decodePngToBitmap((await renderPng([{ widthInDots: 200, heightInDots: 170, items } satisfies Canvas])).png);
    const flipped = els();
    for (const el of flipped) mirrorX(el, 200);
    const plain = await page(els());
    expect(plain.countBlack()).toBeGreaterThan(800);
    expect(differing(await page(flipped), plain.mirrorX())).toBe(0);
    // Twice is the identity.
    for (const el of flipped) mirrorX(el, 200);
    expect(differing(await page(flipped), plain)).toBe(0);
  });

  it('^PM stays for the next labels of the connection until ^PMN', async () => {
    const { job } = zpl(`^XA${LABEL}^PMY^FO10,10^GB100,50,50^FS^XZ^XA^FO10,10^GB100,50,50^FS^XZ^XA^PMN^FO10,10^GB100,50,50^FS^XZ`);
    expect(job.canvases.map((c) => c.items.find((e) => e.type === 'box')).map((b) => b?.type === 'box' && b.x)).toEqual([W - 110, W - 110, 10]);
  });

  it('images keep one mirrored PNG across ^PQ copies', () => {
    const { job } = zpl(`^XA${LABEL}^PMY^FO10,10${GF}^FS^PQ3^XZ`);
    const pngs = job.canvases.map((c) => images(c)[0].image);
    expect(pngs).toHaveLength(3);
    expect(new Set(pngs).size).toBe(1);
    const bmp = decodePngToBitmap(pngs[0].png);
    // Row 0 was 00 FF … 00 FF (dots 8–15 … 152–159 black): mirrored, dots 0–7 … 144–151 are.
    expect([0, 7, 8, 151, 152, 159].map((x) => bmp.get(x, 0))).toEqual([true, true, false, true, false, false]);
  });
});

describe('line colour W erases what is under it', () => {
  it('a white circle, ellipse, diagonal and rounded box cut their shape out of a black box', async () => {
    const shapes = ['^FO120,120^GC100,8,W^FS', '^FO260,120^GE150,80,6,W^FS', '^FO120,260^GD120,100,6,W,L^FS', '^FO300,260^GB150,100,10,W,4^FS'];
    const { job } = zpl(`^XA${LABEL}^FO100,100^GB420,300,300^FS${shapes.join('')}^XZ`);
    expect(images(job.canvases[0]).map((i) => i.drawMode)).toEqual(['white', 'white', 'white', 'white']);
    const page = await ours(`^XA${LABEL}^FO100,100^GB420,300,300^FS${shapes.join('')}^XZ`);
    // Each shape's own black dots are the white dots it leaves in the box.
    for (const el of images(job.canvases[0])) {
      const shape = decodePngToBitmap(el.image.png);
      let dots = 0;
      for (let y = 0; y < shape.height; y++) for (let x = 0; x < shape.width; x++) {
        if (shape.get(x, y)) dots++;
        expect(page.get(el.x + x, el.y + y), `${el.commandDescription.join(' ')} ${x},${y}`).toBe(!shape.get(x, y));
      }
      expect(dots).toBeGreaterThan(100);
    }
  });
});
