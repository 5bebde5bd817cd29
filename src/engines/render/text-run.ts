/**
 * Draws one text element with Unifont glyphs fitted to the element's character cells, the way
 * the print head would: each character's cell is the element's width shared among its
 * characters (fullwidth CJK/Hangul glyphs take two shares), the glyph is scaled to the cell's
 * unscaled size (e.g. Font A 12x24, Font B 9x17, EPL font 1 8x12) and then multiplied by
 * the element's integer character scale, as double-width/height printing does. Arabic is
 * joined and right-to-left text put in display order (visual-order.ts); combining marks
 * (Thai vowels and tone marks, accents) are drawn over the character before them.
 */
import { isCombining, isFullwidth, sourceDot, sourceGlyph, SOURCE_GLYPH_HEIGHT, type SourceGlyph } from './glyphs/glyph-table.ts';
import { visualOrder } from './visual-order.ts';
import { font0Advance, font0Glyph } from './glyphs/font0.ts';
import { blitPacked, orPacked, PackedRaster } from './raster.ts';
import type { RenderTextElement } from './types.ts';

/** A glyph ready to stamp, relative to its cell's top-left: packed rows, and its black dots as (dx, dy) pairs for rotated runs. */
interface StampedGlyph {
  rows: PackedRaster;
  /** Filled on first use: only rotated or reversed runs need them. */
  dots?: Uint16Array;
}

/** Stamped glyphs by cell geometry and style (a number, see `cellKey`), then by code point. */
const cache = new Map<number, Map<number, StampedGlyph>>();
let cached = 0;
/** Largest unscaled character cell drawn (EPL font 5 is 32x48; Zebra's largest about 60x60). */
const MAX_CELL_DOTS = 256;
/** Largest scaled glyph side (EPL font 5 at x8 is 256 wide, at x9 432 high). */
const MAX_GLYPH_DOTS = 1024;
const CACHE_LIMIT = 50_000;

/** Which source dots feed target dot `t` of `targetSize`: nearest when enlarging, any-of when shrinking (thin strokes survive). */
function sourceSpan(t: number, targetSize: number, sourceSize: number): [number, number] {
  if (targetSize >= sourceSize) {
    const s = Math.min(sourceSize - 1, Math.floor(((t + 0.5) * sourceSize) / targetSize));
    return [s, s + 1];
  }
  const a = Math.floor((t * sourceSize) / targetSize);
  const b = Math.max(a + 1, Math.floor(((t + 1) * sourceSize) / targetSize));
  return [a, b];
}

/** A hollow box for characters the glyph table lacks (the printer's "unknown character"). */
function missingGlyphDots(w: number, h: number, put: (x: number, y: number) => void): void {
  const x0 = 1, x1 = Math.max(x0, w - 2), y0 = Math.floor(h * 0.2), y1 = Math.max(y0, Math.floor(h * 0.85));
  for (let x = x0; x <= x1; x++) { put(x, y0); put(x, y1); }
  for (let y = y0; y <= y1; y++) { put(x0, y); put(x1, y); }
}

function stamp(cp: number, cellW: number, cellH: number, scaleX: number, scaleY: number, bold: boolean, italic: boolean): StampedGlyph {
  const key = (((cellW * 257 + cellH) * 17 + scaleX) * 17 + scaleY) * 4 + (bold ? 2 : 0) + (italic ? 1 : 0);
  let byCodePoint = cache.get(key);
  const hit = byCodePoint?.get(cp);
  if (hit) return hit;
  // 1. The glyph in its unscaled cell.
  const cell = new Uint8Array(cellW * cellH);
  const glyph: SourceGlyph | null = sourceGlyph(cp);
  if (glyph) {
    for (let ty = 0; ty < cellH; ty++) {
      const [ya, yb] = sourceSpan(ty, cellH, SOURCE_GLYPH_HEIGHT);
      for (let tx = 0; tx < cellW; tx++) {
        const [xa, xb] = sourceSpan(tx, cellW, glyph.width);
        let on = false;
        for (let sy = ya; sy < yb && !on; sy++) for (let sx = xa; sx < xb && !on; sx++) on = sourceDot(glyph, sx, sy);
        if (on) cell[ty * cellW + tx] = 1;
      }
    }
  } else if (cp > 0x20) {
    missingGlyphDots(cellW, cellH, (x, y) => { cell[y * cellW + x] = 1; });
  }
  // 2. Emphasis prints each dot twice, the second one dot to the right.
  if (bold) {
    for (let y = 0; y < cellH; y++) for (let x = cellW - 1; x > 0; x--) if (cell[y * cellW + x - 1]) cell[y * cellW + x] = 1;
  }
  // 3. Scale by the character multipliers; italic shears rows right towards the top.
  const shearMax = italic ? Math.floor(((cellH - 1) * scaleX) / 4) : 0;
  const rows = new PackedRaster(cellW * scaleX + shearMax, cellH * scaleY);
  for (let y = 0; y < cellH; y++) {
    const shear = italic ? Math.floor(((cellH - 1 - y) * scaleX) / 4) : 0;
    for (let x = 0; x < cellW; x++) {
      if (!cell[y * cellW + x]) continue;
      for (let ry = 0; ry < scaleY; ry++) {
        const row = y * scaleY + ry;
        rows.fillRect(x * scaleX + shear, row, scaleX, 1);
      }
    }
  }
  const stamped: StampedGlyph = { rows };
  if (cached >= CACHE_LIMIT) { cache.clear(); cached = 0; byCodePoint = undefined; }
  if (!byCodePoint) cache.set(key, (byCodePoint = new Map()));
  byCodePoint.set(cp, stamped);
  cached++;
  return stamped;
}

/**
 * The turn of the run on paper. `isUpsideDown` (ESC/POS ESC {) says the same as rotation
 * '180' — the engines set both — so it adds a half turn only to text not already turned.
 */
/** The black dots of a stamped glyph as (dx, dy) pairs. */
function dotsOf(rows: PackedRaster): Uint16Array {
  const out: number[] = [];
  for (let y = 0; y < rows.height; y++) for (let x = 0; x < rows.width; x++) if (rows.get(x, y)) out.push(x, y);
  return Uint16Array.from(out);
}

function effectiveRotation(el: RenderTextElement): 0 | 90 | 180 | 270 {
  const base = el.rotation === '90' ? 90 : el.rotation === '180' ? 180 : el.rotation === '270' ? 270 : 0;
  return base === 0 && el.isUpsideDown ? 180 : base;
}

function positive(v: number | undefined, fallback: number): number {
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : fallback;
}

/** Where a run's dots land on the page: the element's box, its effective rotation and mirror. */
interface RunFrame {
  page: PackedRaster;
  rot: 0 | 90 | 180 | 270;
  /** The run is flipped end to end (u -> runW - 1 - u) before it is turned. */
  mirrored: boolean;
  x0: number;
  y0: number;
  runW: number;
  runH: number;
}

/** Set (black) or clear (white) run dot (u along the text, v across it), clipped to the run. */
function plotRun(f: RunFrame, u: number, v: number, mode: 'black' | 'white'): void {
  if (u < 0 || v < 0 || u >= f.runW || v >= f.runH) return;
  if (f.mirrored) u = f.runW - 1 - u;
  switch (f.rot) {
    case 0: f.page.plot(f.x0 + u, f.y0 + v, mode); break;
    case 90: f.page.plot(f.x0 + f.runH - 1 - v, f.y0 + u, mode); break;
    case 180: f.page.plot(f.x0 + f.runW - 1 - u, f.y0 + f.runH - 1 - v, mode); break;
    default: f.page.plot(f.x0 + v, f.y0 + f.runW - 1 - u, mode); break;
  }
}

/** The page rectangle covered by run rectangle (u, v, w, h): rotation maps rectangles to rectangles. */
function runRectToPage(f: RunFrame, u: number, v: number, w: number, h: number): { x: number; y: number; w: number; h: number } {
  if (f.mirrored) u = f.runW - (u + w);
  switch (f.rot) {
    case 0: return { x: f.x0 + u, y: f.y0 + v, w, h };
    case 90: return { x: f.x0 + f.runH - (v + h), y: f.y0 + u, w: h, h: w };
    case 180: return { x: f.x0 + f.runW - (u + w), y: f.y0 + f.runH - (v + h), w, h };
    default: return { x: f.x0 + v, y: f.y0 + f.runW - (u + w), w: h, h: w };
  }
}

function overlapsPage(f: RunFrame, r: { x: number; y: number; w: number; h: number }): boolean {
  return r.x < f.page.width && r.y < f.page.height && r.x + r.w > 0 && r.y + r.h > 0;
}

/** Fill run rectangle (u, v, w, h), clipped to the run, in one page rectangle whatever the rotation. */
function fillRun(f: RunFrame, u: number, v: number, w: number, h: number, mode: 'black' | 'white'): void {
  const u0 = Math.max(0, u), v0 = Math.max(0, v);
  const u1 = Math.min(f.runW, u + w), v1 = Math.min(f.runH, v + h);
  if (u1 <= u0 || v1 <= v0) return;
  const r = runRectToPage(f, u0, v0, u1 - u0, v1 - v0);
  f.page.fillRect(r.x, r.y, r.w, r.h, mode);
}

/**
 * Draw `el` onto `page`, `offsetY` dots down. Coordinates inside the run (u along the text,
 * v across it) are mapped onto the element's bounding box by its rotation.
 */
export function drawTextElement(page: PackedRaster, el: RenderTextElement, offsetY = 0): void {
  const text = el.text ?? '';
  if (text.length === 0) return;
  if (el.drawMode === 'white' || el.drawMode === 'xor') {
    drawTextInMode(page, el, offsetY, el.drawMode);
    return;
  }
  const rot = effectiveRotation(el);
  const sideways = rot === 90 || rot === 270;
  const boxW = Math.max(0, Math.round(el.width)), boxH = Math.max(0, Math.round(el.height));
  const runW = sideways ? boxH : boxW;
  const runH = sideways ? boxW : boxH;
  if (runW === 0 || runH === 0) return;
  const x0 = Math.round(el.x), y0 = Math.round(el.y) + offsetY;
  // Entirely off the page: nothing to draw.
  if (!(x0 < page.width && y0 < page.height && x0 + boxW > 0 && y0 + boxH > 0)) return;
  const frame: RunFrame = { page, rot, mirrored: el.isMirrored === true, x0, y0, runW, runH };
  // Real printers multiply characters by at most 8 (ESC/POS) or 9 (EPL); 16 leaves room
  // for other languages while keeping a hostile element's glyph cache entry small.
  const sx = Math.min(16, Math.max(1, Math.round(positive(el.charScaleX, 1))));
  const sy = Math.min(16, Math.max(1, Math.round(positive(el.charScaleY, 1))));
  const spacing = Math.max(0, el.charSpacing || 0);

  if (el.isReverse) fillRun(frame, 0, 0, runW, runH, 'black');
  const ink = el.isReverse ? 'white' : 'black';
  const fast = rot === 0 && !el.isReverse && !frame.mirrored;
  const put = (left: number, glyph: StampedGlyph): void => {
    if (fast && left + glyph.rows.width <= runW && glyph.rows.height <= runH) {
      orPacked(page, glyph.rows, x0 + left, y0);
    } else if (overlapsPage(frame, runRectToPage(frame, left, 0, glyph.rows.width, glyph.rows.height))) {
      const dots = (glyph.dots ??= dotsOf(glyph.rows));
      for (let k = 0; k < dots.length; k += 2) plotRun(frame, left + dots[k], dots[k + 1], ink);
    }
  };
  if (el.fontName === FONT0_NAME) {
    drawFont0Run(text, runW, runH, put);
    return;
  }
  // Cells as the engines lay them out: one per character, two for fullwidth ones.
  let totalUnits = 0;
  for (const ch of text) totalUnits += isFullwidth(ch.codePointAt(0)!) ? 2 : 1;
  const unitAdvance = runW / totalUnits;
  const cellH = Math.min(MAX_CELL_DOTS, Math.max(1, Math.round(runH / sy)));
  const gsy = Math.max(1, Math.min(sy, Math.floor(MAX_GLYPH_DOTS / cellH)));
  const bold = el.isBold || el.isDoubleStrike === true;
  const italic = el.isItalic === true;
  let at = 0;
  // The previous base character's cell, which a combining mark is drawn over (Unifont designs
  // marks to overlay the character before them); marks take no cell of their own on paper.
  let baseLeft = -1, baseCellW = 0, gsx = sx;
  for (const ch of visualOrder(text)) {
    const cp = ch.codePointAt(0)!;
    let left: number, cellW: number;
    if (baseLeft >= 0 && isCombining(cp)) {
      left = baseLeft;
      cellW = baseCellW;
    } else {
      left = Math.round(at * unitAdvance);
      if (left >= runW) break;
      at += isFullwidth(cp) ? 2 : 1;
      const advance = Math.round(at * unitAdvance) - left;
      cellW = Math.min(MAX_CELL_DOTS, Math.max(1, Math.round((advance - spacing) / sx)));
      gsx = Math.max(1, Math.min(sx, Math.floor(MAX_GLYPH_DOTS / cellW)));
      baseLeft = left;
      baseCellW = cellW;
      if (cp === 0x20 || cp === 0x3000) continue;
    }
    put(left, stamp(cp, cellW, cellH, gsx, gsy, bold, italic));
  }
  if (el.isUnderline) {
    const t = Math.min(runH, Math.max(1, Math.round(positive(el.underlineThickness, 1))));
    fillRun(frame, 0, runH - t, runW, t, el.isReverse ? 'white' : 'black');
  }
}

/** The canvas font name of Zebra's scalable font 0 (zpl/fonts.ts canvasFontName). */
const FONT0_NAME = 'ZplFont0';

/** Font 0 glyphs by cell (advance and height), then by code point. */
const font0Cache = new Map<number, Map<number, StampedGlyph>>();
let font0Cached = 0;

function font0Stamp(cp: number, advance: number, height: number): StampedGlyph {
  const key = advance * 65536 + height;
  let byCodePoint = font0Cache.get(key);
  const hit = byCodePoint?.get(cp);
  if (hit) return hit;
  // Characters the outlines lack take the bitmap glyphs, fitted to the cell.
  const stamped: StampedGlyph = { rows: font0Glyph(cp, advance, height) ?? stamp(cp, Math.min(MAX_CELL_DOTS, advance), Math.min(MAX_CELL_DOTS, height), 1, 1, true, false).rows };
  if (font0Cached >= CACHE_LIMIT) { font0Cache.clear(); font0Cached = 0; byCodePoint = undefined; }
  if (!byCodePoint) font0Cache.set(key, (byCodePoint = new Map()));
  byCodePoint.set(cp, stamped);
  font0Cached++;
  return stamped;
}

/**
 * Font 0: each character at Zebra's advance (the run's width is the ^A0 width times the sum
 * of its characters' advances, as the ZPL engine laid it out), drawn from its outline.
 */
function drawFont0Run(text: string, runW: number, runH: number, put: (left: number, glyph: StampedGlyph) => void): void {
  const chars = visualOrder(text);
  let units = 0;
  for (const ch of chars) units += font0Advance(ch.codePointAt(0)!);
  if (units <= 0) return;
  const charWidth = runW / units;
  const height = Math.min(MAX_GLYPH_DOTS * 4, runH);
  let at = 0;
  for (const ch of chars) {
    const cp = ch.codePointAt(0)!;
    const left = Math.round(at * charWidth);
    at += font0Advance(cp);
    const advance = Math.round(at * charWidth) - left;
    if (left >= runW) break;
    if (cp === 0x20 || advance <= 0) continue;
    put(left, font0Stamp(cp, Math.min(MAX_GLYPH_DOTS * 4, advance), height));
  }
}

/**
 * Text that erases or flips what is under it (ZPL ^FR): its dots are drawn on their own (the
 * part of the box on the page), then applied in `mode`, so a dot two glyphs share (a combining
 * mark over its letter) flips once.
 */
function drawTextInMode(page: PackedRaster, el: RenderTextElement, offsetY: number, mode: 'white' | 'xor'): void {
  const x = Math.round(el.x), y = Math.round(el.y) + offsetY;
  const x0 = Math.max(0, x), y0 = Math.max(0, y);
  const x1 = Math.min(page.width, x + Math.max(0, Math.round(el.width))), y1 = Math.min(page.height, y + Math.max(0, Math.round(el.height)));
  if (x1 <= x0 || y1 <= y0) return;
  const own = new PackedRaster(x1 - x0, y1 - y0);
  drawTextElement(own, { ...el, drawMode: 'black', x: x - x0, y: y - y0 });
  blitPacked(page, own, x0, y0, mode);
}
