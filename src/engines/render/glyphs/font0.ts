/**
 * Zebra's scalable font 0 (CG Triumvirate Bold Condensed): its advance widths and vertical
 * proportions, and its glyphs drawn from bold condensed sans outlines (font0-data.ts, built by
 * scripts/build-font0.ts) fitted to them. One source of truth for the ZPL engine's layout
 * (where each character goes) and the renderer (what it looks like there).
 *
 * Proportions, as zpl-renderer-js (zebrash) and Labelary print them: for ^A0 height h the
 * capitals are 0.75 h tall with their tops on the field's top edge, so the baseline is 0.75 h
 * below it; a character advances its width fraction (below) times the ^A0 width w.
 */
import { FONT0_CAP_HEIGHT, FONT0_INDEX, FONT0_OUTLINES_BASE64 } from './font0-data.ts';
import { PackedRaster } from '../raster.ts';

/** Baseline (and cap height) as a fraction of the ^A0 height. */
export const FONT0_BASELINE = 0.75;

/**
 * Advance widths as fractions of the ^A0 width, measured on zpl-renderer-js, whose font 0
 * follows Zebra's metrics.
 */
const ADVANCES: Record<string, number> = {
  ' ': 0.25, '!': 0.333, '"': 0.333, '#': 0.5, $: 0.5, '%': 0.832, '&': 0.668, "'": 0.25, '(': 0.333, ')': 0.333,
  '*': 0.5, '+': 0.5, ',': 0.333, '-': 0.333, '.': 0.333, '/': 0.277, ':': 0.277, ';': 0.277, '<': 0.5, '=': 0.5,
  '>': 0.5, '?': 0.5, '@': 0.832, A: 0.558, B: 0.558, C: 0.558, D: 0.61, E: 0.5, F: 0.5, G: 0.61, H: 0.61, I: 0.277,
  J: 0.445, K: 0.558, L: 0.5, M: 0.778, N: 0.61, O: 0.61, P: 0.558, Q: 0.61, R: 0.61, S: 0.558, T: 0.5, U: 0.61,
  V: 0.558, W: 0.832, X: 0.558, Y: 0.558, Z: 0.5, '[': 0.333, '\\': 0.5, ']': 0.333, _: 0.5, '`': 0.333,
  a: 0.5, b: 0.5, c: 0.445, d: 0.5, e: 0.5, f: 0.277, g: 0.5, h: 0.5, i: 0.277, j: 0.277, k: 0.445, l: 0.277,
  m: 0.778, n: 0.5, o: 0.5, p: 0.5, q: 0.5, r: 0.333, s: 0.445, t: 0.277, u: 0.5, v: 0.445, w: 0.668, x: 0.445,
  y: 0.445, z: 0.39, '{': 0.275, '|': 0.25, '}': 0.275, '~': 0.5,
  0: 0.5, 1: 0.5, 2: 0.5, 3: 0.5, 4: 0.5, 5: 0.5, 6: 0.5, 7: 0.5, 8: 0.5, 9: 0.5,
};

/** Outline advance to Zebra advance for characters the table lacks (the faces' average ratio). */
const CONDENSE = 0.8;

interface Outlines {
  words: Int16Array;
  offsetByCodePoint: Map<number, number>;
}

let outlines: Outlines | null = null;

function load(): Outlines {
  const bin = atob(FONT0_OUTLINES_BASE64);
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  const words = new Int16Array(bytes.buffer, 0, bytes.length >> 1);
  const offsetByCodePoint = new Map<number, number>();
  for (let i = 0; i < FONT0_INDEX.length; i += 2) offsetByCodePoint.set(FONT0_INDEX[i], FONT0_INDEX[i + 1]);
  return { words, offsetByCodePoint };
}

function outlineAt(cp: number): number {
  outlines ??= load();
  return outlines.offsetByCodePoint.get(cp) ?? -1;
}

/** Whether font 0 draws `cp` from its outlines (others fall back to the bitmap glyphs). */
export function hasFont0Glyph(cp: number): boolean {
  return outlineAt(cp) >= 0;
}

const advanceCache = new Map<number, number>();

/**
 * Advance of `cp` as a fraction of the ^A0 width: Zebra's table, an accented letter's base
 * letter, else the outline's own advance condensed, else half the width.
 */
export function font0Advance(cp: number): number {
  const hit = advanceCache.get(cp);
  if (hit !== undefined) return hit;
  const ch = String.fromCodePoint(cp);
  let adv = ADVANCES[ch] ?? ADVANCES[ch.normalize('NFD')[0]];
  if (adv === undefined) {
    const at = outlineAt(cp);
    adv = at >= 0 ? Math.round((outlines!.words[at] / (FONT0_CAP_HEIGHT / FONT0_BASELINE)) * CONDENSE * 1000) / 1000 : 0.5;
  }
  advanceCache.set(cp, adv);
  return adv;
}

/** Flattened outline edges in dots: x0, y0, x1, y1 per edge. */
function edgesOf(at: number, sx: number, sy: number, baseline: number): number[] {
  const w = outlines!.words;
  const n = w[at + 1];
  const edges: number[] = [];
  let i = at + 2;
  const end = i + n;
  let startX = 0, startY = 0, px = 0, py = 0;
  const X = (v: number): number => v * sx;
  const Y = (v: number): number => baseline - v * sy;
  const lineTo = (x: number, y: number): void => { if (y !== py) edges.push(px, py, x, y); px = x; py = y; };
  while (i < end) {
    switch (w[i]) {
      case 0: // move: close the open contour first
        if (px !== startX || py !== startY) lineTo(startX, startY);
        startX = px = X(w[i + 1]); startY = py = Y(w[i + 2]); i += 3; break;
      case 1: lineTo(X(w[i + 1]), Y(w[i + 2])); i += 3; break;
      case 2: {
        const cx = X(w[i + 1]), cy = Y(w[i + 2]), ex = X(w[i + 3]), ey = Y(w[i + 4]);
        const ax = px, ay = py;
        const steps = Math.min(16, Math.max(2, Math.ceil(Math.sqrt(Math.hypot(ex - ax, ey - ay) + Math.hypot(cx - ax, cy - ay)))));
        for (let s = 1; s <= steps; s++) {
          const t = s / steps, u = 1 - t;
          lineTo(u * u * ax + 2 * u * t * cx + t * t * ex, u * u * ay + 2 * u * t * cy + t * t * ey);
        }
        i += 5; break;
      }
      case 3: {
        const c1x = X(w[i + 1]), c1y = Y(w[i + 2]), c2x = X(w[i + 3]), c2y = Y(w[i + 4]), ex = X(w[i + 5]), ey = Y(w[i + 6]);
        const ax = px, ay = py;
        const steps = Math.min(24, Math.max(2, Math.ceil(Math.sqrt(Math.hypot(ex - ax, ey - ay) * 2))));
        for (let s = 1; s <= steps; s++) {
          const t = s / steps, u = 1 - t;
          lineTo(u * u * u * ax + 3 * u * u * t * c1x + 3 * u * t * t * c2x + t * t * t * ex, u * u * u * ay + 3 * u * u * t * c1y + 3 * u * t * t * c2y + t * t * t * ey);
        }
        i += 7; break;
      }
      default: // close
        lineTo(startX, startY); i += 1; break;
    }
  }
  if (px !== startX || py !== startY) lineTo(startX, startY);
  return edges;
}

/**
 * The glyph of `cp` in a cell `advance` dots wide and `height` (the ^A0 height) high, its
 * outline stretched to the cell's width and to the cap height: a dot is black when its centre
 * is inside the outline (non-zero winding). Null when the outlines lack `cp`.
 */
export function font0Glyph(cp: number, advance: number, height: number): PackedRaster | null {
  const at = outlineAt(cp);
  if (at < 0) return null;
  const w = outlines!.words;
  const sy = (height * FONT0_BASELINE) / FONT0_CAP_HEIGHT;
  const sx = w[at] > 0 ? advance / w[at] : sy;
  const cell = new PackedRaster(Math.max(1, advance), Math.max(1, height));
  const edges = edgesOf(at, sx, sy, height * FONT0_BASELINE);
  const xs: number[] = [];
  const dirs: number[] = [];
  for (let row = 0; row < cell.height; row++) {
    const yc = row + 0.5;
    xs.length = 0;
    dirs.length = 0;
    for (let e = 0; e < edges.length; e += 4) {
      const y0 = edges[e + 1], y1 = edges[e + 3];
      const up = y0 <= yc && yc < y1, down = y1 <= yc && yc < y0;
      if (!up && !down) continue;
      const x0 = edges[e], x1 = edges[e + 2];
      const x = x0 + ((yc - y0) * (x1 - x0)) / (y1 - y0);
      // Insertion keeps the crossings sorted (a glyph row has a handful).
      let k = xs.length;
      while (k > 0 && xs[k - 1] > x) k--;
      xs.splice(k, 0, x);
      dirs.splice(k, 0, up ? 1 : -1);
    }
    let winding = 0;
    for (let k = 0; k < xs.length - 1; k++) {
      winding += dirs[k];
      if (winding === 0) continue;
      const from = Math.max(0, Math.ceil(xs[k] - 0.5)), to = Math.min(cell.width, Math.ceil(xs[k + 1] - 0.5));
      if (to > from) cell.fillRect(from, row, to - from, 1);
    }
  }
  return cell;
}
