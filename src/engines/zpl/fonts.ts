/**
 * Zebra's resident fonts (ZPL II Programming Guide vol. 2, "Font Matrices" and Table 10
 * "Intercharacter Gap and Baseline Parameters"): bitmap fonts A–H and GS with their dot
 * matrix per print head density, and the scalable font 0.
 *
 * The guide prints font B as "11 X 17" in the matrices; Table 10 and every Zebra give 11 x 7
 * (17 dots wide would be wider than tall for an upper-case-only small font): 11 x 7 is used.
 * At 12 and 24 dots/mm fonts E and H have larger matrices (42 x 20, 34 x 22); their gap and
 * baseline are not tabulated and are scaled from the 8 dots/mm values.
 */

import { font0Advance, FONT0_BASELINE } from '../render/glyphs/font0.ts';

export type Dpi = 203 | 300 | 600;

export interface BitmapFont {
  kind: 'bitmap';
  /** Zebra font name: 'A'..'H', 'GS', 'P'..'V'. */
  name: string;
  height: number;
  width: number;
  /** White dots between characters. */
  gap: number;
  /** Dots from the top of the matrix to the baseline (^FT places the baseline). */
  baseline: number;
}

export interface ScalableFont {
  kind: 'scalable';
  name: '0';
}

export type ZplFont = BitmapFont | ScalableFont;

type Row = [name: string, height: number, width: number, gap: number, baseline: number];

const COMMON: Row[] = [
  ['A', 9, 5, 1, 7],
  ['B', 11, 7, 2, 11],
  ['C', 18, 10, 2, 14],
  ['D', 18, 10, 2, 14],
  ['F', 26, 13, 3, 21],
  ['G', 60, 40, 8, 48],
  // GS is proportional (symbols); the baseline is 3/4 of the height.
  ['GS', 24, 24, 0, 18],
  // P–V (U-L-D fonts of the 8, 12 and 24 dots/mm tables; no gap tabulated).
  ['P', 20, 18, 0, 16],
  ['Q', 28, 24, 0, 22],
  ['R', 35, 31, 0, 28],
  ['S', 40, 35, 0, 32],
  ['T', 48, 42, 0, 38],
  ['U', 59, 53, 0, 47],
  ['V', 80, 71, 0, 64],
];

const BY_DPI: Record<Dpi, Row[]> = {
  203: [...COMMON, ['E', 28, 15, 5, 23], ['H', 21, 13, 6, 21]],
  300: [...COMMON, ['E', 42, 20, 7, 35], ['H', 34, 22, 10, 34]],
  600: [...COMMON, ['E', 42, 20, 7, 35], ['H', 34, 22, 10, 34]],
};

const TABLES = new Map<Dpi, Map<string, BitmapFont>>();
for (const dpi of [203, 300, 600] as Dpi[]) {
  const m = new Map<string, BitmapFont>();
  for (const [name, height, width, gap, baseline] of BY_DPI[dpi]) m.set(name, { kind: 'bitmap', name, height, width, gap, baseline });
  TABLES.set(dpi, m);
}

export const SCALABLE: ScalableFont = Object.freeze({ kind: 'scalable', name: '0' }) as ScalableFont;

/** The resident font of this name at this density, or undefined (not a resident font). */
export function residentFont(name: string, dpi: Dpi): ZplFont | undefined {
  const n = name.toUpperCase();
  if (n === '0') return SCALABLE;
  return TABLES.get(dpi)!.get(n);
}

/** Every resident font name (for the model's font list). */
export function residentFontNames(): string[] {
  return ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'GS', '0', 'P', 'Q', 'R', 'S', 'T', 'U', 'V'];
}

export function dpiOf(widthOrDpi: number): Dpi {
  return widthOrDpi >= 450 ? 600 : widthOrDpi >= 250 ? 300 : 203;
}

/** Font 0's built-in size (^CF default): 15 dots high, 12 wide. */
export const SCALABLE_DEFAULT = { height: 15, width: 12 };

/** A font chosen by ^A / ^CF with its size resolved: what a text field prints with. */
export interface SizedFont {
  font: ZplFont;
  /** Character height and width in dots (scalable), or the matrix times the magnification. */
  height: number;
  width: number;
  /** Magnifications (bitmap fonts); 1 for font 0. */
  magY: number;
  magX: number;
}

/**
 * ^A sizing. Bitmap fonts: h and w are rounded to whole multiples of the matrix (1..10); one
 * given alone sets both magnifications. Font 0: h and w in dots, one given alone is used for
 * both, none takes the ^CF size.
 */
export function sizeFont(font: ZplFont, h: number | null, w: number | null, fallback: { height: number; width: number }): SizedFont {
  if (font.kind === 'scalable') {
    const height = Math.max(1, h ?? (w ?? fallback.height));
    const width = Math.max(1, w ?? (h ?? fallback.width));
    return { font, height, width, magX: 1, magY: 1 };
  }
  const mag = (v: number, base: number): number => Math.min(10, Math.max(1, Math.round(v / base)));
  let magY = h !== null && h > 0 ? mag(h, font.height) : null;
  let magX = w !== null && w > 0 ? mag(w, font.width) : null;
  if (magY === null && magX === null) {
    // ^CF size applies when given in dots for this font, else the native matrix.
    magY = mag(fallback.height, font.height);
    magX = mag(fallback.width, font.width);
  }
  magY ??= magX!;
  magX ??= magY;
  return { font, height: font.height * magY, width: font.width * magX, magX, magY };
}

/** Width in dots of a run of text (before rotation). */
export function runWidth(f: SizedFont, text: string): number {
  if (f.font.kind === 'scalable') {
    let units = 0;
    for (const ch of text) units += font0Advance(ch.codePointAt(0)!);
    return Math.round(units * f.width);
  }
  let n = 0;
  for (const _ of text) n++;
  return n * (f.font.width + f.font.gap) * f.magX;
}

/** Advance between characters (for the text element's charSpacing): the gap in dots. */
export function charGap(f: SizedFont): number {
  return f.font.kind === 'bitmap' ? f.font.gap * f.magX : 0;
}

/** Dots from the top of a line of this font to its baseline (^FT). */
export function baselineOf(f: SizedFont): number {
  if (f.font.kind === 'scalable') return Math.round(f.height * FONT0_BASELINE);
  return f.font.baseline * f.magY;
}

/** Canvas font name of a ZPL font (the web UI and PNG renderer key glyph cells on it). */
export function canvasFontName(f: ZplFont): string {
  return `ZplFont${f.name}`;
}
