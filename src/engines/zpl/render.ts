/**
 * Fields (ops) of one printed label copy to canvas elements, as a Zebra places them:
 *
 * - ^FO puts the top-left corner of the field's bounding box at (x, y), whatever its
 *   orientation; ^FT puts the field's typeset origin there: the left end of the text
 *   baseline, or the bottom-left corner of a bar code or graphic, in the field's own
 *   orientation (so the box moves with the rotation).
 * - Text and image elements carry their box on the paper and the clockwise rotation of their
 *   content inside it (the canvas model's convention, shared with the web UI).
 * - ^FR / ^LR fields are XOR-ed with the label drawn before them (Zebra: "the color of the
 *   output is the reverse of its background"): every element of the field, text, box, graphic,
 *   bar code and its interpretation line, has `drawMode: 'xor'`; line colour W is 'white'.
 *
 * Clipping to the label, the mirror of ^PM Y and the 180-degree turn of ^PO I are the label
 * machine's (label/geometry.ts layoutLabel), applied to what this returns.
 */
import type { BoxElement, CanvasElement, DrawMode, ImageElement, Rotation, TextElement } from '../canvas/model.ts';
import { Bitmap } from '../raster/bitmap.ts';
import { renderLinearBarcode, renderMatrixCode } from '../raster/barcode.ts';
import { pngOf } from '../raster/png.ts';
import { SymbolCache } from '../raster/symbol-cache.ts';
import { extensionBcid, prepareData, type BarcodeSpec } from './barcodes.ts';
import { digitGroups, extendGuards, GUARD_EXTENSION, isEanUpc } from './ean-upc.ts';
import { baselineOf, canvasFontName, charGap, runWidth, type SizedFont } from './fonts.ts';
import { quarterTurns, type Orientation } from './params.ts';
import { commandSource } from '../label/geometry.ts';
import type { FieldOrigin, Op, OpSource, TextBlock } from './state.ts';
import { roundedBox } from './shapes.ts';

/** ^BQ prints this many dots below its field origin (zebrash and Labelary follow Zebra here). */
const QR_OFFSET = 10;
const ROTATION: Rotation[] = ['none', '90', '180', '270'];

export interface RenderEnv {
  /** The text of a field for this copy (^FN recall data, ^SN serial step). */
  text(op: Extract<Op, { data: unknown }>): string;
  graphic(name: string): Bitmap | undefined;
}

export interface RenderedOp {
  op: Op;
  elements: CanvasElement[];
  error?: string;
}

interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}


/**
 * The paper box of a w x h object (in its own orientation, turned `q` quarter turns
 * clockwise) whose anchor point (ax, ay), in its own coordinates, lands on (x, y).
 */
export function placeRotated(x: number, y: number, w: number, h: number, q: 0 | 1 | 2 | 3, ax: number, ay: number): Box {
  const W = q % 2 ? h : w, H = q % 2 ? w : h;
  let rx: number, ry: number;
  switch (q) {
    case 0: rx = ax; ry = ay; break;
    case 1: rx = h - ay; ry = ax; break;
    case 2: rx = w - ax; ry = h - ay; break;
    default: rx = ay; ry = w - ax; break;
  }
  return { x: x - rx, y: y - ry, w: W, h: H };
}

/** The field's box on the paper from its origin, size and typeset anchor. */
function fieldBox(o: FieldOrigin, w: number, h: number, q: 0 | 1 | 2 | 3, typesetAnchorY: number): Box {
  // ^FO: the top-left of the (turned) box is at the origin; ^FT: the anchor is.
  const box = o.typeset ? placeRotated(o.x, o.y, w, h, q, 0, typesetAnchorY) : { x: o.x, y: o.y, w: q % 2 ? h : w, h: q % 2 ? w : h };
  if (o.justification === 1) box.x -= box.w;
  return box;
}

/** How a field's dots act on the label: ^FR / ^LR flip, line colour W erases, else black. */
function drawModeOf(op: { reverse: boolean; white?: boolean }): DrawMode | undefined {
  return op.reverse ? 'xor' : op.white ? 'white' : undefined;
}

function textElement(src: OpSource, text: string, font: SizedFont, box: Box, q: 0 | 1 | 2 | 3, mode: DrawMode | undefined): TextElement {
  const el: TextElement = {
    type: 'text',
    ...commandSource(src),
    text,
    x: box.x,
    y: box.y,
    width: box.w,
    height: box.h,
    fontName: canvasFontName(font.font),
    charSpacing: charGap(font),
    isBold: false,
    isUnderline: false,
    isReverse: false,
    charScaleX: font.magX,
    charScaleY: font.magY,
    rotation: ROTATION[q],
  };
  if (mode) el.drawMode = mode;
  return el;
}

function imageElement(src: OpSource, bitmap: Bitmap, box: Box, q: 0 | 1 | 2 | 3, mode: DrawMode | undefined): ImageElement {
  const el: ImageElement = { type: 'image', ...commandSource(src), image: pngOf(bitmap), x: box.x, y: box.y, width: box.w, height: box.h, rotation: ROTATION[q] };
  if (mode) el.drawMode = mode;
  return el;
}

/** Split text into the lines of a ^FB / ^TB block (word wrap; `\&` forces a break). */
export function wrapLines(text: string, font: SizedFont, block: TextBlock): string[] {
  const out: string[] = [];
  // A `\&` at the very end ends the last line; it does not open an empty one.
  const paragraphs = text.split('\\&');
  if (paragraphs.length > 1 && paragraphs[paragraphs.length - 1] === '') paragraphs.pop();
  for (const para of paragraphs) {
    const words = para.split(' ');
    let line = '';
    for (const word of words) {
      const candidate = line === '' ? word : `${line} ${word}`;
      const indent = out.length > 0 ? block.hangingIndent : 0;
      if (line !== '' && runWidth(font, candidate) + indent > block.width) {
        out.push(line);
        line = word;
      } else line = candidate;
    }
    out.push(line);
  }
  return out;
}

function renderText(op: Extract<Op, { kind: 'text' }>, text: string, elements: CanvasElement[]): void {
  const q = quarterTurns(op.orientation);
  const font = op.font;
  const base = baselineOf(font);
  if (!op.block) {
    const w = runWidth(font, text);
    const box = fieldBox(op.origin, w, font.height, q, base);
    elements.push(textElement(op.src, text, font, box, q, drawModeOf(op)));
    return;
  }
  const b = op.block;
  const lineHeight = font.height + b.lineSpacing;
  let lines = wrapLines(text, font, b);
  const maxLines = b.height !== undefined ? Math.max(1, Math.floor((b.height + b.lineSpacing) / lineHeight)) : b.maxLines;
  // More lines than allowed: ^FB prints the rest over its last line, ^TB drops what does not fit.
  if (lines.length > maxLines) lines = b.height !== undefined ? lines.slice(0, maxLines) : [...lines.slice(0, maxLines - 1), lines.slice(maxLines - 1).join(' ')];
  const blockH = b.height ?? maxLines * lineHeight - b.lineSpacing;
  // ^FT with a block: the origin is the baseline of the block's last line.
  const anchorY = (maxLines - 1) * lineHeight + base;
  const block = fieldBox(op.origin, b.width, blockH, q, anchorY);
  lines.forEach((line, i) => {
    const w = runWidth(font, line);
    const indent = i > 0 ? b.hangingIndent : 0;
    const lx = b.justification === 'C' ? Math.round((b.width - w) / 2) : b.justification === 'R' ? b.width - w : indent;
    const ly = i * lineHeight;
    // The line's box inside the block, turned with it.
    const lineBox = rotateInside(lx, ly, w, font.height, b.width, blockH, q);
    elements.push(textElement(op.src, line, font, { x: block.x + lineBox.x, y: block.y + lineBox.y, w: lineBox.w, h: lineBox.h }, q, drawModeOf(op)));
  });
}

/** Box of a local rectangle (lx, ly, w, h) inside a W x H block turned q quarter turns. */
function rotateInside(lx: number, ly: number, w: number, h: number, W: number, H: number, q: 0 | 1 | 2 | 3): Box {
  switch (q) {
    case 0: return { x: lx, y: ly, w, h };
    case 1: return { x: H - ly - h, y: lx, w: h, h: w };
    case 2: return { x: W - lx - w, y: H - ly - h, w, h };
    default: return { x: ly, y: W - lx - w, w: h, h: w };
  }
}

/** The interpretation line's font: Zebra scales it with the module width (font A at 1 dot). */
function interpretationFont(op: Extract<Op, { kind: 'barcode' }>): SizedFont {
  return op.textFont;
}

/** Rendered symbols by request: ^PQ copies and reprints reuse one bitmap, hence one PNG. */
const symbols = new SymbolCache<DrawnSymbol>((r) => (r.ok ? r.bitmap.pixels.byteLength : 0), 256);

/** A drawn symbol: its bars or modules, its human-readable text, and whether EAN/UPC guards were extended. */
type DrawnSymbol = { ok: true; bitmap: Bitmap; humanReadable: string; guarded: boolean } | { ok: false; error: string };

function symbolOf(r: ReturnType<typeof renderLinearBarcode>): DrawnSymbol {
  return r.ok ? { ok: true, bitmap: r.value.bitmap, humanReadable: r.value.humanReadable, guarded: false } : r;
}

function renderBarcode(op: Extract<Op, { kind: 'barcode' }>, data: string, elements: CanvasElement[]): string | undefined {
  const spec: BarcodeSpec = op.spec;
  const mode = drawModeOf(op);
  const prepared = prepareData(spec, data);
  if (!prepared.ok) return prepared.error;
  const q = quarterTurns(spec.orientation);
  const options = { ...spec.options, ...prepared.options };
  if (spec.kind === 'matrix') {
    const req = { bcid: spec.bcid, text: prepared.text, moduleSize: spec.moduleSize, rowHeight: spec.rowHeight, options };
    const r = symbols.get(`M${JSON.stringify(req)}`, () => symbolOf(renderMatrixCode(req)));
    if (!r.ok) return r.error;
    const bmp = r.bitmap;
    const box = fieldBox(op.origin, bmp.width, bmp.height, q, bmp.height);
    // A Zebra prints ^BQ ten dots below the field origin (Labelary and zebrash do the same).
    if (spec.command === 'BQ') box.y += QR_OFFSET;
    elements.push(imageElement(op.src, bmp, box, q, mode));
    return undefined;
  }
  const bcid = prepared.bcid ?? (spec.command === 'BS' ? extensionBcid(prepared.text) : spec.bcid);
  const eanUpc = isEanUpc(bcid);
  const barsHeight = eanUpc ? spec.height + GUARD_EXTENSION * spec.moduleWidth : spec.height;
  const req = { bcid, text: prepared.text, moduleWidth: spec.moduleWidth, wideRatio: spec.ratio, height: barsHeight, rowHeight: spec.rowHeight, options };
  const r = symbols.get(`L${JSON.stringify(req)}`, () => {
    const made = symbolOf(renderLinearBarcode(req));
    if (!made.ok || !eanUpc) return made;
    const guarded = extendGuards(bcid, made.bitmap, spec.moduleWidth, spec.height);
    return guarded ? { ...made, bitmap: guarded, guarded: true } : made;
  });
  if (!r.ok) return r.error;
  const guarded = r.guarded ? r.bitmap : null;
  const bars = r.bitmap;
  const hr = prepared.humanReadable ?? r.humanReadable;
  const font = interpretationFont(op);
  const groups = guarded && spec.interpretation === 'below' ? digitGroups(bcid, hr, spec.moduleWidth) : null;
  if (groups) {
    // EAN/UPC: digit groups between and beside the guards, just below the data bars.
    const field = fieldBox(op.origin, bars.width, bars.height, q, spec.height);
    elements.push(imageElement(op.src, bars, field, q, mode));
    for (const g of groups) {
      const tw = runWidth(font, g.text);
      const tb = rotateInside(Math.round(g.centre - tw / 2), spec.height + spec.moduleWidth, tw, font.height, bars.width, bars.height, q);
      elements.push(textElement(op.src, g.text, font, { x: field.x + tb.x, y: field.y + tb.y, w: tb.w, h: tb.h }, q, mode));
    }
    return undefined;
  }
  const showText = spec.interpretation !== 'none' && hr.length > 0;
  // ^FO / ^FT place the bars (top-left, or bottom-left for ^FT); the interpretation line sits
  // below them (above with g=Y) in the symbol's own orientation, outside the origin when the
  // rotation puts it there — as zebrash places it.
  const barsBox = fieldBox(op.origin, bars.width, bars.height, q, bars.height);
  elements.push(imageElement(op.src, bars, barsBox, q, mode));
  if (showText) {
    const tw = runWidth(font, hr);
    const tx = Math.round((bars.width - tw) / 2);
    const ty = spec.interpretation === 'above' ? -font.height : bars.height;
    const tb = rotateInside(tx, ty, tw, font.height, bars.width, bars.height, q);
    elements.push(textElement(op.src, hr, font, { x: barsBox.x + tb.x, y: barsBox.y + tb.y, w: tb.w, h: tb.h }, q, mode));
  }
  return undefined;
}

function boxElement(op: Extract<Op, { kind: 'box' }>, elements: CanvasElement[]): void {
  const { width: w, height: h, thickness: t } = op;
  const box = fieldBox(op.origin, w, h, 0, h);
  if (op.rounding > 0 && t < Math.min(w, h) / 2) {
    const bmp = roundedBox(w, h, t, op.rounding);
    if (bmp) elements.push(imageElement(op.src, bmp, box, 0, drawModeOf(op)));
    return;
  }
  const filled = t * 2 >= Math.min(w, h);
  const el: BoxElement = { type: 'box', ...commandSource(op.src), x: box.x, y: box.y, width: w, height: h, thickness: t, isFilled: filled };
  const mode = drawModeOf(op);
  if (mode) el.drawMode = mode;
  elements.push(el);
}

function rasterElement(op: { origin: FieldOrigin; src: OpSource; reverse: boolean; white?: boolean }, bitmap: Bitmap, magX: number, magY: number, orientation: Orientation | undefined, elements: CanvasElement[]): void {
  const bmp = magX > 1 || magY > 1 ? bitmap.scale(magX, magY) : bitmap;
  const q = quarterTurns(orientation ?? 'N');
  const box = fieldBox(op.origin, bmp.width, bmp.height, q, bmp.height);
  elements.push(imageElement(op.src, bmp, box, q, drawModeOf(op)));
}

export function renderOp(op: Op, env: RenderEnv): RenderedOp {
  const elements: CanvasElement[] = [];
  let error: string | undefined;
  try {
    switch (op.kind) {
      case 'text':
        renderText(op, env.text(op), elements);
        break;
      case 'barcode': {
        const e = renderBarcode(op, env.text(op), elements);
        if (e) error = `${op.spec.name} not printed: ${e}`;
        break;
      }
      case 'box':
        boxElement(op, elements);
        break;
      case 'raster':
        rasterElement(op, op.bitmap, op.magX, op.magY, op.orientation, elements);
        break;
      case 'storedGraphic': {
        const bmp = env.graphic(op.name);
        if (!bmp) error = `graphic ${op.name} is not in printer memory`;
        else rasterElement(op, bmp, op.magX, op.magY, undefined, elements);
        break;
      }
    }
  } catch (e) {
    error = `could not render: ${e instanceof Error ? e.message : String(e)}`;
  }
  return { op, elements, error };
}
